import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../../shared/config';
import { cursorSecretRepositoryFromConfig } from '../../../shared/store/cursor-secret-repository';
import { cursorEnvelope, forgeCursor } from '../../support/cursors';
import { dynamodbEndpoint } from '../../support/dynamodb';
import { errorShape, startTestService, type TestService } from '../../support/local-service';
import { sis } from '../../support/sis-cli';

/**
 * Cursors are signed with the deployment's secret: a client that re-encodes a cursor with another
 * position, even one that is a real position of the same query, gets 400 on search, incidents and
 * the poll, instead of a page served from the forged position. The secret is an item of the keys
 * table (created by the first call that pages), so cursors survive a restart, and a rotation keeps
 * the cursors issued before it valid.
 */
const tablePrefix = `sis-t${randomBytes(5).toString('hex')}`;
let service: TestService;
let key: string;
let sessionId: string;

beforeAll(async () => {
  service = await startTestService({ tablePrefix });
  key = (await service.createKey({ name: 'pager' })).apiKey;
  const ingest = await service.call('POST', '/api/v1/incidents/ingest', {
    key,
    body: {
      incidents: [1, 2, 3].map((day) => ({
        source: 'custom',
        source_id: `cursor-${day}`,
        title: `Cursor paging ${day}`,
        severity: 'high',
        status: 'new',
        created_at: `2026-10-0${day}T00:00:00Z`,
        entities: ['198.51.100.23'],
      })),
    },
  });
  expect(ingest.status).toBe(202);
  await service.incidentQueue.idle();
  for (const entity of ['198.51.100.23', '198.51.100.24', '198.51.100.25']) {
    const started = await service.call('POST', '/api/v1/investigations/start', { key, body: { entity } });
    expect(started.status).toBe(200);
    sessionId = started.body.session_id;
  }
});

afterAll(async () => {
  await service?.stop();
});

const get = (path: string) => service.call('GET', path, { key });

/** Two genuine cursors of one query: the first page's and the second page's. */
async function twoCursors(path: string): Promise<[string, string]> {
  const first = await get(`${path}&limit=1`);
  expect(first.status).toBe(200);
  const second = await get(`${path}&limit=1&cursor=${first.body.next_cursor}`);
  expect(second.status).toBe(200);
  expect(second.body.next_cursor).toEqual(expect.any(String));
  return [first.body.next_cursor, second.body.next_cursor];
}

describe('signed cursors over HTTP', () => {
  it.each([
    ['incidents', '/api/v1/incidents?severity=high'],
    ['search', '/api/v1/search?q=type:ip'],
  ])('%s: a cursor re-encoded with another real position of the same query is 400', async (_name, path) => {
    const [first, second] = await twoCursors(path);
    const forged = forgeCursor(first, cursorEnvelope(second).p);
    const answer = await get(`${path}&limit=1&cursor=${forged}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject(errorShape('invalid_cursor'));
    // The unsigned form (the readable payload alone) is refused too.
    expect((await get(`${path}&limit=1&cursor=${first.split('.')[0]}`)).status).toBe(400);
  });

  it('poll: a cursor re-encoded to an earlier seq is 400, not the history replayed from there', async () => {
    const full = await get(`/api/v1/public/sessions/${sessionId}`);
    expect(full.status).toBe(200);
    const cursor: string = full.body.next_cursor;
    expect(cursorEnvelope(cursor).p).toMatchObject({ seq: expect.any(Number) });
    const genuine = await get(`/api/v1/public/sessions/${sessionId}?after=${cursor}`);
    expect(genuine.status).toBe(200);
    expect(genuine.body.events).toEqual([]);
    const rewound = await get(
      `/api/v1/public/sessions/${sessionId}?after=${forgeCursor(cursor, { seq: 0 })}`,
    );
    expect(rewound.status).toBe(400);
    expect(rewound.body).toMatchObject(errorShape('invalid_cursor'));
  });

  it('keeps cursors valid across a restart of the local runtime (secret kept in the keys table)', async () => {
    const page = await get('/api/v1/incidents?severity=high&limit=1');
    const cursor: string = page.body.next_cursor;
    const stored = await cursorSecretRepositoryFromConfig(config()).get();
    expect(stored?.current).toEqual(expect.any(String));
    await service.stop();
    // Nothing carried over in this process but the tables: the secret must come back from there.
    service = await startTestService({ tablePrefix });
    const next = await get(`/api/v1/incidents?severity=high&limit=1&cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.incidents).toHaveLength(1);
  });

  it('sis admin rotate-cursor-secret: cursors issued before stay valid after the next cold start, new ones are signed anew', async () => {
    const path = '/api/v1/incidents?severity=high&limit=1';
    const before: string = (await get(path)).body.next_cursor;
    const env = {
      SIS_DYNAMODB_ENDPOINT: dynamodbEndpoint(),
      SIS_KEYS_TABLE: config().SIS_KEYS_TABLE,
    };
    const rotated = await sis(['admin', 'rotate-cursor-secret', '--json'], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toEqual({ rotated: true, previous_kept: true });
    const stored = await cursorSecretRepositoryFromConfig(config()).get();
    // The secret itself is never printed.
    expect(`${rotated.stdout}${rotated.stderr}`).not.toContain(stored?.current);
    expect(`${rotated.stdout}${rotated.stderr}`).not.toContain(stored?.previous);

    await service.stop();
    service = await startTestService({ tablePrefix });
    const after = await get(`${path}&cursor=${before}`);
    expect(after.status).toBe(200);
    const reissued: string = (await get(path)).body.next_cursor;
    expect(cursorEnvelope(reissued)).toEqual(cursorEnvelope(before));
    expect(reissued).not.toBe(before);

    // Dropping the previous secret (a leaked one) invalidates what was issued under it.
    const discarded = await sis(['admin', 'rotate-cursor-secret', '--discard-previous'], env);
    expect(discarded.code, discarded.stderr).toBe(0);
    await service.stop();
    service = await startTestService({ tablePrefix });
    const refused = await get(`${path}&cursor=${before}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject(errorShape('invalid_cursor'));
  });
});
