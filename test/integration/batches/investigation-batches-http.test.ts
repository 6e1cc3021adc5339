import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * Issue 38, incidents investigated as they arrive (this file's one service runs with
 * SIS_AUTO_INVESTIGATE_SEVERITY=high), batches and background starts a playbook follows, through the whole local runtime (one
 * service for the file): a batch over 100, empty or with a bad entity is a 400 that starts nothing;
 * the same entity twice is investigated once; each entity counts against the key's running cap and
 * daily quota; only the starting key reads the batch; every 202 that hands back work carries
 * Location and Retry-After, and the session's Location answers 202 until the session has ended.
 */
const SLOW = (i: number) => `slow-${i}.example.com`;

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_MAX_RUNNING_INVESTIGATIONS: '3',
      SIS_DEFAULT_DAILY_INVESTIGATIONS: '5',
      SIS_AUTO_INVESTIGATE_SEVERITY: 'high',
      SIS_AUTO_INVESTIGATE_RECHECK_SECONDS: '1',
      SIS_FAULT_INJECTION: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        .map((i) => `step-run-tool@${SLOW(i)}=delay:2500`)
        .join(','),
    },
  });
});

afterAll(async () => {
  await service?.stop();
});

const postBatch = (key: string, body: unknown) =>
  service.call('POST', '/api/v1/investigations/batch', { key, body });

const pathOf = (location: unknown) => {
  const url = new URL(String(location));
  return `${url.pathname}${url.search}`;
};

async function untilBatchEnds(key: string, path: string) {
  for (let i = 0; i < 200; i++) {
    const answer = await service.call('GET', path, { key });
    expect(answer.status).toBe(200);
    if (answer.body.status === 'completed') return answer;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  throw new Error('the batch did not end');
}

const sessionsOf = async (key: string) =>
  (await service.call('GET', '/api/v1/sessions?limit=100', { key })).body.sessions as unknown[];

describe('starting a batch', () => {
  it('refuses an empty batch, one over 100 and one with a bad entity, starting nothing', async () => {
    const key = (await service.createKey({ name: 'careless playbook' })).apiKey;
    const tooMany = Array.from({ length: 101 }, (_, i) => `host-${i}`);
    for (const entities of [[], tooMany, ['203.0.113.7', { type: 'ip', value: '999.1.1.1' }]]) {
      const answer = await postBatch(key, { entities });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject(errorShape('validation_error'));
    }
    const bad = await postBatch(key, { entities: ['203.0.113.7', { type: 'ip', value: '999.1.1.1' }] });
    expect(bad.body.error.details).toEqual([expect.objectContaining({ path: 'body.entities.1.value' })]);
    expect(await sessionsOf(key)).toEqual([]);
  });

  it('investigates a duplicate once and is followed through Location by its key only', async () => {
    const key = (await service.createKey({ name: 'soar playbook' })).apiKey;
    const answer = await postBatch(key, {
      entities: [
        '203.0.113.7',
        { type: 'ip', value: '203.0.113.7' },
        { type: 'domain', value: 'Example.COM' },
      ],
    });
    expect(answer.status).toBe(202);
    expect(answer.body.sessions).toEqual([
      {
        entity: { type: 'ip', value: '203.0.113.7' },
        session_id: expect.any(String),
        session_url: expect.any(String),
      },
      {
        entity: { type: 'domain', value: 'example.com' },
        session_id: expect.any(String),
        session_url: expect.any(String),
      },
    ]);
    expect(pathOf(answer.headers.location)).toBe(`/api/v1/investigations/batch/${answer.body.batch_id}`);
    expect(answer.headers['retry-after']).toBe('5');

    const ended = await untilBatchEnds(key, pathOf(answer.headers.location));
    expect(ended.body.counts).toEqual({ initialized: 0, active: 0, completed: 2, failed: 0, canceled: 0 });
    expect(ended.body.sessions).toEqual(
      answer.body.sessions.map((s: { session_id: string; entity: unknown }) => ({
        session_id: s.session_id,
        entity: s.entity,
        status: 'completed',
        verdict: expect.any(String),
        risk_score: expect.any(Number),
      })),
    );

    const other = (await service.createKey({ name: 'another playbook' })).apiKey;
    const foreign = await service.call('GET', pathOf(answer.headers.location), { key: other });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject(errorShape('forbidden'));
    const unknown = await service.call('GET', '/api/v1/investigations/batch/b_01JD6Z7QK3Q0V8Y5N2B4C6D8EF', {
      key,
    });
    expect(unknown.status).toBe(404);
  });

  it('counts each entity against the running cap and the daily quota', async () => {
    const busy = (await service.createKey({ name: 'busy playbook' })).apiKey;
    const capped = await postBatch(busy, { entities: [0, 1, 2, 3].map(SLOW) });
    expect(capped.status).toBe(202);
    expect(capped.body.sessions.filter((s: { session_id?: string }) => s.session_id)).toHaveLength(3);
    expect(capped.body.sessions[3]).toEqual({
      entity: { type: 'domain', value: SLOW(3) },
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/Running-investigations cap reached: at most 3 /),
      },
    });

    const daily = (await service.createKey({ name: 'daily playbook' })).apiKey;
    const first = await postBatch(daily, {
      entities: ['day-1.example.com', 'day-2.example.com', 'day-3.example.com'],
    });
    await untilBatchEnds(daily, pathOf(first.headers.location));
    const second = await postBatch(daily, {
      entities: ['day-4.example.com', 'day-5.example.com', 'day-6.example.com'],
    });
    const refused = second.body.sessions.filter((s: { error?: unknown }) => s.error);
    // The batch takes the quota once, in entity order: the last one finds it spent.
    expect(refused).toEqual([
      {
        entity: { type: 'domain', value: 'day-6.example.com' },
        error: {
          code: 'rate_limited',
          message: expect.stringMatching(/Daily investigation quota used up: at most 5 /),
        },
      },
    ]);
    const counted = await untilBatchEnds(daily, pathOf(second.headers.location));
    expect(counted.body.counts.completed).toBe(2);
  });
});

