import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FeedName } from '../../domain/feeds/declarations';
import type { FeedState } from '../../domain/feeds/status';

/**
 * Where the feeds' compiled sets live: one object per set version, `feeds/<NAME>/<version>.sisfeed.gz`
 * (S3 on AWS, the bucket SIS_FEEDS_BUCKET; a directory locally, SIS_FEEDS_DIR). A refresh writes a new
 * key, never over the current one, and the feed's state names the key it belongs to (`object_key`):
 * two simultaneous refreshes each write their own object, the conditional state write picks the
 * newer, so a reader (state, then that key) never serves an older set than the state claims. The
 * replaced object is deleted after the state moved on (shared/services/feeds/feed-refresh.ts). A
 * write is atomic for readers (an S3 PUT; a rename locally), so the tool step never reads half a set.
 * The S3 store is signed requests (shared/platform/feeds/s3-objects.ts), without the S3 client,
 * assembled with this directory store in shared/services/feeds/feed-store.ts.
 */
export interface FeedObjectReader {
  /** The stored object, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
}

export interface FeedObjectStore extends FeedObjectReader {
  put(key: string, body: Uint8Array): Promise<void>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

/** The folder of a feed's versioned objects (its grants cover `<prefix>*`). */
export const feedObjectPrefix = (name: FeedName) => `feeds/${name}/`;

/** The key of the set compiled at `version` (an ISO time: its digits, so the key needs no escaping). */
export const feedObjectKey = (name: FeedName, version: string) =>
  `${feedObjectPrefix(name)}${version.replace(/[^0-9A-Za-z]/g, '')}.sisfeed.gz`;

/** The one object per feed of the states written before sets were versioned (still read, then deleted). */
export const legacyFeedObjectKey = (name: FeedName) => `feeds/${name}.sisfeed.gz`;

/** The key of the set a state names: none without a set; the legacy key for a state that predates keys. */
export function storedObjectKey(state: FeedState | undefined): string | undefined {
  if (!state?.version) return undefined;
  return state.object_key ?? legacyFeedObjectKey(state.name);
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export class DirectoryFeedObjects implements FeedObjectStore {
  constructor(private readonly dir: string) {}

  async put(key: string, body: Uint8Array): Promise<void> {
    const file = join(this.dir, key);
    await mkdir(dirname(file), { recursive: true });
    // Random: simultaneous refreshes in one process and millisecond must not share a temporary file.
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, body);
    await rename(temporary, file);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(join(this.dir, key));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(join(this.dir, key));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}
