import { resolve } from 'node:path';
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createLocalDynamoDbClient, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type Config, parseConfig } from '../../shared/config';
import { type ApiKeyService, apiKeyServiceFromConfig } from '../../shared/services/auth/api-keys';
import { ensureTables } from '../../shared/store/create-tables';
import { physicalTableName, TABLE_IDS, TABLES, type TableId, tableName } from '../../shared/store/tables';
import { CliUsageError } from './errors';

/**
 * Where an operator command reads and writes keys, decided the way the local runtime decides:
 * 1. SIS_DYNAMODB_ENDPOINT set: that DynamoDB (Local) endpoint.
 * 2. `--aws` or SIS_TARGET=aws: the real DynamoDB of the deployed stack, table SIS_KEYS_TABLE or
 *    `sis-<tenant>-keys` with `--tenant`.
 * 3. Otherwise the running local service's DynamoDB Local on 127.0.0.1:${SIS_DYNAMODB_PORT:-8000}
 *    (the start-up banner of `npm start` prints the command with the variables it uses). When nothing
 *    answers there, or it holds no key table, the command refuses: writing a key anywhere else would
 *    give one the running service never sees. With `--start-db` (nothing running on purpose), it starts
 *    DynamoDB Local itself on ${SIS_DATA_DIR:-.data}/dynamodb, creates the tables, does its work and
 *    stops it again.
 */
export interface TargetOptions {
  aws?: boolean;
  tenant?: string;
}

export interface OpenOptions {
  /** Start DynamoDB Local on the data directory when nothing answers (and create missing tables). */
  startDb?: boolean;
}

export type CliTarget =
  | { kind: 'endpoint'; endpoint: string; config: Config }
  | { kind: 'aws'; config: Config }
  | { kind: 'local'; endpoint: string; port: number; dataDir: string; config: Config };

export { CliUsageError };

function parsePort(value: string | undefined): number {
  const port = Number(value ?? '8000');
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new CliUsageError(`SIS_DYNAMODB_PORT must be a port number, got ${JSON.stringify(value)}`);
  }
  return port;
}

export function resolveTarget(env: NodeJS.ProcessEnv, options: TargetOptions): CliTarget {
  const tenantTables = options.tenant
    ? Object.fromEntries(
        TABLE_IDS.map((id) => [TABLES[id].configKey, physicalTableName(options.tenant as string, id)]),
      )
    : {};
  const withTables = { ...env, ...(options.tenant ? { SIS_TENANT: options.tenant } : {}), ...tenantTables };
  if (env.SIS_DYNAMODB_ENDPOINT) {
    return { kind: 'endpoint', endpoint: env.SIS_DYNAMODB_ENDPOINT, config: parseConfig(withTables) };
  }
  if (options.aws || env.SIS_TARGET === 'aws') {
    if (!options.tenant && !env.SIS_KEYS_TABLE) {
      throw new CliUsageError('On AWS, name the key table: pass --tenant <tenant> or set SIS_KEYS_TABLE.');
    }
    const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
    if (!region) throw new CliUsageError('On AWS, set AWS_REGION to the region of the stack.');
    return { kind: 'aws', config: parseConfig({ ...withTables, AWS_REGION: region }) };
  }
  const port = parsePort(env.SIS_DYNAMODB_PORT);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    kind: 'local',
    endpoint,
    port,
    dataDir: resolve(env.SIS_DATA_DIR || '.data', 'dynamodb'),
    config: parseConfig({ ...withTables, SIS_DYNAMODB_ENDPOINT: endpoint }),
  };
}

export function describeTarget(target: CliTarget): string {
  const table = target.config.SIS_KEYS_TABLE;
  switch (target.kind) {
    case 'aws':
      return `DynamoDB in ${target.config.AWS_REGION}, table ${table}`;
    case 'endpoint':
      return `DynamoDB at ${target.endpoint}, table ${table}`;
    case 'local':
      return `DynamoDB Local at ${target.endpoint} (data in ${target.dataDir}), table ${table}`;
  }
}

async function answers(endpoint: string): Promise<boolean> {
  const probe = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
  });
  try {
    await probe.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    probe.destroy();
  }
}

export interface OpenedTarget {
  service: ApiKeyService;
  close(): Promise<void>;
}

/** Why a local target cannot be used without --start-db: nothing answers, or no key table is there. */
function notRunning(target: Extract<CliTarget, { kind: 'local' }>): CliUsageError {
  return new CliUsageError(
    [
      `Nothing answers on ${target.endpoint}, where the local service's DynamoDB Local should be (SIS_DYNAMODB_PORT=${target.port}).`,
      'Start the service (npm start) and run the bootstrap command its start-up banner prints; it names the',
      'SIS_DYNAMODB_PORT the service uses. To write into the data directory with no service running, add',
      `--start-db (starts DynamoDB Local on ${target.dataDir} for this command alone).`,
    ].join('\n'),
  );
}

async function hasTable(endpoint: string, region: string, table: string): Promise<boolean> {
  const client = createLocalDynamoDbClient(endpoint, region);
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return false;
    throw error;
  } finally {
    client.destroy();
  }
}

/**
 * Connects to the target and returns the key service on it. A local target must be the running
 * service's DynamoDB Local with its key table, unless `startDb` (then it is started when needed and
 * the tables are created).
 */
export async function openTarget(
  target: CliTarget,
  status: (line: string) => void,
  options: OpenOptions = {},
): Promise<OpenedTarget> {
  let stop: (() => Promise<void>) | undefined;
  if (target.kind === 'local' && !options.startDb) {
    if (!(await answers(target.endpoint))) throw notRunning(target);
    if (!(await hasTable(target.endpoint, target.config.AWS_REGION, target.config.SIS_KEYS_TABLE))) {
      throw new CliUsageError(
        `DynamoDB on ${target.endpoint} answers but has no table ${target.config.SIS_KEYS_TABLE}: it is not this service's (start the service with npm start, or add --start-db to create the tables).`,
      );
    }
  } else if (target.kind !== 'aws') {
    if (target.kind === 'local' && !(await answers(target.endpoint))) {
      status(
        `Nothing answers on ${target.endpoint}; starting DynamoDB Local with data in ${target.dataDir} (--start-db) ...`,
      );
      const dynamodb = await startDynamoDbLocal({ port: target.port, dataDir: target.dataDir });
      stop = () => dynamodb.stop();
    }
    const client = createLocalDynamoDbClient(target.endpoint, target.config.AWS_REGION);
    try {
      const names = Object.fromEntries(TABLE_IDS.map((id) => [id, tableName(target.config, id)])) as Record<
        TableId,
        string
      >;
      await ensureTables(client, names);
    } catch (error) {
      await stop?.();
      throw error;
    } finally {
      client.destroy();
    }
  }
  return { service: apiKeyServiceFromConfig(target.config), close: async () => stop?.() };
}