describe('background starts a playbook follows', () => {
  it('hands back Location and Retry-After, and the Location answers 202 until the session ends', async () => {
    const key = (await service.createKey({ name: 'logic app' })).apiKey;
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key,
      body: { entity: { type: 'domain', value: SLOW(4) }, background: true },
    });
    expect(started.status).toBe(202);
    const location = pathOf(started.headers.location);
    expect(location).toBe(`/api/v1/public/sessions/${started.body.session_id}?async=true`);
    expect(started.headers['retry-after']).toBe('5');

    const running = await service.call('GET', location, { key });
    expect(running.status).toBe(202);
    expect(running.body.session.status).not.toMatch(/completed|failed|canceled/);
    expect(pathOf(running.headers.location)).toBe(location);
    expect(running.headers['retry-after']).toBe('5');
    // The plain poll keeps its contract: 200 whatever the status.
    const plain = await service.call('GET', `/api/v1/public/sessions/${started.body.session_id}`, { key });
    expect(plain.status).toBe(200);

    let last = running;
    for (let i = 0; i < 100 && last.status === 202; i++) {
      await new Promise((wake) => setTimeout(wake, 100));
      last = await service.call('GET', location, { key });
    }
    expect(last.status).toBe(200);
    expect(last.body.session.status).toBe('completed');
    expect(last.headers.location).toBeUndefined();
  });
});

