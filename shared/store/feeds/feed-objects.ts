import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FeedName } from '../../domain/feeds/declarations';

/**
 * Where the feeds' compiled sets live: one object per feed, replaced whole by each good refresh
 * (S3 on AWS, the bucket SIS_FEEDS_BUCKET; a directory locally, SIS_FEEDS_DIR). A write is atomic for
 * readers (an S3 PUT; a rename locally), so the tool step never reads half a set. The S3 store is
 * signed requests (shared/platform/feeds/s3-objects.ts), without the S3 client, assembled with this
 * directory store in shared/services/feeds/feed-store.ts.
 */
export interface FeedObjectReader {
  /** The stored set, or undefined when there is none. */
  get(name: FeedName): Promise<Uint8Array | undefined>;
}

export interface FeedObjectStore extends FeedObjectReader {
  put(name: FeedName, body: Uint8Array): Promise<void>;
}

export const feedObjectKey = (name: FeedName) => `feeds/${name}.sisfeed.gz`;

export class DirectoryFeedObjects implements FeedObjectStore {
  constructor(private readonly dir: string) {}

  async put(name: FeedName, body: Uint8Array): Promise<void> {
    const file = join(this.dir, feedObjectKey(name));
    await mkdir(join(this.dir, 'feeds'), { recursive: true });
    // Random: simultaneous refreshes in one process and millisecond must not share a temporary file.
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, body);
    await rename(temporary, file);
  }

  async get(name: FeedName): Promise<Uint8Array | undefined> {
    try {
      return await readFile(join(this.dir, feedObjectKey(name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
