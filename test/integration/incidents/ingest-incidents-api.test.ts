import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/** POST /api/v1/incidents/ingest over HTTP, with normalised and native SIEM records. */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/siem/${name}.json`, import.meta.url), 'utf8'));

let service: TestService;
let writer: string;
let reader: string;

async function listed(): Promise<
  { incident_id: string; source: string; source_id: string; status: string }[]
> {
  const answer = await service.call('GET', '/api/v1/incidents?limit=100', { key: reader });
  expect(answer.status).toBe(200);
  return answer.body.incidents;
}

beforeAll(async () => {
  service = await startTestService();
  writer = (await service.createKey({ name: 'siem push', scopes: ['incidents:write'] })).apiKey;
  reader = (await service.createKey({ name: 'reader', scopes: ['incidents:read', 'graph:read'] })).apiKey;
});

afterAll(async () => {
  await service?.stop();
});

describe('POST /api/v1/incidents/ingest', () => {
  it("accepts each SIEM's native records and stores one incident per SIEM record, however often it is sent", async () => {
    const bodies = [
      { format: 'sentinel', incidents: fixture('sentinel-incidents').value },
      { format: 'splunk', incidents: fixture('splunk-notables').results },
      { format: 'elastic', incidents: fixture('elastic-alerts').hits.hits },
    ];
    for (const body of [...bodies, ...bodies]) {
      const answer = await service.call('POST', '/api/v1/incidents/ingest', { key: writer, body });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ accepted: body.incidents.length, rejected: 0, errors: [] });
    }
    await service.incidentQueue.idle();
    const incidents = await listed();
    expect(incidents).toHaveLength(6);
    expect(new Set(incidents.map((i) => `${i.source}|${i.source_id}`)).size).toBe(6);
    expect(service.incidentQueue.dlq()).toEqual([]);
  });

  it('updates an incident from a newer copy and ignores an older one', async () => {
    const base = {
      source: 'custom',
      source_id: 'edr-77',
      title: 'Suspicious PowerShell on ws-0219',
      severity: 'medium',
      created_at: '2026-11-05T10:00:00Z',
      entities: ['ws-0219.corp.example.com', '192.0.2.99'],
    };
    const newer = { ...base, status: 'resolved', updated_at: '2026-11-05T12:00:00Z' };
    const older = { ...base, status: 'new', updated_at: '2026-11-05T11:00:00Z' };
    await service.call('POST', '/api/v1/incidents/ingest', { key: writer, body: { incidents: [newer] } });
    await service.incidentQueue.idle();
    await service.call('POST', '/api/v1/incidents/ingest', { key: writer, body: { incidents: [older] } });
    await service.incidentQueue.idle();
    const stored = (await listed()).filter((i) => i.source_id === 'edr-77');
    expect(stored).toEqual([expect.objectContaining({ status: 'resolved' })]);
    const graph = await service.call('GET', '/api/v1/graph/entity/192.0.2.99', { key: reader });
    expect(graph.body.entity.incident_count).toBe(1);
    expect(graph.body.neighbors).toEqual([
      expect.objectContaining({ value: 'ws-0219.corp.example.com', count: 1 }),
    ]);
  });

  it('reports invalid records by index and queues the valid ones', async () => {
    const answer = await service.call('POST', '/api/v1/incidents/ingest', {
      key: writer,
      body: {
        incidents: [
          {
            source: 'custom',
            source_id: 'ok-1',
            title: 'Fine',
            severity: 'low',
            status: 'new',
            created_at: '2026-11-06T00:00:00Z',
          },
          {
            source: 'custom',
            source_id: 'bad-1',
            title: 'No severity',
            status: 'new',
            created_at: '2026-11-06T00:00:00Z',
          },
          {
            source: 'custom',
            source_id: 'bad-2',
            title: 'Local time',
            severity: 'low',
            status: 'new',
            created_at: '2026-11-06T00:00:00',
          },
        ],
      },
    });
    expect(answer.status).toBe(202);
    expect(answer.body.accepted).toBe(1);
    expect(answer.body.rejected).toBe(2);
    expect(answer.body.errors.map((e: { index: number }) => e.index)).toEqual([1, 2]);
    expect(answer.body.errors[1].message).toMatch(/created_at/);
  });

  it('rejects impossible calendar dates per record (never stored as another day), and in since/until with 400', async () => {
    const record = (id: string, created: string) => ({
      source: 'custom',
      source_id: id,
      title: 'Calendar check',
      severity: 'low',
      status: 'new',
      created_at: created,
    });
    const answer = await service.call('POST', '/api/v1/incidents/ingest', {
      key: writer,
      body: {
        incidents: [
          record('feb-30', '2026-02-30T10:00:00Z'),
          record('apr-31', '2026-04-31T10:00:00Z'),
          record('midnight-24', '2026-05-01T24:00:00Z'),
          record('leap-day', '2024-02-29T10:00:00Z'),
        ],
      },
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ accepted: 1, rejected: 3 });
    expect(answer.body.errors.map((e: { index: number }) => e.index)).toEqual([0, 1, 2]);
    for (const error of answer.body.errors) expect(error.message).toMatch(/created_at/);
    await service.incidentQueue.idle();
    const ids = (await listed()).map((i) => i.source_id);
    expect(ids).toContain('leap-day');
    expect(ids).not.toEqual(expect.arrayContaining(['feb-30']));
    expect(ids).not.toEqual(expect.arrayContaining(['apr-31']));

    for (const query of ['since=2026-02-30T10:00:00Z', 'until=2026-04-31', 'since=2025-02-29']) {
      const refused = await service.call('GET', `/api/v1/incidents?${query}`, { key: reader });
      expect(refused.status, query).toBe(400);
      expect(refused.body).toMatchObject(errorShape('validation_error'));
      expect(refused.body.error.message, query).toContain(`query.${query.split('=')[0]}`);
    }
  });

  it('refuses malformed envelopes with 400, oversized bodies with 413, and other scopes with 403', async () => {
    for (const body of [{}, { incidents: [] }, { format: 'qradar', incidents: [{}] }, { incidents: 'x' }]) {
      const answer = await service.call('POST', '/api/v1/incidents/ingest', { key: writer, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject(errorShape('validation_error'));
    }
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ source_id: String(i) }));
    expect(
      (await service.call('POST', '/api/v1/incidents/ingest', { key: writer, body: { incidents: tooMany } }))
        .status,
    ).toBe(400);
    const huge = { incidents: [{ source: 'custom', description: 'x'.repeat(1_100_000) }] };
    expect((await service.call('POST', '/api/v1/incidents/ingest', { key: writer, body: huge })).status).toBe(
      413,
    );
    expect(
      (await service.call('POST', '/api/v1/incidents/ingest', { key: reader, body: { incidents: [{}] } }))
        .status,
    ).toBe(403);
  });
});