describe('incidents investigated as they arrive', () => {
  let pusher: string;
  const push = async (source_id: string, severity: string, entities: string[]) => {
    pusher ??= (await service.createKey({ name: 'edr push', scopes: ['incidents:write', 'incidents:read'] }))
      .apiKey;
    const answer = await service.call('POST', '/api/v1/incidents/ingest', {
      key: pusher,
      body: {
        incidents: [
          {
            source: 'custom',
            source_id,
            title: `Alert ${source_id}`,
            severity,
            status: 'new',
            created_at: new Date(Date.now() - 60_000).toISOString(),
            entities,
          },
        ],
      },
    });
    expect(answer.status).toBe(202);
  };
  const entitiesOf = async (source_id: string) => {
    const listed = await service.call('GET', '/api/v1/incidents?limit=100', { key: pusher });
    const found = listed.body.incidents.find((i: { source_id: string }) => i.source_id === source_id);
    return (found?.entities ?? []) as {
      type: string;
      value: string;
      session_id?: string;
      verdict?: string;
      risk_score?: number;
    }[];
  };

  it('investigates a high incident’s entities once, links the results, and ignores a low one', async () => {
    await push('edr-1', 'high', ['198.51.100.23', 'evil-login.example.com']);
    await push('edr-2', 'low', ['low-only.example.com']);
    await service.incidentQueue.idle();
    const first = await entitiesOf('edr-1');
    expect(first).toEqual([
      expect.objectContaining({
        value: '198.51.100.23',
        session_id: expect.any(String),
        verdict: expect.any(String),
      }),
      expect.objectContaining({
        value: 'evil-login.example.com',
        session_id: expect.any(String),
        risk_score: expect.any(Number),
      }),
    ]);
    expect(await entitiesOf('edr-2')).toEqual([{ type: 'domain', value: 'low-only.example.com' }]);

    // Admin keys read the system principal's sessions; other keys do not.
    const admin = (
      await service.createKey({ name: 'soc admin', role: 'admin', scopes: ['investigations:read'] })
    ).apiKey;
    const report = await service.call('GET', `/api/v1/sessions/${first[0]!.session_id}`, {
      key: admin,
    });
    expect(report.status).toBe(200);
    expect(report.body.session?.status ?? report.body.status).toBe('completed');
    const client = (await service.createKey({ name: 'plain client' })).apiKey;
    expect(
      (await service.call('GET', `/api/v1/sessions/${first[0]!.session_id}`, { key: client })).status,
    ).toBe(403);

    // Another incident naming the same entity within 24 h links the same investigation.
    await push('edr-3', 'critical', ['198.51.100.23']);
    await service.incidentQueue.idle();
    expect((await entitiesOf('edr-3'))[0]!.session_id).toBe(first[0]!.session_id);
  });

  it('queues a burst past the running cap instead of dropping it', async () => {
    const admin = (
      await service.createKey({ name: 'burst admin', role: 'admin', scopes: ['investigations:read'] })
    ).apiKey;
    await push('burst-1', 'high', [4, 5, 6].map(SLOW));
    await push('burst-2', 'critical', [7, 8, 9].map(SLOW));
    let most = 0;
    let linked: string[] = [];
    for (let i = 0; i < 200 && linked.length < 6; i++) {
      const entities = [...(await entitiesOf('burst-1')), ...(await entitiesOf('burst-2'))];
      linked = entities.flatMap((e) => (e.session_id ? [e.session_id] : []));
      const statuses = await Promise.all(
        linked.map(
          async (id) =>
            (await service.call('GET', `/api/v1/public/sessions/${id}`, { key: admin })).body.session.status,
        ),
      );
      most = Math.max(
        most,
        statuses.filter((status) => status === 'initialized' || status === 'active').length,
      );
      await new Promise((wake) => setTimeout(wake, 200));
    }
    expect(linked).toHaveLength(6);
    expect(most).toBeLessThanOrEqual(3);
    await service.incidentQueue.idle();
    for (const id of ['burst-1', 'burst-2']) {
      for (const entity of await entitiesOf(id)) expect(entity.verdict).toEqual(expect.any(String));
    }
    expect(service.incidentQueue.dlq()).toEqual([]);
  });
});
