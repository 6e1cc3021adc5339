import { type Command, Option, run, UsageError } from '../packages/cli/src/program';
import { KEY_EXPIRY_DAYS } from '../shared/domain/keys/key-lifecycle';
import { SERVICE_VERSION } from '../shared/version';
import type { BootstrapFlags, RotateCursorSecretFlags } from './cli/admin';
import { parseExpiryDays } from './cli/bootstrap';
import { CliUsageError } from './cli/errors';

/**
 * The project's `sis`: every command of the CLI package (packages/cli: investigations, sessions, keys,
 * incidents, graph, search, smoke, profiles) plus `sis admin bootstrap`, which writes the first admin
 * key straight into the key table, and `sis admin rotate-cursor-secret`, which rotates the key that
 * signs pagination cursors in the same table. Their actions (bin/cli/admin.ts) need the AWS SDK and
 * the key service, so they are imported only when an admin command runs: `sis --version` or
 * `sis investigate` load no more than the CLI package does.
 */
const status = (line: string) => process.stderr.write(`${line}\n`);
const adminModule = () => import('./cli/admin');

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

const START_DB_HELP =
  'when nothing answers on SIS_DYNAMODB_PORT, start DynamoDB Local on SIS_DATA_DIR for this command (no service running)';

function addAdminCommands(program: Command): void {
  const admin = program.command('admin').description('Administration of this deployment from the project');
  admin
    .command('bootstrap')
    .description(
      "Create an admin API key directly in the key table (the first key of a deployment). Locally it writes into the running service's DynamoDB Local (run the command `npm start` prints) and refuses when nothing answers there. Refuses while an active admin key exists, unless --force.",
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
    // The singular, accepted but not shown: `--scopes` is the one spelling (as in `sis keys create`).
    .addOption(new Option('--scope <list>').hideHelp())
    .option('--aws', 'write to the deployed stack on AWS (same as SIS_TARGET=aws)')
    .option('--tenant <tenant>', 'tenant whose tables (sis-<tenant>-*) to use')
    .option('--start-db', START_DB_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ npx sis admin bootstrap --json\n  $ SIS_DYNAMODB_PORT=8600 npx sis admin bootstrap --json\n  $ npx sis admin bootstrap --aws --tenant acme\n',
    )
    .action(
      adminAction<BootstrapFlags & { scope?: string }>(async ({ scope, ...flags }) =>
        (await adminModule()).bootstrap({ ...flags, scopes: scope ?? flags.scopes }),
      ),
    );
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
    .option('--start-db', START_DB_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ npx sis admin rotate-cursor-secret\n  $ npx sis admin rotate-cursor-secret --aws --tenant acme\n',
    )
    .action(
      adminAction<RotateCursorSecretFlags>(async (flags) => (await adminModule()).rotateCursorSecret(flags)),
    );
}

/**
 * A `sis admin` command's action: the global --json joins its flags, and a failure becomes a message
 * and exit code 1 (usage errors say "Error:", anything else "Failed:").
 */
function adminAction<Flags extends { json?: boolean | undefined }>(
  action: (flags: Flags) => Promise<number>,
): (flags: Omit<Flags, 'json'>, command: Command) => Promise<void> {
  return async (flags, command) => {
    try {
      process.exitCode = await action({
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

process.exitCode = await run(process.argv, { extend: addAdminCommands, version: SERVICE_VERSION });
