import { describe, expect, it } from 'vitest';
import {
  IngestIncidentsRequest,
  ListIncidentsQuery,
  ListIncidentsResponse,
} from '../../../shared/api/schemas/incidents';
import { demoIncidents } from '../../../shared/domain/data/demo-tenant';
import { toIncidentView } from '../../../shared/domain/incidents/incident';
import { normaliseIngestBatch } from '../../../shared/domain/siem';

describe('ListIncidentsQuery', () => {
  it('applies defaults', () => {
    expect(ListIncidentsQuery.parse({})).toEqual({ limit: 20 });
  });

  it('parses comma lists of severities and statuses, mapping synonyms and dropping repeats', () => {
    expect(
      ListIncidentsQuery.parse({ severity: 'High, critical,,HIGH', status: 'Open,InProgress' }),
    ).toMatchObject({
      severity: ['high', 'critical'],
      status: ['new', 'active'],
    });
    expect(ListIncidentsQuery.parse({ severity: 'info' }).severity).toEqual(['informational']);
  });

  it('normalises since and until to UTC, accepting a bare date', () => {
    expect(
      ListIncidentsQuery.parse({ since: '2026-11-01', until: '2026-11-02T02:00:00+02:00' }),
    ).toMatchObject({
      since: '2026-11-01T00:00:00.000Z',
      until: '2026-11-02T00:00:00.000Z',
    });
  });

  it.each([
    [{ severity: 'urgent' }, 'severity'],
    [{ severity: ',' }, 'severity'],
    [{ status: 'frozen' }, 'status'],
    [{ since: 'yesterday' }, 'since'],
    [{ since: '2026-11-01T00:00:00' }, 'since'],
    [{ since: '2026-11-02', until: '2026-11-01' }, 'until'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ cursor: '' }, 'cursor'],
  ])('rejects %j at %s', (query, path) => {
    const result = ListIncidentsQuery.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('allows an empty range (since = until)', () => {
    expect(ListIncidentsQuery.safeParse({ since: '2026-11-01', until: '2026-11-01' }).success).toBe(true);
  });
});

describe('IngestIncidentsRequest', () => {
  const incident = {
    source: 'custom',
    source_id: 'edr-1',
    title: 'EDR alert',
    severity: 'low',
    status: 'new',
    created_at: '2026-11-01T00:00:00Z',
    entities: [{ type: 'ip', value: '203.0.113.7' }],
  };

  it('checks the envelope only, so a bad item is reported by index rather than failing the batch', () => {
    const body = IngestIncidentsRequest.parse({
      incidents: [
        incident,
        { ...incident, source_id: 'edr-2', severity: 7, entities: [{ type: 'planet', value: 'x' }] },
      ],
    });
    const outcome = normaliseIngestBatch(body);
    expect(outcome.incidents.map((i) => i.source_id)).toEqual(['edr-1']);
    expect(outcome.errors.map((e) => e.index)).toEqual([1]);
    expect(outcome.errors[0]?.message).toContain('severity');
    expect(outcome.errors[0]?.message).toContain('entities.0.type');
  });

  it('passes native records through unchanged', () => {
    const native = { event_id: 'x', _time: '1793250000', search_name: 'Rule', extra: { nested: [1] } };
    expect(IngestIncidentsRequest.parse({ format: 'splunk', incidents: [native] }).incidents[0]).toEqual(
      native,
    );
  });

  it.each([
    ['no incidents', { incidents: [] }],
    ['more than 500', { incidents: new Array(501).fill(incident) }],
    ['items that are not objects', { incidents: ['incident'] }],
    ['an unknown format', { format: 'qradar', incidents: [incident] }],
    ['no incidents field', {}],
  ])('rejects a body with %s', (_, body) => {
    expect(IngestIncidentsRequest.safeParse(body).success).toBe(false);
  });

  it('accepts exactly 500', () => {
    expect(IngestIncidentsRequest.safeParse({ incidents: new Array(500).fill(incident) }).success).toBe(true);
  });
});

describe('ListIncidentsResponse', () => {
  it('describes the list view of every demo incident', () => {
    const incidents = demoIncidents(new Date('2026-11-01T12:00:00Z')).map((i) =>
      toIncidentView(i, 'http://127.0.0.1:3000'),
    );
    expect(ListIncidentsResponse.safeParse({ incidents, next_cursor: null }).success).toBe(true);
  });
});
