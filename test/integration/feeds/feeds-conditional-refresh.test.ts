import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { FeedSets } from '../../../shared/services/feeds/feed-sets';
import { FeedsService } from '../../../shared/services/feeds/feeds';
import { DirectoryFeedObjects } from '../../../shared/store/feeds/feed-objects';
import { FeedStateRepository } from '../../../shared/store/feeds/feed-state-repository';
import { createIsolatedTables } from '../../support/dynamodb';
import { type FeedServer, startFeedServer } from '../../support/feed-server';

/**
 * The scheduled refresh against DynamoDB Local and a local feed server: conditional requests
 * (If-None-Match) confirm an unchanged feed without downloading or recompiling it, the publisher's
 * minimum interval is honoured, and the tool step's loader sees a new set only when its version moves.
 */
let feeds: FeedServer;
let service: FeedsService;
let sets: FeedSets;
let clock = new Date('2026-11-27T10:00:00Z');

beforeAll(async () => {
  feeds = await startFeedServer({ '/ipblocklist.json': 'feodo-ipblocklist.json' });
  const tables = await createIsolatedTables();
  const cfg = parseConfig({
    ...tables.env,
    SIS_FEED_FEODO_ENABLED: 'true',
    SIS_FEED_FEODO_URL: feeds.url('/ipblocklist.json'),
  });
  const states = new FeedStateRepository(DynamoDBDocumentClient.from(tables.client), tables.names.intel);
  const objects = new DirectoryFeedObjects(await mkdtemp(join(tmpdir(), 'sis-feeds-')));
  service = new FeedsService({ cfg, states, objects, now: () => clock });
  // The tool step's loader over the same store (tool-feeds.ts builds it so from the configuration).
  sets = new FeedSets({ states, objects, enabled: ['FEODO'] });
});

afterAll(async () => {
  await feeds?.stop();
});

const feodo = async (list: Promise<{ name: string }[]>) =>
  (await list).find((f) => f.name === 'FEODO') as any;

describe('scheduled feed refresh', () => {
  it('downloads, then confirms with a conditional request, and respects the minimum interval', async () => {
    const first = await feodo(service.refreshDue());
    expect(first).toMatchObject({ status: 'ok', indicator_count: 2 });
    expect(feeds.requests.get('/ipblocklist.json')).toBe(1);
    const loaded = await sets.load();
    expect(loaded.feeds.map((f) => f.name)).toEqual(['FEODO']);

    clock = new Date(clock.getTime() + 2 * 60_000); // within abuse.ch's 5 minutes: not fetched
    await service.refreshDue();
    expect(feeds.requests.get('/ipblocklist.json')).toBe(1);

    clock = new Date(clock.getTime() + 60 * 60_000);
    const second = await feodo(service.refreshDue());
    expect(feeds.requests.get('/ipblocklist.json')).toBe(2);
    expect(feeds.conditional.get('/ipblocklist.json')).toBe(1);
    expect(second).toMatchObject({
      status: 'ok',
      indicator_count: 2,
      last_refreshed_at: clock.toISOString(),
    });

    // A manual refresh always downloads in full.
    await service.refresh(['FEODO'], { force: true });
    expect(feeds.requests.get('/ipblocklist.json')).toBe(3);
    expect(feeds.conditional.get('/ipblocklist.json')).toBe(1);
  });

  it('counts a feed stale for a day beyond three periods for the alarm', async () => {
    const list = await service.list();
    expect(service.staleForADay(list)).toEqual([]);
    clock = new Date(clock.getTime() + (3 * 60 + 24 * 60 + 1) * 60_000);
    const later = await service.list();
    expect((await feodo(Promise.resolve(later))).status).toBe('stale');
    expect(service.staleForADay(later)).toEqual(['FEODO']);
  });
});
