import type { Config } from '../../config';
import { s3DeleteObject, s3GetObject, s3PutObject } from '../../platform/feeds/s3-objects';
import { DirectoryFeedObjects, type FeedObjectStore } from '../../store/feeds/feed-objects';

/**
 * Where this deployment keeps the feeds' compiled sets: the stack's bucket (SIS_FEEDS_BUCKET) through
 * signed S3 requests, else the directory SIS_FEEDS_DIR (the local runtime, air-gapped tests);
 * undefined with neither. The refresh writes and deletes through it, the run-tool step's loader only
 * reads.
 */
export function feedObjectsFromConfig(
  cfg: Pick<Config, 'AWS_REGION' | 'SIS_FEEDS_BUCKET' | 'SIS_FEEDS_DIR'>,
): FeedObjectStore | undefined {
  const bucket = cfg.SIS_FEEDS_BUCKET;
  if (bucket) {
    const at = (key: string) => ({ region: cfg.AWS_REGION, bucket, key });
    return {
      get: (key) => s3GetObject(at(key)),
      put: (key, body) => s3PutObject({ ...at(key), body }),
      delete: (key) => s3DeleteObject(at(key)),
    };
  }
  return cfg.SIS_FEEDS_DIR ? new DirectoryFeedObjects(cfg.SIS_FEEDS_DIR) : undefined;
}
