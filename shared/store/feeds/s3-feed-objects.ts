import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config';
import type { FeedName } from '../../domain/feeds/declarations';
import { DirectoryFeedObjects, type FeedObjectStore, feedObjectKey } from './feed-objects';

/**
 * The feeds' compiled sets in S3 (SIS_FEEDS_BUCKET) through the S3 client: the refresh and the admin
 * routes use it; the run-tool step never imports this module (its bundle would grow by the client).
 */
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
