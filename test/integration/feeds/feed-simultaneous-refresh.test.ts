import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DirectoryFeedObjects } from '../../../shared/store/feeds/feed-objects';
import { FeedStateRepository } from '../../../shared/store/feeds/feed-state-repository';
import { createIsolatedTables } from '../../support/dynamodb';

/** issue 36, item 8: simultaneous refreshes of one feed. */
describe('simultaneous refreshes of one feed', () => {
  it('store their sets without colliding on a temporary name', async () => {
    const objects = new DirectoryFeedObjects(await mkdtemp(join(tmpdir(), 'sis-feeds-')));
    const bodies = Array.from({ length: 20 }, (_, i) => new Uint8Array([i]));
    await expect(Promise.all(bodies.map((b) => objects.put('FEODO', b)))).resolves.toHaveLength(20);
  });

  it('never put the state back to an older copy (conditional write on the set version)', async () => {
    const tables = await createIsolatedTables();
    const states = new FeedStateRepository(DynamoDBDocumentClient.from(tables.client), tables.names.intel);
    const newer = '2026-11-27T10:05:00.000Z';
    await states.save({ name: 'FEODO', outcome: 'ok', version: newer, indicator_count: 20 });
    await states.save({
      name: 'FEODO',
      outcome: 'ok',
      version: '2026-11-27T10:00:00.000Z',
      indicator_count: 2,
    });
    expect((await states.all()).FEODO).toMatchObject({ version: newer, indicator_count: 20 });
  });
});
