import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { compileFeedSet, type FeedSet } from '../../../shared/domain/feeds/compiled-set';
import { parseFeed } from '../../../shared/domain/feeds/parsers';
import { FeedSets } from '../../../shared/services/feeds/feed-sets';
import { FeedsService } from '../../../shared/services/feeds/feeds';
import {
  DirectoryFeedObjects,
  feedObjectKey,
  legacyFeedObjectKey,
} from '../../../shared/store/feeds/feed-objects';
import { FeedStateRepository } from '../../../shared/store/feeds/feed-state-repository';
import { createIsolatedTables } from '../../support/dynamodb';

/**
 * issue 36, item 8: simultaneous refreshes of one feed, against DynamoDB Local and a directory store.
 * Downloads are answered in process (a fetch per refresh) so a test decides which refresh finishes last.
 */
const OLDER = new Date('2026-11-27T10:00:00.000Z');
const NEWER = new Date('2026-11-27T10:05:00.000Z');
const LEGACY = '2026-11-27T09:00:00.000Z';
const TOR_URL = 'https://check.torproject.org/torbulkexitlist';
const CINS_URL = 'https://cinsscore.com/list/ci-badguys.txt';

let dir: string;
let objects: DirectoryFeedObjects;
let states: FeedStateRepository;
let cfg: ReturnType<typeof parseConfig>;

beforeAll(async () => {
  const tables = await createIsolatedTables();
  dir = await mkdtemp(join(tmpdir(), 'sis-feeds-'));
  objects = new DirectoryFeedObjects(dir);
  states = new FeedStateRepository(DynamoDBDocumentClient.from(tables.client), tables.names.intel);
  cfg = parseConfig({
    ...tables.env,
    SIS_FEED_TOR_EXITS_ENABLED: 'true',
    SIS_FEED_TOR_EXITS_URL: TOR_URL,
    SIS_FEED_CINS_ENABLED: 'true',
    SIS_FEED_CINS_URL: CINS_URL,
  });
});

/** A feed server answering `lines` once `release` resolves; `asked` resolves when it is requested. */
function publisher(lines: string[], release: Promise<void> = Promise.resolve()) {
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const fetchImpl = (async () => {
    asked();
    await release;
    return new Response(`${lines.join('\n')}\n`, { status: 200, headers: { etag: `"${lines.length}"` } });
  }) as unknown as typeof fetch;
  return { fetchImpl, requested };
}

const refresher = (at: Date, fetchImpl: typeof fetch, store = objects) =>
  new FeedsService({ cfg, states, objects: store, now: () => at, fetchImpl });

/** Stores a set as the releases before versioned keys did: the one legacy object, a state without key. */
async function legacySet(name: 'TOR_EXITS' | 'CINS', lines: string[]) {
  const parsed = parseFeed('ip_lines', new TextEncoder().encode(lines.join('\n')));
  await objects.put(legacyFeedObjectKey(name), compileFeedSet(name, parsed, new Date(LEGACY)).body);
  await states.save({ name, outcome: 'ok', version: LEGACY, indicator_count: lines.length });
}

const setOf = async (
  name: 'TOR_EXITS' | 'CINS',
  reader = new FeedSets({ states, objects, enabled: [name] }),
) => (await reader.load()).feeds.find((f) => f.name === name)?.set as FeedSet | undefined;

describe('simultaneous refreshes of one feed', () => {
  it('store their sets without colliding on a temporary name', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => new Uint8Array([i]));
    const key = feedObjectKey('FEODO', OLDER.toISOString());
    await expect(Promise.all(bodies.map((b) => objects.put(key, b)))).resolves.toHaveLength(20);
  });

  it('never put the state back to an older copy (conditional write on the set version)', async () => {
    const newer = NEWER.toISOString();
    await states.save({ name: 'FEODO', outcome: 'ok', version: newer, indicator_count: 20 });
    const older = await states.save({ name: 'FEODO', outcome: 'ok', version: OLDER.toISOString() });
    expect(older).toEqual({ written: false });
    expect((await states.all()).FEODO).toMatchObject({ version: newer, indicator_count: 20 });
  });

  it('leave readers the newer set when the older refresh finishes last, and only that set stored', async () => {
    await legacySet('TOR_EXITS', ['192.0.2.10']);
    // A state written before sets were versioned still reads its one legacy object.
    expect((await setOf('TOR_EXITS'))?.compiled_at).toBe(LEGACY);

    let release!: () => void;
    const slow = publisher(['192.0.2.10', '192.0.2.11'], new Promise((resolve) => (release = resolve)));
    const older = refresher(OLDER, slow.fetchImpl).refresh(['TOR_EXITS'], { force: true });
    await slow.requested;
    const fast = publisher(['192.0.2.10', '192.0.2.11', '198.51.100.200']);
    await refresher(NEWER, fast.fetchImpl).refresh(['TOR_EXITS'], { force: true });
    release();
    await older;

    const state = (await states.all()).TOR_EXITS;
    expect(state).toMatchObject({
      version: NEWER.toISOString(),
      object_key: feedObjectKey('TOR_EXITS', NEWER.toISOString()),
      indicator_count: 3,
    });
    const set = await setOf('TOR_EXITS');
    expect(set).toMatchObject({ compiled_at: NEWER.toISOString(), indicator_count: 3 });
    expect(set?.matchIp('198.51.100.200')).toHaveLength(1);
    // The legacy object (replaced by the newer state) and the older refresh's set (never named) are gone.
    expect(await readdir(join(dir, 'feeds', 'TOR_EXITS'))).toEqual([
      feedObjectKey('TOR_EXITS', NEWER.toISOString()).split('/').pop(),
    ]);
    expect(await objects.get(legacyFeedObjectKey('TOR_EXITS'))).toBeUndefined();
  });

  it('send a reader back to the state when a refresh deletes the set it was about to read', async () => {
    await legacySet('CINS', ['192.0.2.66']);
    let refreshed = false;
    // The reader reads the state; a refresh then replaces (and deletes) that set before the reader fetches it.
    const racing = {
      all: async () => {
        const read = await states.all();
        if (!refreshed) {
          refreshed = true;
          await refresher(NEWER, publisher(['192.0.2.66', '198.51.100.66']).fetchImpl).refresh(['CINS'], {
            force: true,
          });
        }
        return read;
      },
    };
    const reader = new FeedSets({ states: racing, objects, enabled: ['CINS'] });
    expect(await setOf('CINS', reader)).toMatchObject({
      compiled_at: NEWER.toISOString(),
      indicator_count: 2,
    });
  });

  it('succeed when the replaced set cannot be deleted (logged, left unread)', async () => {
    const undeletable = Object.assign(Object.create(objects) as DirectoryFeedObjects, {
      delete: async () => {
        throw new Error('AccessDenied');
      },
    });
    const later = new Date(NEWER.getTime() + 60_000);
    const listing = await refresher(later, publisher(['192.0.2.66']).fetchImpl, undeletable).refresh(
      ['CINS'],
      { force: true },
    );
    expect(listing.find((f) => f.name === 'CINS')).toMatchObject({
      name: 'CINS',
      status: 'ok',
      indicator_count: 1,
    });
    expect((await states.all()).CINS.object_key).toBe(feedObjectKey('CINS', later.toISOString()));
    expect(await objects.get(feedObjectKey('CINS', NEWER.toISOString()))).toBeDefined();
  });
});
