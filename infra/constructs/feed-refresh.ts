import { Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import {
  FEED_NAMES,
  type FeedName,
  feedEnvPrefix,
  refreshPeriods,
} from '../../shared/domain/feeds/declarations';
import { FEED_SOURCES } from '../../shared/domain/feeds/sources';
import { feedObjectPrefix, legacyFeedObjectKey } from '../../shared/store/feeds/feed-objects';
import { tenantResourceName } from '../naming';
import { addSchedulerRole } from './scheduler-role';
import { ServiceFunction, type ServiceFunctionDefaults } from './service-function';

export const FEEDS_REFRESH_FUNCTION = 'scheduled-feeds-refresh';
const REFRESH_TIMEOUT_SECONDS = 300;
/** A million-line feed (Tranco) is parsed and compiled in memory (bench:feeds: about 300 MB). */
const REFRESH_MEMORY_MB = 1024;

export interface FeedRefreshProps {
  defaults: ServiceFunctionDefaults;
  tenant: string;
  removalPolicy: RemovalPolicy;
  /** The feeds the tenant enables (infra/settings.ts `feeds`). */
  enabled: readonly FeedName[];
  urls?: Partial<Record<FeedName, string>>;
  /** The tenant's intel secret, read for the abuse.ch Auth-Key when an enabled feed uses one. */
  intelSecretArn?: string;
}

/** SIS_FEED_<NAME>_ENABLED for every feed, and _URL where the tenant overrides it. */
function feedEnvironment(
  enabled: readonly FeedName[],
  urls: Partial<Record<FeedName, string>> | undefined,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of FEED_NAMES) {
    environment[`${feedEnvPrefix(name)}_ENABLED`] = String(enabled.includes(name));
    const url = urls?.[name];
    if (url) environment[`${feedEnvPrefix(name)}_URL`] = url;
  }
  return environment;
}

/** The bucket of compiled sets (`Bucket` in `scope`): private, TLS only, SSE-S3. */
function addFeedsBucket(scope: Construct, removalPolicy: RemovalPolicy): Bucket {
  const bucket = new Bucket(scope, 'Bucket', {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy,
  });
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      'The bucket holds public feed data only, replaced whole by the refresh function; every write is that function run, logged in its own log group.',
  });
  return bucket;
}

/**
 * The public feeds on AWS (docs/feeds.md): the bucket of compiled sets (one small object per set version,
 * private, TLS only, SSE-S3), the refresh function on one EventBridge Scheduler schedule at the
 * shortest refresh period (each run refreshes the feeds whose own period is due; enabled when a feed
 * is). A feed stale for a day is logged as an alarmed failure by the refresh, which the tenant's one
 * failures alarm counts (infra/constructs/observability.ts): no alarm of its own. The
 * functions that list, refresh or match feeds get `environment` (every SIS_FEED_<NAME>_* setting)
 * from the stack, and the bucket through FUNCTION_GRANTS' `feeds`.
 */
export class FeedRefresh extends Construct {
  readonly bucket: Bucket;
  readonly refresh: ServiceFunction;
  readonly schedule: Schedule;
  /** SIS_FEED_<NAME>_ENABLED for every feed, and _URL where the tenant overrides it. */
  readonly environment: Record<string, string>;
  private readonly intelSecretArn: string | undefined;

  constructor(scope: Construct, id: string, props: FeedRefreshProps) {
    super(scope, id);
    this.environment = feedEnvironment(props.enabled, props.urls);
    this.bucket = addFeedsBucket(this, props.removalPolicy);
    this.refresh = new ServiceFunction(this, 'Refresh', {
      defaults: props.defaults,
      name: FEEDS_REFRESH_FUNCTION,
      timeoutSeconds: REFRESH_TIMEOUT_SECONDS,
      memoryMb: REFRESH_MEMORY_MB,
      environment: this.environment,
    });
    this.intelSecretArn = props.enabled.some((name) => FEED_SOURCES[name].key)
      ? props.intelSecretArn
      : undefined;
    this.grantKeys(this.refresh);
    this.schedule = this.addRefreshSchedule(props);
  }

  /**
   * One schedule at the shortest period: each run refreshes the feeds whose own period is due
   * (one schedule per period would cost the stack 4 more resources of its 500 for nothing).
   */
  private addRefreshSchedule(props: FeedRefreshProps): Schedule {
    const schedulerRole = addSchedulerRole(this, this.refresh, 'the refresh function');
    const every = Math.min(...refreshPeriods());
    return new Schedule(this, 'Schedule', {
      scheduleName: tenantResourceName(props.tenant, 'feeds-refresh'),
      description: `Refreshes the enabled public feeds whose refresh period is due, every ${every} minutes${props.enabled.length ? '' : ' (disabled: no feed enabled)'}`,
      schedule: ScheduleExpression.rate(Duration.minutes(every)),
      enabled: props.enabled.length > 0,
      target: new LambdaInvoke(this.refresh.function, {
        role: schedulerRole,
        input: ScheduleTargetInput.fromObject({ refresh: 'due' }),
        retryAttempts: 1,
        maxEventAge: Duration.minutes(every),
      }),
    });
  }

  /** A function that downloads feeds reads the abuse.ch Auth-Key from the intel secret, when one is used. */
  grantKeys(fn: ServiceFunction): void {
    if (!this.intelSecretArn) return;
    fn.addToPolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.intelSecretArn] }),
    );
    fn.addEnvironment('SIS_INTEL_SECRET_ARN', this.intelSecretArn);
  }

  /**
   * Read (the tool step) or write and delete (the refresh) the compiled sets: exactly each feed's
   * folder of versioned sets and its one legacy object, no wider wildcard. The refresh never reads a
   * set, never writes a legacy object, and only deletes one it replaced.
   */
  grant(fn: ServiceFunction, access: 'read' | 'readWrite'): void {
    const versions = FEED_NAMES.map((name) => this.bucket.arnForObjects(`${feedObjectPrefix(name)}*`));
    const legacy = FEED_NAMES.map((name) => this.bucket.arnForObjects(legacyFeedObjectKey(name)));
    if (access === 'read') {
      fn.addToPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [...legacy, ...versions] }));
    } else {
      fn.addToPolicy(
        new PolicyStatement({ actions: ['s3:PutObject', 's3:DeleteObject'], resources: versions }),
      );
      fn.addToPolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: legacy }));
    }
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    Validations.of(fn.role).acknowledge(
      ...FEED_NAMES.map((name) => ({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${feedObjectPrefix(name)}*]`,
        reason: `Each ${name} set is keyed by its version, created at refresh time; the grant covers that feed's folder of sets only.`,
      })),
    );
    fn.addEnvironment('SIS_FEEDS_BUCKET', this.bucket.bucketName);
  }

  get functions(): [string, ServiceFunction][] {
    return [[FEEDS_REFRESH_FUNCTION, this.refresh]];
  }
}
