import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { workflowTimeoutSeconds } from '../infra/workflow/definition';
import { ROUTES } from '../shared/api/routes';
import { config, resetConfigForTests } from '../shared/config';
import { FEED_NAMES, feedEnvPrefix } from '../shared/domain/feeds/names';
import { FEED_SOURCES } from '../shared/domain/feeds/sources';
import { CONNECTOR_NAMES, type ConnectorName, intelEnvPrefix } from '../shared/domain/intel/names';
import { RateLimiter, rateLimitFromContext } from '../shared/domain/keys/rate-limit';
import { logger } from '../shared/observability';
import { incidentQueueFromConfig } from '../shared/platform/incident-queue';
import { localDataDir } from '../shared/platform/offline-intel-build';
import { enabledFeeds } from '../shared/services/feeds/enabled-feeds';
import { keyOf } from '../shared/services/intel/configured-connectors';
import { lifecycleContext } from '../shared/services/sessions/lifecycle-context';
import { failInterruptedSessions } from '../shared/services/workflow/ended-runs';
import type { SweepResult } from '../shared/services/workflow/stale-session-sweeper';
import { ensureTables, tableEnvironment, tableNamesFor } from '../shared/store/create-tables';
import { incidentsRepositoryFromConfig } from '../shared/store/incidents-repository';
import {
  type ConsoleIssuer,
  createConsoleIssuer,
  ISSUER_MOUNT_PATH,
  type LocalConsoleUser,
} from './console-issuer';
import { loadDemoData } from './demo-data';
import { createLocalDynamoDbClient, startDynamoDbLocal } from './dynamodb-local';
import { startFeedSchedules } from './feed-schedules';
import { type AuthorizerHandler, createGateway, type ProxyHandler } from './gateway';
import { startIntervalJob } from './interval-job';
import { startSiemPullSchedule } from './siem-pull-schedule';
import { type LocalQueue, type LocalQueueOptions, type SqsConsumer, startLocalQueue } from './sqs';
import {
  type LocalStepFunctions,
  type LocalStepFunctionsOptions,
  startLocalStepFunctions,
} from './step-functions';
import { type LocalFunction, type LocalLambda, startLocalLambda } from './webhooks/lambda-invoke';
import { type LocalScheduler, startLocalScheduler } from './webhooks/scheduler';

/** The delivery function's name here, as the stack names it for the tenant `local`. */
const LOCAL_DELIVER_WEBHOOK_FUNCTION = 'sis-local-deliver-webhook';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Connectors SIS_PUBLIC_SOURCES=on turns on: keyless ones whose terms allow a business's internal
 * use. None today: Shodan InternetDB, the one keyless connector, is free for non-commercial use
 * only (docs/intel.md), so it stays an explicit SIS_INTEL_INTERNETDB_ENABLED=true.
 */
const PUBLIC_CONNECTORS: readonly ConnectorName[] = [];

/**
 * SIS_PUBLIC_SOURCES=on: the outside sources the stack enables by default on AWS (the keyless feeds
 * whose terms allow internal business use, FEED_SOURCES' enabledByDefault), turned on here too. A
 * variable the operator set, either way, wins.
 */
export function publicSourcesEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  if (env.SIS_PUBLIC_SOURCES?.trim().toLowerCase() !== 'on') return {};
  const names = [
    ...FEED_NAMES.filter((name) => FEED_SOURCES[name].enabledByDefault).map((name) => feedEnvPrefix(name)),
    ...PUBLIC_CONNECTORS.map((name) => intelEnvPrefix(name)),
  ].map((prefix) => `${prefix}_ENABLED`);
  return Object.fromEntries(names.filter((name) => env[name] === undefined).map((name) => [name, 'true']));
}

