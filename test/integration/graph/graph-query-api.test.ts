import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentInput } from '../../../shared/domain/incidents/incident-input';
import { forgeCursor } from '../../support/cursors';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/** Incidents pushed over HTTP become a neighbourhood readable over HTTP. */
let service: TestService;
let reader: string;

function incident(id: string, entities: IncidentInput['entities'], day = 1): IncidentInput {
  return {
    source: 'custom',
    source_id: id,
    title: `Incident ${id}`,
    severity: 'high',
    status: 'new',
    created_at: `2026-11-${String(day).padStart(2, '0')}T08:00:00Z`,
    entities,
  };
}

beforeAll(async () => {
  service = await startTestService();
  reader = (await service.createKey({ name: 'graph reader', scopes: ['graph:read'] })).apiKey;
  const writer = (await service.createKey({ name: 'siem', scopes: ['incidents:write'] })).apiKey;
  const incidents = [
    incident('g1', ['203.0.113.66', 'J.Doe@Contoso.example', { type: 'host', value: 'WS-0142' }], 1),
    incident('g2', ['203.0.113.66', 'j.doe@contoso.example'], 2),
    incident('g3', [{ type: 'host', value: 'ws-0142' }, 'update-cdn.example.net'], 3),
    // The same bare value stored as a host and as a user.
    incident('g4', [{ type: 'host', value: 'alice' }, '198.51.100.9'], 4),
    incident('g5', [{ type: 'user', value: 'alice' }, '198.51.100.9'], 5),
    // A name inferred as a domain but stored only as a host and as a user.
    incident('g6', [{ type: 'host', value: 'files.example.com' }, '198.51.100.9'], 5),
    incident('g7', [{ type: 'user', value: 'files.example.com' }, '198.51.100.9'], 5),
    // 30 neighbours of one hub, for paging.
    ...Array.from({ length: 30 }, (_, i) => incident(`hub-${i}`, ['hub.example.org', `192.0.2.${i + 1}`], 6)),
  ];
  const answer = await service.call('POST', '/api/v1/incidents/ingest', { key: writer, body: { incidents } });
  expect(answer.body).toMatchObject({ accepted: incidents.length, rejected: 0 });
  await service.incidentQueue.idle();
});

afterAll(async () => {
  await service?.stop();
});

describe('GET /api/v1/graph/entity/{value}', () => {
  it('returns the entity and its neighbours, strongest first, from a normalised value', async () => {
    const answer = await service.call('GET', '/api/v1/graph/entity/J.DOE%40contoso.EXAMPLE', { key: reader });
    expect(answer.status).toBe(200);
    expect(answer.body.entity).toMatchObject({
      type: 'user',
      value: 'j.doe@contoso.example',
      incident_count: 2,
    });
    expect(answer.body.neighbors.map((n: { value: string }) => n.value)).toEqual(['203.0.113.66', 'ws-0142']);
    expect(answer.body.neighbors[0]).toMatchObject({
      type: 'ip',
      relationship: 'co_occurs_in_incident',
      count: 2,
      depth: 1,
      evidence: [expect.stringMatching(/^inc_/), expect.stringMatching(/^inc_/)],
    });
    expect(answer.body.next_cursor).toBeNull();
  });

  it('adds neighbours of neighbours at depth 2, each once, never the entity itself', async () => {
    const answer = await service.call('GET', '/api/v1/graph/entity/203.0.113.66?depth=2', { key: reader });
    const second = answer.body.neighbors.filter((n: { depth: number }) => n.depth === 2);
    expect(second).toEqual([
      expect.objectContaining({ value: 'update-cdn.example.net', via: { type: 'host', value: 'ws-0142' } }),
    ]);
    expect(answer.body.neighbors.some((n: { value: string }) => n.value === '203.0.113.66')).toBe(false);
  });

  it('pages a large neighbourhood with a cursor bound to the query', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/v1/graph/entity/hub.example.org?limit=8${cursor ? `&cursor=${cursor}` : ''}`;
      const answer = await service.call('GET', url, { key: reader });
      expect(answer.status).toBe(200);
      seen.push(...answer.body.neighbors.map((n: { value: string }) => n.value));
      cursor = answer.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);

    const first = await service.call('GET', '/api/v1/graph/entity/hub.example.org?limit=8', { key: reader });
    const foreign = await service.call(
      'GET',
      `/api/v1/graph/entity/203.0.113.66?cursor=${first.body.next_cursor}`,
      {
        key: reader,
      },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject(errorShape('invalid_cursor'));
    const forged = forgeCursor(first.body.next_cursor, { after: 'NODE' });
    expect(
      (await service.call('GET', `/api/v1/graph/entity/hub.example.org?cursor=${forged}`, { key: reader }))
        .status,
    ).toBe(400);
  });

  it('asks for a type when a value is stored under several, and uses the one given', async () => {
    const ambiguous = await service.call('GET', '/api/v1/graph/entity/alice', { key: reader });
    // "alice" is inferred as a host, which is one of the stored types: inference decides.
    expect(ambiguous.status).toBe(200);
    expect(ambiguous.body.entity).toMatchObject({ type: 'host', value: 'alice' });
    const user = await service.call('GET', '/api/v1/graph/entity/alice?type=user', { key: reader });
    expect(user.body.entity).toMatchObject({ type: 'user', value: 'alice' });
    const neither = await service.call('GET', '/api/v1/graph/entity/files.example.com', { key: reader });
    expect(neither.status).toBe(400);
    expect(neither.body.error.message).toMatch(/\?type=host or \?type=user/);
    const host = await service.call('GET', '/api/v1/graph/entity/files.example.com?type=host', {
      key: reader,
    });
    expect(host.body.entity).toMatchObject({ type: 'host', value: 'files.example.com', incident_count: 1 });
  });

  it('answers 404 for an unknown entity, 400 for an invalid one, 403 without graph:read', async () => {
    const unknown = await service.call('GET', '/api/v1/graph/entity/never-seen.example.com', { key: reader });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(errorShape('not_found'));
    expect(unknown.body.error.message).toContain('never-seen.example.com');
    for (const bad of ['999.1.1.1', 'a%20b', `${'a'.repeat(257)}`]) {
      expect((await service.call('GET', `/api/v1/graph/entity/${bad}`, { key: reader })).status).toBe(400);
    }
    expect(
      (await service.call('GET', '/api/v1/graph/entity/203.0.113.66?depth=3', { key: reader })).status,
    ).toBe(400);
    const other = (await service.createKey({ name: 'no graph', scopes: ['incidents:read'] })).apiKey;
    expect((await service.call('GET', '/api/v1/graph/entity/203.0.113.66', { key: other })).status).toBe(403);
  });
});
