import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import type { FeedName } from '../../../shared/domain/feeds/declarations';
import { FeedsService } from '../../../shared/services/feeds/feeds';
import { DirectoryFeedObjects } from '../../../shared/store/feeds/feed-objects';
import { FeedStateRepository } from '../../../shared/store/feeds/feed-state-repository';
import { createIsolatedTables } from '../../support/dynamodb';
import { FIXTURE_DIR } from '../../support/feed-server';

/**
 * issue 36: downloads a refresh must refuse (an `error`, the last good set kept), against DynamoDB
 * Local and the directory store, each feed reading a file:// source the test rewrites.
 */
let dir: string;
let tables: Awaited<ReturnType<typeof createIsolatedTables>>;
let objects: DirectoryFeedObjects;
let states: FeedStateRepository;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sis-feed-refusals-'));
  tables = await createIsolatedTables();
  states = new FeedStateRepository(DynamoDBDocumentClient.from(tables.client), tables.names.intel);
  objects = new DirectoryFeedObjects(join(dir, 'sets'));
});

/** A service refreshing one feed from a file the test writes; the cap is 1 MiB. */
async function feedFrom(name: FeedName, file: string, env: Record<string, string> = {}) {
  const source = join(dir, file);
  const cfg = parseConfig({
    ...tables.env,
    [`SIS_FEED_${name}_ENABLED`]: 'true',
    [`SIS_FEED_${name}_URL`]: pathToFileURL(source).toString(),
    SIS_FEED_MAX_BYTES: String(1_048_576),
    ...env,
  });
  const service = new FeedsService({ cfg, states, objects });
  return {
    write: (body: string | Uint8Array) => writeFile(source, body),
    refresh: async () => (await service.refresh([name], { force: true })).find((f) => f.name === name) as any,
  };
}

describe('a refresh refuses an abnormal download and keeps the last good set', () => {
  it('a DROP file of mostly rejected rows (0.0.0.0/0, ::/0, garbage) is an error', async () => {
    const feed = await feedFrom('SPAMHAUS_DROP', 'drop-wide.txt');
    await feed.write('198.51.100.0/24 ; SBL1\n203.0.113.0/24 ; SBL2\n');
    expect(await feed.refresh()).toMatchObject({ status: 'ok', indicator_count: 2 });
    await feed.write('0.0.0.0/0 ; SBL9\n::/0 ; SBL8\n1.0.0.0/4 ; SBL7\n198.51.100.0/24 ; SBL1\n');
    const refused = await feed.refresh();
    expect(refused).toMatchObject({ status: 'error', indicator_count: 2 });
    expect(refused.error).toContain('75 % of the download');
    // A few wide rows in an otherwise sound file are rejected and counted, the rest is used.
    await feed.write(
      '0.0.0.0/0 ; SBL9\n198.51.100.0/24 ; SBL1\n203.0.113.0/24 ; SBL2\n192.0.2.0/24 ; SBL3\n',
    );
    expect(await feed.refresh()).toMatchObject({ status: 'ok', indicator_count: 3 });
    expect((await states.all()).SPAMHAUS_DROP.rejected).toBe(1);
  });

  it('a zip bomb (20 MB of zeros in 20 KB) is stopped at the 1 MiB cap: an error, the last good set kept', async () => {
    const feed = await feedFrom('TRANCO', 'top-1m.csv.zip');
    await feed.write(await readFile(join(FIXTURE_DIR, 'top-1m.csv.zip')));
    expect(await feed.refresh()).toMatchObject({ status: 'ok', indicator_count: 5 });
    await feed.write(zipSync({ 'top-1m.csv': new Uint8Array(20 * 1_048_576) }));
    const refused = await feed.refresh();
    expect(refused).toMatchObject({ status: 'error', indicator_count: 5 });
    expect(refused.error).toBe('the archive\u2019s top-1m.csv inflates past the 1 MB cap');
  });

  it('random non-UTF-8 bytes, then a valid share collapsing 15 → 1, are errors keeping the 15', async () => {
    const feed = await feedFrom('OPENPHISH', 'openphish.txt');
    const urls = Array.from({ length: 15 }, (_, i) => `https://phish-${i}.example.com/login`);
    await feed.write(`${urls.join('\n')}\n`);
    expect(await feed.refresh()).toMatchObject({ status: 'ok', indicator_count: 15 });
    const random = new Uint8Array(4096);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    random.set(new TextEncoder().encode('https://one.example.net/\n'), 100);
    await feed.write(random);
    const garbage = await feed.refresh();
    expect(garbage).toMatchObject({ status: 'error', indicator_count: 15 });
    expect(garbage.error).toContain('not UTF-8 text');
    await feed.write('https://only-one.example.net/\n');
    const collapsed = await feed.refresh();
    expect(collapsed).toMatchObject({ status: 'error', indicator_count: 15 });
    expect(collapsed.error).toContain('1 valid indicators against 15');
  });
});