export interface LocalServiceOptions {
  /** 0 picks a free port. */
  port: number;
  /** Use a DynamoDB Local that is already running (tests), or start one persisting to dataDir. */
  dynamodb: { endpoint: string } | { dataDir: string; port: number };
  /** Physical table names are `<tablePrefix>-<table>`. */
  tablePrefix?: string;
  publicUrl?: string;
  /** Further environment for the handlers (e.g. small rate limits in tests). */
  env?: Record<string, string>;
  /** Local incident queue settings (tests shorten the visibility timeout). */
  incidentQueue?: Pick<LocalQueueOptions, 'visibilityTimeoutSeconds' | 'maxReceiveCount' | 'batchSize'>;
  /**
   * Load the demo incidents into an empty store (still subject to SIS_DEMO_DATA). Defaults to on when
   * this starts its own DynamoDB Local (`npm start`), off against an existing one (tests).
   */
  demoData?: boolean;
  /**
   * How often the stale-session sweeper runs (the stack's schedule runs it every 5 minutes); false
   * turns the interval off (`sweepStaleSessions()` still runs it on demand). Default: every 60 s.
   */
  staleSessionSweep?: { intervalSeconds: number } | false;
  /**
   * Where the feeds' compiled sets are kept (SIS_FEEDS_DIR). Default: `feeds` beside the DynamoDB
   * data directory, or a temporary directory per table prefix against an existing DynamoDB.
   */
  feedsDir?: string;
  /** Local Step Functions settings (tests: Express's at-least-once delivery made certain). */
  stepFunctions?: Pick<LocalStepFunctionsOptions, 'atLeastOnce' | 'retryIntervalMs'>;
}

