import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenSessionsRepository } from '../../../shared/store/sessions/open-sessions-repository';
import type { SessionsRepository } from '../../../shared/store/sessions/session-repository';
import { asReport, event, newSession, sessionsStore } from '../../support/sessions-store';

/**
 * Open sessions against DynamoDB Local: the sparse gsi1 through the open marker, what the sweeper
 * and the local runtime list.
 */
let repo: SessionsRepository;
let openSessions: OpenSessionsRepository;
let raw: DynamoDBDocumentClient;
let table: string;

beforeAll(async () => {
  ({ repo, openSessions, raw, table } = await sessionsStore());
});

describe('open sessions', () => {
  it('lists open sessions from the sparse index and drops them once terminal', async () => {
    const open = newSession();
    const ended = newSession();
    await repo.create(open, []);
    await repo.create(ended, []);
    await repo.transition(ended.session_id, 'failed', { failure_reason: 'x' });
    const ids = (await openSessions.list()).map((s) => s.session_id);
    expect(ids).toContain(open.session_id);
    expect(ids).not.toContain(ended.session_id);
  });
});

/** A session's item with sort key `sk`, read consistently; undefined when there is none. */
async function sessionItem(sessionId: string, sk: string) {
  const { Item } = await raw.send(
    new GetCommand({ TableName: table, Key: { pk: `SESSION#${sessionId}`, sk }, ConsistentRead: true }),
  );
  return Item;
}

/** The open marker (gsi1 entry) of a session; undefined when there is none. */
const openMarker = (sessionId: string) => sessionItem(sessionId, 'OPEN');
const metaItem = (sessionId: string) => sessionItem(sessionId, 'META');

/** Every page of listOpenCreatedBefore, as the sweeper reads them. */
async function allOpenCreatedBefore(cutoff: string, limit: number) {
  const pages: string[][] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await openSessions.listCreatedBefore(cutoff, limit, start);
    expect(page.sessions.length).toBeLessThanOrEqual(limit);
    pages.push(page.sessions.map((s) => s.session_id));
    start = page.next;
  } while (start);
  return pages;
}

/** A marker as a creation writes it first; alone, it is what a creation that crashed right after leaves. */
async function putMarker(sessionId: string, createdAt: string) {
  await raw.send(
    new PutCommand({
      TableName: table,
      Item: {
        pk: `SESSION#${sessionId}`,
        sk: 'OPEN',
        gsi1pk: 'OPEN',
        gsi1sk: `${createdAt}#${sessionId}`,
        session_id: sessionId,
        created_at: createdAt,
      },
    }),
  );
}

