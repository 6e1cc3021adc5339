import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { FEED_SOURCES, keyMayGoTo } from '../../../shared/domain/feeds/sources';
import { downloadFeed } from '../../../shared/platform/feeds/feed-download';
import { FeedsService } from '../../../shared/services/feeds/feeds';
import { DirectoryFeedObjects } from '../../../shared/store/feeds/feed-objects';
import { FeedStateRepository } from '../../../shared/store/feeds/feed-state-repository';
import { createIsolatedTables } from '../../support/dynamodb';
import { FIXTURE_DIR } from '../../support/feed-server';

/** issue 36, item 6: the Auth-Key goes only over https to the publisher; redirects stay on the host. */
let port = 0;
const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(req.url ?? '');
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/elsewhere')
    return void res.writeHead(302, { location: `http://localhost:${port}/recent.csv` }).end();
  if (path === '/same-host') return void res.writeHead(301, { location: '/recent.csv' }).end();
  res.writeHead(200).end(readFileSync(join(FIXTURE_DIR, 'urlhaus-recent.csv')));
});

beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const url = (path: string) => `http://127.0.0.1:${port}${path}`;
const get = (path: string) => downloadFeed({ url: url(path), maxBytes: 1_048_576, timeoutMs: 5_000 });

describe('feed downloads and the abuse.ch Auth-Key', () => {
  it('the key may go only over https to the publisher’s own hosts', () => {
    const urlhaus = FEED_SOURCES.URLHAUS;
    expect(keyMayGoTo(urlhaus, 'https://urlhaus-api.abuse.ch/files/exports/recent.csv')).toBe(true);
    expect(keyMayGoTo(urlhaus, 'http://urlhaus-api.abuse.ch/files/exports/recent.csv')).toBe(false);
    expect(keyMayGoTo(urlhaus, 'https://mirror.example.com/recent.csv')).toBe(false);
  });

  it('a mirror the operator names is fetched without the key (and without needing one)', async () => {
    const tables = await createIsolatedTables();
    const cfg = parseConfig({
      ...tables.env,
      SIS_FEED_URLHAUS_ENABLED: 'true',
      SIS_FEED_URLHAUS_URL: url('/recent.csv'),
      SIS_INTEL_URLHAUS_API_KEY: 'test-auth-key-not-a-secret',
    });
    const states = new FeedStateRepository(DynamoDBDocumentClient.from(tables.client), tables.names.intel);
    const objects = new DirectoryFeedObjects(join(tables.env.SIS_FEEDS_DIR ?? '/tmp', 'key-test'));
    const listed = await new FeedsService({ cfg, states, objects }).refresh(['URLHAUS'], { force: true });
    expect(listed.find((f) => f.name === 'URLHAUS')).toMatchObject({ status: 'ok' });
    expect(seen.filter((u) => u.startsWith('/recent.csv'))).toEqual(['/recent.csv']);
  });

  it('follows a redirect on the same host, never one to another host', async () => {
    expect((await get('/same-host')).status).toBe('ok');
    await expect(get('/elsewhere')).rejects.toThrow(
      /redirected to http:\/\/localhost:\d+: only redirects on the same host/,
    );
  });
});
