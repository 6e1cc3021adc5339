import { userInfo } from 'node:os';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { Command, Option } from 'commander';
import { KEY_EXPIRY_DAYS } from '../shared/domain/key-lifecycle';
import { SERVICE_VERSION } from '../shared/version';
import { bootstrapAdminKey, parseExpiryDays, parseScopeList } from './cli/bootstrap';
import { withApiGateway } from './cli/discover-api';
import { type CliTarget, CliUsageError, describeTarget, openTarget, resolveTarget } from './cli/target';

/**
 * `sis`: the operator CLI. Results go to stdout (with --json, exactly one JSON document); progress and
 * errors go to stderr. A secret is printed to stdout once and never logged.
 */
const status = (line: string) => process.stderr.write(`${line}\n`);

function actorName(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

interface BootstrapFlags {
  json?: boolean;
  force?: boolean;
  name: string;
  description: string;
  expiresInDays: number;
  scopes: string;
  aws?: boolean;
  tenant?: string;
}

/**
 * On AWS every protected method requires an API Gateway key, so the new key must join the tenant's
 * usage plan: the REST API, stage and default plan come from SIS_* when set, otherwise they are found
 * by the names the stack gives them.
 */
async function withUsagePlan(target: CliTarget, tenant: string | undefined): Promise<CliTarget> {
  if (target.kind !== 'aws') return target;
  const client = new APIGatewayClient({ region: target.config.AWS_REGION, maxAttempts: 4 });
  try {
    const { config, summary } = await withApiGateway(target.config, tenant, client);
    status(summary);
    return { ...target, config };
  } finally {
    client.destroy();
  }
}

async function bootstrap(flags: BootstrapFlags): Promise<number> {
  const resolved = resolveTarget(process.env, { aws: flags.aws, tenant: flags.tenant });
  const scopes = parseScopeList(flags.scopes);
  const target = await withUsagePlan(resolved, flags.tenant ?? process.env.SIS_TENANT);
  const opened = await openTarget(target, status);
  try {
    const result = await bootstrapAdminKey(
      opened.service,
      {
        force: Boolean(flags.force),
        name: flags.name,
        description: flags.description,
        expiresInDays: flags.expiresInDays,
        scopes,
      },
      actorName(),
    );
    if (!result.created) {
      status(`Refused: ${result.reason}`);
      return 2;
    }
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ key_id: result.keyId, api_key: result.apiKey })}\n`);
    } else {
      process.stdout.write(
        [
          `Admin API key created in ${describeTarget(target)}.`,
          `  key_id:     ${result.keyId}`,
          `  key_prefix: ${result.keyPrefix}`,
          `  scopes:     ${result.scopes.join(', ') || '(none: key management only)'}`,
          `  expires_at: ${result.expiresAt}`,
          '',
          'API key (shown only now; store it in a secrets manager, send it as the X-API-Key header):',
          result.apiKey,
          '',
        ].join('\n'),
      );
    }
    return 0;
  } finally {
    await opened.close();
  }
}

export function buildProgram(): Command {
  const program = new Command('sis')
    .description('Operator CLI of the Security Investigation Service')
    .version(SERVICE_VERSION)
    .showHelpAfterError();
  const admin = program.command('admin').description('Administration: API keys');
  admin
    .command('bootstrap')
    .description(
      'Create an admin API key directly in the key table (the first key of a deployment). Refuses while an active admin key exists, unless --force.',
    )
    .option('--json', 'print {"key_id","api_key"} as one JSON line')
    .option('--force', 'create another admin key even if an active one exists')
    .option('--name <name>', 'key name', 'bootstrap admin')
    .option('--description <text>', 'key description', 'Created by sis admin bootstrap')
    .option(
      '--expires-in-days <days>',
      `days until the key expires (${KEY_EXPIRY_DAYS.min}-${KEY_EXPIRY_DAYS.max})`,
      parseExpiryDays,
      KEY_EXPIRY_DAYS.default,
    )
    .option('--scopes <list>', 'scopes besides the admin role: all, none, or a comma-separated list', 'all')
    .option('--aws', 'write to the deployed stack on AWS (same as SIS_TARGET=aws)')
    .addOption(new Option('--tenant <tenant>', 'tenant whose tables (sis-<tenant>-*) to use'))
    .action(async (flags: BootstrapFlags) => {
      process.exitCode = await bootstrap(flags);
    });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    status(error instanceof CliUsageError ? `Error: ${message}` : `Failed: ${message}`);
    process.exitCode = 1;
  }
}

await main(process.argv);