describe('open sessions (gsi1, through the open marker)', () => {
  it('keeps the index entry on an open marker, never on META, and deletes it after every terminal move', async () => {
    const report = asReport({ verdict: 'benign', risk_score: 0 });
    const moves: [string, (id: string) => Promise<unknown>][] = [
      ['initialized → failed', (id) => repo.transition(id, 'failed', { failure_reason: 'x' })],
      ['initialized → canceled', (id) => repo.transition(id, 'canceled', {}, [event('canceled')])],
      ['active → completed', (id) => repo.transition(id, 'completed', { report }, [event('completed')])],
      ['active → completed (no history)', (id) => repo.transition(id, 'completed', { report })],
      ['active → failed (timed out)', (id) => repo.transition(id, 'failed', { failure_reason: 'timed out' })],
      ['active → canceled', (id) => repo.transition(id, 'canceled', {}, [event('canceled')])],
    ];
    for (const [name, end] of moves) {
      const session = newSession();
      await repo.create(session, [event('created')]);
      expect(await openMarker(session.session_id), name).toMatchObject({
        gsi1pk: 'OPEN',
        gsi1sk: `${session.created_at}#${session.session_id}`,
      });
      if (name.startsWith('active')) {
        expect((await repo.transition(session.session_id, 'active', {}, [event('active')])).ok).toBe(true);
        expect(await openMarker(session.session_id), name).toBeDefined();
      }
      expect(await metaItem(session.session_id), name).not.toHaveProperty('gsi1pk');
      await end(session.session_id);
      expect((await repo.get(session.session_id))?.status, name).toMatch(/completed|failed|canceled/);
      expect(await openMarker(session.session_id), name).toBeUndefined();
    }
    // A creation with an Idempotency-Key writes its marker in the same transaction.
    const keyed = newSession();
    await repo.create(keyed, [], {
      owner_key_id: keyed.owner_key_id,
      idempotency_key: `key-${randomUUID()}`,
      request_hash: 'h',
      created_at: keyed.created_at,
      expires_at_epoch: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(await openMarker(keyed.session_id)).toMatchObject({ gsi1pk: 'OPEN' });
    expect(await metaItem(keyed.session_id)).not.toHaveProperty('gsi1pk');
  });

  it('lists open sessions oldest first, within the limit and page by page, skipping ended ones', async () => {
    const sessions = Array.from({ length: 5 }, (_, i) =>
      newSession({ created_at: `2001-01-01T00:00:0${i}.000Z` }),
    );
    for (const session of sessions) await repo.create(session, []);
    await repo.transition(sessions[2]!.session_id, 'active');
    await repo.transition(sessions[2]!.session_id, 'completed', { report: asReport({ verdict: 'benign' }) });
    // A marker left by a crashed creation sorts between the first two sessions.
    await putMarker('s_crashed_creation_2001', '2001-01-01T00:00:00.500Z');
    const open = [0, 1, 3, 4].map((i) => sessions[i]!.session_id);

    const pages = await allOpenCreatedBefore('2001-02-01', 2);
    expect(pages.flat()).toEqual(open);
    expect(await allOpenCreatedBefore('2001-01-01T00:00:03', 10)).toEqual([open.slice(0, 2)]);
    const listed = await openSessions.list();
    expect(listed.filter((s) => open.includes(s.session_id)).map((s) => s.session_id)).toEqual(open);
    expect(listed.find((s) => s.session_id === sessions[0]!.session_id)).toEqual(sessions[0]);
    // The limit counts sessions, not index entries: the 2001 ones are the oldest in this table.
    expect((await openSessions.list(3)).map((s) => s.session_id)).toEqual(open.slice(0, 3));
    expect(await openMarker('s_crashed_creation_2001')).toBeUndefined();

    // Ended, they leave the listing (and the older-than tests below see only their own sessions).
    for (const id of open) await repo.transition(id, 'canceled');
    expect(await allOpenCreatedBefore('2001-02-01', 2)).toEqual([[]]);
  });

  it('drops and deletes a marker without META past the creation grace and a marker of an ended session', async () => {
    await putMarker('s_crashed_long_ago', '2002-01-01T00:00:00.000Z');
    // A creation under way: its marker is written before META.
    const underWay = `s_${randomUUID().replaceAll('-', '')}`;
    await putMarker(underWay, new Date().toISOString());
    // A terminal transition whose marker delete never happened (a crash right after the commit).
    const ended = newSession({ created_at: '2002-01-01T00:00:01.000Z' });
    await repo.create(ended, []);
    await repo.transition(ended.session_id, 'failed', { failure_reason: 'x' });
    await putMarker(ended.session_id, ended.created_at);

    const listed = (await allOpenCreatedBefore('2002-02-01', 10)).flat();
    expect(listed).toEqual([]);
    expect(await openMarker('s_crashed_long_ago')).toBeUndefined();
    expect(await openMarker(ended.session_id)).toBeUndefined();
    expect((await repo.get(ended.session_id))?.status).toBe('failed');

    expect((await openSessions.list()).map((s) => s.session_id)).not.toContain(underWay);
    expect(await openMarker(underWay)).toBeDefined();
  });

  it('lists a session written before the marker (gsi1 on META) while open and unlists it when it ends', async () => {
    const legacy = newSession({ created_at: '2003-01-01T00:00:00.000Z' });
    await raw.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `SESSION#${legacy.session_id}`,
          sk: 'META',
          ...legacy,
          gsi1pk: 'OPEN',
          gsi1sk: `${legacy.created_at}#${legacy.session_id}`,
        },
      }),
    );
    const listedOpen = async () => (await allOpenCreatedBefore('2003-02-01', 10)).flat();
    expect(await listedOpen()).toEqual([legacy.session_id]);
    expect((await openSessions.listCreatedBefore('2003-02-01', 10)).sessions).toEqual([legacy]);
    expect((await openSessions.list()).map((s) => s.session_id)).toContain(legacy.session_id);

    await repo.transition(legacy.session_id, 'active', {}, [event('active')]);
    expect(await listedOpen()).toEqual([legacy.session_id]);
    await repo.transition(legacy.session_id, 'completed', { report: asReport({ verdict: 'benign' }) }, [
      event('done'),
    ]);
    expect(await listedOpen()).toEqual([]);
    expect(await metaItem(legacy.session_id)).not.toHaveProperty('gsi1pk');
    expect(await metaItem(legacy.session_id)).not.toHaveProperty('gsi1sk');
    expect(await openMarker(legacy.session_id)).toBeUndefined();
  });
});
