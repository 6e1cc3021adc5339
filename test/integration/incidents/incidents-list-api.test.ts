import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentInput } from '../../../shared/domain/incidents/incident-input';
import { forgeCursor } from '../../support/cursors';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * Ingest → list over HTTP on the local runtime: the push endpoint queues, the local queue runs the
 * real consumer, the list endpoint pages the stored incidents.
 */
let service: TestService;
let reader: string;
let writer: string;

const SEVERITIES = ['informational', 'low', 'medium', 'high', 'critical'] as const;
const STATUSES = ['new', 'active', 'resolved', 'closed'] as const;
const BASE = Date.parse('2026-10-01T00:00:00Z');

/** 120 incidents, one every 30 minutes, with severities and statuses cycling; 10 share one instant. */
function batch(): IncidentInput[] {
  return Array.from({ length: 120 }, (_, i) => ({
    source: 'custom',
    source_id: `list-${i}`,
    title: `Incident ${i}`,
    severity: SEVERITIES[i % 5]!,
    status: STATUSES[i % 4]!,
    created_at: new Date(BASE + (i < 10 ? 0 : i) * 1_800_000).toISOString(),
    entities: [{ type: 'host', value: `ws-${i % 7}` }],
  }));
}

async function listAll(query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url: string = `/api/v1/incidents?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await service.call('GET', url, { key: reader });
    expect(answer.status).toBe(200);
    ids.push(...answer.body.incidents.map((i: { source_id: string }) => i.source_id));
    cursor = answer.body.next_cursor;
    pages++;
  } while (cursor && pages < 200);
  return { ids, pages };
}

beforeAll(async () => {
  service = await startTestService();
  // Paging through everything with limit=1 is far beyond a plugin's default rate limit.
  const fast = { rate_per_second: 5_000, burst: 5_000 };
  reader = (await service.createKey({ name: 'reader', scopes: ['incidents:read'], rate_limit: fast })).apiKey;
  writer = (await service.createKey({ name: 'siem', scopes: ['incidents:write'] })).apiKey;
  const answer = await service.call('POST', '/api/v1/incidents/ingest', {
    key: writer,
    body: { incidents: batch() },
  });
  expect(answer.status).toBe(202);
  expect(answer.body).toEqual({ accepted: 120, rejected: 0, errors: [] });
  await service.incidentQueue.idle();
});

afterAll(async () => {
  await service?.stop();
});

function expected(filter: (i: IncidentInput) => boolean): string[] {
  return batch()
    .filter(filter)
    .sort((a, b) => (a.created_at === b.created_at ? 0 : a.created_at < b.created_at ? 1 : -1))
    .map((i) => i.source_id);
}

describe('GET /api/v1/incidents', () => {
  it('lists newest first with links, and pages without repeats or gaps', async () => {
    const first = await service.call('GET', '/api/v1/incidents?limit=2', { key: reader });
    expect(first.body.incidents[0]).toMatchObject({
      source_id: 'list-119',
      title: 'Incident 119',
      severity: 'critical',
      status: 'closed',
      link: `${service.baseUrl}/incidents/${first.body.incidents[0].incident_id}`,
      created_at: new Date(BASE + 119 * 1_800_000).toISOString(),
    });
    for (const limit of [1, 7, 20, 100]) {
      const { ids } = await listAll('', limit);
      expect(ids).toHaveLength(120);
      expect(new Set(ids).size).toBe(120);
      // Same-instant incidents are ordered by ID, which the expectation cannot know: compare as sets there.
      expect(ids.slice(0, 110)).toEqual(expected(() => true).slice(0, 110));
    }
  });

  it('filters by severity, status and a created_at range', async () => {
    const since = new Date(BASE + 40 * 1_800_000).toISOString();
    const until = new Date(BASE + 80 * 1_800_000).toISOString();
    const { ids } = await listAll(
      `severity=high,critical&status=new,active&since=${since}&until=${until}`,
      3,
    );
    const want = expected(
      (i) =>
        ['high', 'critical'].includes(i.severity) &&
        ['new', 'active'].includes(i.status) &&
        i.created_at >= since &&
        i.created_at < until,
    );
    expect(want.length).toBeGreaterThan(3);
    expect(ids).toEqual(want);
    const statusOnly = await listAll('status=resolved', 11);
    expect(statusOnly.ids.sort()).toEqual(expected((i) => i.status === 'resolved').sort());
    const day = await listAll('since=2026-10-02&until=2026-10-03', 50);
    expect(day.ids).toEqual(expected((i) => i.created_at >= '2026-10-02' && i.created_at < '2026-10-03'));
  });

  it('refuses tampered cursors and cursors of another query with 400', async () => {
    const page = await service.call('GET', '/api/v1/incidents?severity=high&limit=2', { key: reader });
    const cursor: string = page.body.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const foreign = await service.call('GET', `/api/v1/incidents?severity=low&limit=2&cursor=${cursor}`, {
      key: reader,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject(errorShape('invalid_cursor'));
    for (const position of [{ after: 'x' }, { after: 5 }, { after: `${'9'.repeat(30)}` }, null]) {
      const forged = forgeCursor(cursor, position);
      const answer = await service.call('GET', `/api/v1/incidents?severity=high&limit=2&cursor=${forged}`, {
        key: reader,
      });
      expect(answer.status).toBe(400);
    }
    const garbage = await service.call('GET', '/api/v1/incidents?cursor=%F0%9F%92%A9', { key: reader });
    expect(garbage.status).toBe(400);
  });

  it('rejects out-of-range limits and inverted time ranges with 400, and other scopes with 403', async () => {
    for (const query of ['limit=0', 'limit=101', 'since=2026-10-03&until=2026-10-02', 'since=yesterday']) {
      expect((await service.call('GET', `/api/v1/incidents?${query}`, { key: reader })).status).toBe(400);
    }
    expect((await service.call('GET', '/api/v1/incidents', { key: writer })).status).toBe(403);
    expect(
      (await service.call('POST', '/api/v1/incidents/ingest', { key: reader, body: { incidents: batch() } }))
        .status,
    ).toBe(403);
  });
});
