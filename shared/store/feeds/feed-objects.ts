import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config';
import type { FeedName } from '../../domain/feeds/declarations';

/**
 * Where the feeds' compiled sets live: one object per feed, replaced whole by each good refresh
 * (S3 on AWS, the bucket SIS_FEEDS_BUCKET; a directory locally, SIS_FEEDS_DIR). A write is atomic for
 * readers (an S3 PUT; a rename locally), so the tool step never reads half a set.
 */
export interface FeedObjectStore {
  put(name: FeedName, body: Uint8Array): Promise<void>;
  /** The stored set, or undefined when there is none. */
  get(name: FeedName): Promise<Uint8Array | undefined>;
}

export const feedObjectKey = (name: FeedName) => `feeds/${name}.sisfeed.gz`;

export class DirectoryFeedObjects implements FeedObjectStore {
  constructor(private readonly dir: string) {}

  async put(name: FeedName, body: Uint8Array): Promise<void> {
    const file = join(this.dir, feedObjectKey(name));
    await mkdir(join(this.dir, 'feeds'), { recursive: true });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
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

export class S3FeedObjects implements FeedObjectStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(name: FeedName, body: Uint8Array): Promise<void> {
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: feedObjectKey(name),
        Body: body,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(name: FeedName): Promise<Uint8Array | undefined> {
    const { GetObjectCommand, NoSuchKey } = await import('@aws-sdk/client-s3');
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: feedObjectKey(name) }),
      );
      return answer.Body ? await answer.Body.transformToByteArray() : undefined;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }
}

/** The deployment's store: S3 when SIS_FEEDS_BUCKET is set, else SIS_FEEDS_DIR; undefined with neither. */
export async function feedObjectsFromConfig(cfg: Config): Promise<FeedObjectStore | undefined> {
  if (cfg.SIS_FEEDS_BUCKET) {
    const { S3Client } = await import('@aws-sdk/client-s3');
    return new S3FeedObjects(new S3Client({ region: cfg.AWS_REGION }), cfg.SIS_FEEDS_BUCKET);
  }
  return cfg.SIS_FEEDS_DIR ? new DirectoryFeedObjects(cfg.SIS_FEEDS_DIR) : undefined;
}
