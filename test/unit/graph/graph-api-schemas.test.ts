import { describe, expect, it } from 'vitest';
import { GraphEntityParams, GraphQuery, GraphResponse } from '../../../shared/api/schemas/graph';
import { assembleNeighborhood, edgeSides, edgesFromIncident } from '../../../shared/domain/graph/graph';

describe('GraphEntityParams', () => {
  it('decodes a still percent-encoded value once', () => {
    expect(GraphEntityParams.parse({ value: 'j.doe%40contoso.example' }).value).toBe('j.doe@contoso.example');
    expect(GraphEntityParams.parse({ value: 'contoso%5Cj.doe' }).value).toBe('contoso\\j.doe');
    // Decoded once only: %2540 is a literal "%40".
    expect(GraphEntityParams.parse({ value: 'a%2540b' }).value).toBe('a%40b');
  });

  it('leaves a value with a stray percent sign alone', () => {
    expect(GraphEntityParams.parse({ value: 'fe80::1%eth0' }).value).toBe('fe80::1%eth0');
    expect(GraphEntityParams.parse({ value: '100%' }).value).toBe('100%');
  });

  it.each([[''], ['   '], ['x'.repeat(257)]])('rejects %j', (value) => {
    expect(GraphEntityParams.safeParse({ value }).success).toBe(false);
  });
});

describe('GraphQuery', () => {
  it('defaults to depth 1 and limit 20', () => {
    expect(GraphQuery.parse({})).toEqual({ depth: 1, limit: 20 });
    expect(GraphQuery.parse({ type: 'user', depth: '2', limit: '100' })).toEqual({
      type: 'user',
      depth: 2,
      limit: 100,
    });
  });

  it.each([
    { depth: '0' },
    { depth: '3' },
    { depth: '1.5' },
    { limit: '0' },
    { limit: '101' },
    { type: 'planet' },
  ])('rejects %j', (query) => {
    expect(GraphQuery.safeParse(query).success).toBe(false);
  });
});

describe('GraphResponse', () => {
  it('describes a neighborhood assembled by the domain', () => {
    const ip = { type: 'ip', value: '203.0.113.66' } as const;
    const edges = edgesFromIncident({
      incident_id: 'inc_a',
      created_at: '2026-11-01T08:00:00.000Z',
      entities: [ip, { type: 'user', value: 'j.doe@contoso.example' }, { type: 'host', value: 'dc01' }],
    });
    const depth1 = edges.flatMap(edgeSides).filter((s) => s.self.value === ip.value);
    const response = {
      entity: {
        ...ip,
        first_seen: '2026-11-01T08:00:00.000Z',
        last_seen: '2026-11-01T08:00:00.000Z',
        investigation_count: 0,
        incident_count: 1,
      },
      neighbors: assembleNeighborhood(ip, depth1),
      next_cursor: null,
    };
    const parsed = GraphResponse.safeParse(response);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.neighbors).toHaveLength(2);
  });
});
