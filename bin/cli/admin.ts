import { userInfo } from 'node:os';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { type Command, run, UsageError } from '../packages/cli/src/program';
import { KEY_EXPIRY_DAYS } from '../shared/domain/keys/key-lifecycle';
import { rotateCursorSecrets } from '../shared/services/auth/cursor-secrets';
import { cursorSecretRepositoryFromConfig } from '../shared/store/cursor-secret-repository';
import { SERVICE_VERSION } from '../shared/version';
import { bootstrapAdminKey, parseExpiryDays, parseScopeList } from './cli/bootstrap';
import { withApiGateway } from './cli/discover-api';
import { type CliTarget, CliUsageError, describeTarget, openTarget, resolveTarget } from './cli/target';

/**
 * The project's `sis`: every command of the CLI package (packages/cli: investigations, sessions, keys,
 * incidents, graph, search, profiles) plus `sis admin bootstrap`, which writes the first admin key
 * straight into the key table, and `sis admin rotate-cursor-secret`, which rotates the key that signs
 * pagination cursors in the same table; both need the project's runtime code. Results go to stdout (with
 * --json, exactly one JSON document); progress and errors go to stderr. A secret is printed to stdout
 * once and never logged.
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

interface RotateCursorSecretFlags {
  json?: boolean;
  discardPrevious?: boolean;
  aws?: boolean;
  tenant?: string;
}

/** The secret itself is never printed: nobody but the functions that page needs it. */
async function rotateCursorSecret(flags: RotateCursorSecretFlags): Promise<number> {
  const target = resolveTarget(process.env, { aws: flags.aws, tenant: flags.tenant });
  const opened = await openTarget(target, status);
  try {
    const rotation = await rotateCursorSecrets(cursorSecretRepositoryFromConfig(target.config), {
      discardPrevious: Boolean(flags.discardPrevious),
    });
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ rotated: true, previous_kept: rotation.previousKept })}\n`);
    } else {
      process.stdout.write(
        [
          `Cursor secret rotated in ${describeTarget(target)}.`,
          rotation.previousKept
            ? '  Cursors issued before stay valid (the old secret is kept as previous until the next rotation).'
            : '  Cursors issued before are refused from now on (400 invalid_cursor): clients start their listings again.',
          '  Functions sign with the new secret from their next cold start.',
          '',
        ].join('\n'),
      );
    }
    return 0;
  } finally {
    await opened.close();
  }
}

/** Option parsing errors become the CLI's usage errors (one line, exit 2). */
function asUsageError<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  };
}

function addAdminCommands(program: Command): void {
  const admin = program.command('admin').description('Administration of this deployment from the project');
  admin
    .command('bootstrap')
    .description(
      'Create an admin API key directly in the key table (the first key of a deployment). Refuses while an active admin key exists, unless --force.',
    )
    .option('--force', 'create another admin key even if an active one exists')
    .option('--name <name>', 'key name', 'bootstrap admin')
    .option('--description <text>', 'key description', 'Created by sis admin bootstrap')
    .option(
      '--expires-in-days <days>',
      `days until the key expires (${KEY_EXPIRY_DAYS.min}-${KEY_EXPIRY_DAYS.max})`,
      asUsageError(parseExpiryDays),
      KEY_EXPIRY_DAYS.default,
    )
    .option('--scopes <list>', 'scopes besides the admin role: all, none, or a comma-separated list', 'all')
    .option('--aws', 'write to the deployed stack on AWS (same as SIS_TARGET=aws)')
    .option('--tenant <tenant>', 'tenant whose tables (sis-<tenant>-*) to use')
    .addHelpText(
      'after',
      '\nExamples:\n  $ npx sis admin bootstrap --json\n  $ npx sis admin bootstrap --aws --tenant acme\n',
    )
    .action(adminAction(bootstrap));
  admin
    .command('rotate-cursor-secret')
    .description(
      'Rotate the key that signs pagination cursors (an item of the key table): the current key becomes the previous one, so cursors in flight stay valid.',
    )
    .option(
      '--discard-previous',
      'do not keep the old key (it leaked): every cursor issued before is refused from now on',
    )
    .option('--aws', 'rotate in the deployed stack on AWS (same as SIS_TARGET=aws)')
    .option('--tenant <tenant>', 'tenant whose key table (sis-<tenant>-keys) to use')
    .addHelpText(
      'after',
      '\nExamples:\n  $ npx sis admin rotate-cursor-secret\n  $ npx sis admin rotate-cursor-secret --aws --tenant acme\n',
    )
    .action(adminAction(rotateCursorSecret));
}

process.exitCode = await run(process.argv, { extend: addAdminCommands, version: SERVICE_VERSION });

/**
 * A `sis admin` command's action: the global --json joins its flags, and a failure becomes a message
 * and exit code 1 (usage errors say "Error:", anything else "Failed:").
 */
function adminAction<Flags extends { json?: boolean | undefined }>(
  run: (flags: Flags) => Promise<number>,
): (flags: Omit<Flags, 'json'>, command: Command) => Promise<void> {
  return async (flags, command) => {
    try {
      process.exitCode = await run({
        ...flags,
        json: command.optsWithGlobals<{ json?: boolean }>().json,
      } as Flags);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      status(error instanceof CliUsageError ? `Error: ${message}` : `Failed: ${message}`);
      process.exitCode = 1;
    }
  };
}