export interface LocalService {
  baseUrl: string;
  /** The local OpenID Connect issuer of the console and its users (docs/console.md). */
  console: { url: string; issuer: string; clientId: string; users: LocalConsoleUser[] };
  port: number;
  env: Record<string, string>;
  /** The in-process incident queue (tests wait for `idle()` and inspect `dlq()`). */
  incidentQueue: LocalQueue;
  /**
   * Webhook delivery (docs/soar.md "Webhooks"): the local Lambda Invoke endpoint running the real
   * delivery function (first attempts), and the local Scheduler whose one-shot schedules run retries.
   */
  webhooks: { lambda: LocalLambda; scheduler: LocalScheduler };
  /** The local Step Functions running investigations (tests wait for `idle()`). */
  stepFunctions: LocalStepFunctions;
  /** Runs the stale-session sweeper's handler now (or joins the run in progress). */
  sweepStaleSessions(): Promise<SweepResult>;
  /** The start-up refresh of the enabled feeds (resolved at once when none is enabled). */
  feedsStartup: Promise<unknown>;
  /** The outside sources this runtime turned on (the start-up banner names them). */
  outsideSources: { feeds: string[]; connectors: string[] };
  stop(): Promise<void>;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

/**
 * Runs the whole service on this machine: DynamoDB Local, the tables, and the local gateway in front
 * of the real handler modules. The handlers read their configuration from process.env exactly as on
 * Lambda, so this sets the same variables the CDK construct sets, pointing at local endpoints.
 */
export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const stoppers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  };
  try {
    let endpoint: string;
    if ('endpoint' in options.dynamodb) {
      endpoint = options.dynamodb.endpoint;
    } else {
      const dynamo = await startDynamoDbLocal({
        port: options.dynamodb.port,
        dataDir: options.dynamodb.dataDir,
      });
      stoppers.push(() => dynamo.stop());
      endpoint = dynamo.endpoint;
    }

    const handlers = new Map<string, Promise<ProxyHandler>>();
    const loadModule = async (name: string) =>
      import(pathToFileURL(resolve(REPO_ROOT, 'functions', name, 'handler.ts')).href) as Promise<{
        handler: unknown;
      }>;
    // The incident queue invokes the real SQS consumer handler, as the event source mapping does on AWS.
    const consumer = loadModule('incident-sync-consumer').then((m) => m.handler as SqsConsumer);
    const incidentQueue = await startLocalQueue({
      ...options.incidentQueue,
      consumer: async (event, context) => (await consumer)(event, context),
      onError: (error, info) =>
        logger.error('local incident queue failure', { ...info, error: error as Error }),
    });
    stoppers.push(() => incidentQueue.stop());
    // Webhook attempts: the real delivery function behind a local Lambda Invoke endpoint (first
    // attempts, asynchronous invokes) and a local Scheduler (retries, one-shot schedules).
    const webhookLambda = await startLocalLambda({
      functions: {
        [LOCAL_DELIVER_WEBHOOK_FUNCTION]: () =>
          loadModule('deliver-webhook').then((m) => m.handler as LocalFunction),
      },
      onFailure: ({ functionName, error }) =>
        logger.error('local asynchronous invocation failed', { functionName, error: error as Error }),
    });
    stoppers.push(() => webhookLambda.stop());
    const webhookScheduler = await startLocalScheduler({
      invoke: (arn, input) => webhookLambda.invokeAsync(arn, input),
      onError: (error) => logger.error('local scheduler failure', { error: error as Error }),
    });
    stoppers.push(() => webhookScheduler.stop());
    // Investigations run as executions of the real ASL, each Task invoking the real step handler.
    // (Step failures are logged by the steps themselves.)
    const stepFunctions = await startLocalStepFunctions({
      region: process.env.AWS_REGION ?? 'us-east-1',
      ...options.stepFunctions,
    });
    stoppers.push(() => stepFunctions.stop());

    const tableNames = tableNamesFor(options.tablePrefix ?? 'sis-local');
    const env: Record<string, string> = {
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      SIS_TENANT: 'local',
      SIS_DYNAMODB_ENDPOINT: endpoint,
      SIS_SQS_ENDPOINT: incidentQueue.endpoint,
      SIS_INCIDENT_QUEUE_URL: incidentQueue.queueUrl,
      SIS_LAMBDA_ENDPOINT: webhookLambda.endpoint,
      SIS_SCHEDULER_ENDPOINT: webhookScheduler.endpoint,
      SIS_WEBHOOK_FUNCTION_ARN: `arn:aws:lambda:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:function:${LOCAL_DELIVER_WEBHOOK_FUNCTION}`,
      SIS_WEBHOOK_SCHEDULE_GROUP: 'sis-local-webhooks',
      SIS_WEBHOOK_SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/sis-local-webhook-scheduler',
      SIS_SFN_ENDPOINT: stepFunctions.endpoint,
      SIS_STATE_MACHINE_ARN: stepFunctions.stateMachineArn,
      // Both state machines of the one definition, as the stack deploys them: the start chooses.
      SIS_EXPRESS_STATE_MACHINE_ARN: stepFunctions.expressStateMachineArn,
      SIS_WORKFLOW_TIMEOUT_SECONDS: String(workflowTimeoutSeconds()),
      // The run-tool step's offline enrichment data: the stack ships it beside the function; here it
      // is the cache built from the installed packages (once, ~5 s).
      SIS_OFFLINE_DATA_DIR: process.env.SIS_OFFLINE_DATA_DIR ?? localDataDir(),
      // The feeds' compiled sets: S3 on AWS, a directory here.
      SIS_FEEDS_DIR:
        options.feedsDir ??
        process.env.SIS_FEEDS_DIR ??
        ('dataDir' in options.dynamodb
          ? resolve(options.dynamodb.dataDir, '..', 'feeds')
          : resolve(tmpdir(), `sis-feeds-${options.tablePrefix ?? 'sis-local'}`)),
      ...tableEnvironment(tableNames),
      ...publicSourcesEnvironment({ ...process.env, ...options.env }),
      ...options.env,
    };
    Object.assign(process.env, env);
    resetConfigForTests();

    await ensureTables(createLocalDynamoDbClient(endpoint, env.AWS_REGION), tableNames);
    // Before the gateway accepts a request: runs of a previous process are gone, so their open
    // sessions end failed (never re-run).
    const interrupted = await failInterruptedSessions(lifecycleContext());
    if (interrupted.length)
      logger.info('sessions interrupted by a restart marked failed', { count: interrupted.length });

    // Created once the port is known (the issuer URL contains it); requests before that get 503.
    let issuer: ConsoleIssuer | undefined;
    const rateLimiter = new RateLimiter();
    const server = createGateway({
      routes: ROUTES,
      arnBase: {
        region: env.AWS_REGION ?? 'us-east-1',
        accountId: '000000000000',
        apiId: 'local',
        stage: 'local',
      },
      loadHandler: (name) => {
        let loaded = handlers.get(name);
        if (!loaded) {
          loaded = loadModule(name).then((m) => m.handler as ProxyHandler);
          handlers.set(name, loaded);
        }
        return loaded;
      },
      // The same per-key numbers API Gateway's usage plans enforce on AWS.
      rateLimit: (identifier, context) => {
        const decision = rateLimiter.check(identifier, rateLimitFromContext(context));
        return decision.allowed
          ? { allowed: true }
          : { allowed: false, retryAfterSeconds: decision.retryAfterSeconds };
      },
      loadAuthorizer: () => loadModule('authorizer').then((m) => m.handler as AuthorizerHandler),
      loadConsoleAuthorizer: () =>
        loadModule('console-authorizer').then((m) => m.handler as AuthorizerHandler),
      mounts: [
        {
          prefix: ISSUER_MOUNT_PATH,
          handle: (req, res) => {
            if (issuer) return issuer.handle(req, res);
            res.writeHead(503).end();
          },
        },
      ],
      onError: (error, info) => logger.error('local gateway failure', { ...info, error: error as Error }),
    });
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(options.port, '127.0.0.1', () => ready());
    });
    stoppers.push(() => closeServer(server));
    const port = (server.address() as AddressInfo).port;
    const baseUrl = `http://127.0.0.1:${port}`;
    process.env.SIS_PUBLIC_URL = options.publicUrl ?? process.env.SIS_PUBLIC_URL ?? baseUrl;
    env.SIS_PUBLIC_URL = process.env.SIS_PUBLIC_URL;
    issuer = createConsoleIssuer({
      publicUrl: env.SIS_PUBLIC_URL,
      adminPassword: env.SIS_CONSOLE_ADMIN_PASSWORD ?? process.env.SIS_CONSOLE_ADMIN_PASSWORD,
      analystPassword: env.SIS_CONSOLE_ANALYST_PASSWORD ?? process.env.SIS_CONSOLE_ANALYST_PASSWORD,
    });
    // What the stack sets from the user pool on AWS; the JWKS is read over the local port, so it
    // works whatever SIS_PUBLIC_URL says.
    Object.assign(env, {
      SIS_CONSOLE_ISSUER: issuer.issuer,
      SIS_CONSOLE_CLIENT_ID: issuer.clientId,
      SIS_CONSOLE_JWKS_URL: `${baseUrl}${ISSUER_MOUNT_PATH}/.well-known/jwks.json`,
    });
    Object.assign(process.env, env);
    resetConfigForTests();
    const cfg = config();

    if ((options.demoData ?? 'dataDir' in options.dynamodb) && cfg.SIS_DEMO_DATA) {
      const outcome = await loadDemoData({
        incidents: incidentsRepositoryFromConfig(cfg),
        queue: incidentQueueFromConfig(cfg),
        drained: () => incidentQueue.idle(),
      });
      if ('loaded' in outcome) logger.info('demo incidents loaded (SIS_DEMO_DATA=0 turns this off)', outcome);
    }
    if (cfg.SIS_SIEM_PULL_INTERVAL_SECONDS) {
      const pull = loadModule('siem-pull').then((m) => m.handler as (event: unknown) => Promise<unknown>);
      const schedule = startSiemPullSchedule({
        intervalSeconds: cfg.SIS_SIEM_PULL_INTERVAL_SECONDS,
        run: async () => (await pull)({}),
        onError: (error) => logger.warn('local SIEM pull failed', { error: error as Error }),
      });
      stoppers.push(() => schedule.stop());
    }

    const feeds = startFeedSchedules({
      cfg,
      run: async () => {
        const { handler } = await loadModule('scheduled-feeds-refresh');
        return (handler as (event: unknown) => Promise<unknown>)({});
      },
      onError: (error) => logger.warn('local feed refresh failed', { error: error as Error }),
    });
    stoppers.push(() => feeds.stop());

    // A start that failed half-way (the session written, its run never started) or a status-change
    // delivery that gave up leaves a session open here as on AWS; the restart check above only
    // covers the previous process.
    const sweep = startIntervalJob({
      intervalSeconds:
        options.staleSessionSweep === false ? undefined : (options.staleSessionSweep?.intervalSeconds ?? 60),
      run: async () => {
        const { handler } = await loadModule('sweep-stale-sessions');
        return (handler as () => Promise<SweepResult>)();
      },
      onError: (error) => logger.warn('local stale-session sweep failed', { error: error as Error }),
    });
    stoppers.push(() => sweep.stop());

    return {
      baseUrl,
      console: {
        url: `${env.SIS_PUBLIC_URL.replace(/\/+$/, '')}/sessions`,
        issuer: issuer.issuer,
        clientId: issuer.clientId,
        users: issuer.users,
      },
      port,
      env,
      incidentQueue,
      webhooks: { lambda: webhookLambda, scheduler: webhookScheduler },
      stepFunctions,
      sweepStaleSessions: () => sweep.runNow(),
      feedsStartup: feeds.startup,
      outsideSources: {
        feeds: enabledFeeds(cfg),
        connectors: CONNECTOR_NAMES.filter((name) => keyOf(cfg, name).configured),
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
