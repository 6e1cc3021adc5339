import { Command, CommanderError } from 'commander';
import { ApiError, describeFailure, NetworkError } from './api';
import { addConfigureCommand } from './commands/configure';
import { addConnectorCommands } from './commands/connectors';
import { addFeedCommands } from './commands/feeds';
import { addGraphCommand } from './commands/graph';
import { addIncidentsCommands } from './commands/incidents';
import { addInvestigationCommands } from './commands/investigations';
import { addKeyCommands } from './commands/keys';
import { addMcpCommands } from './commands/mcp';
import { addSearchCommand } from './commands/search';
import { addSmokeCommand } from './commands/smoke';
import { addAssetCommands, addTenantKnowledgeCommands } from './commands/tenant-knowledge';
import { addWebhookCommands } from './commands/webhooks';
import { completionScript } from './completion';
import { withExamples } from './context';
import { CliError, EXIT } from './errors';
import { printText, quietOnClosedPipe, terminalSafe } from './output';
import { CLI_VERSION } from './version';

export { type Command, Option } from 'commander';
export { CliError, EXIT, UsageError } from './errors';

export interface ProgramOptions {
  /** Adds commands that need more than the API (the project's `sis admin bootstrap`). */
  extend?: (program: Command) => void;
  version?: string;
}

export function buildProgram(options: ProgramOptions = {}): Command {
  const program = new Command('sis')
    .description(
      'Command line of the Security Investigation Service. Target and key: SIS_API_URL and SIS_API_KEY, or a profile saved by `sis configure`. Exit codes: 0 ok, 1 error, 2 usage, 3 authentication/authorisation, 4 not found, 5 investigation failed or canceled.',
    )
    .version(options.version ?? CLI_VERSION)
    .option('--json', 'print the API document as JSON (one document on stdout)')
    .option('--profile <name>', 'use this saved profile (see `sis configure`)')
    .option('--api-key-stdin', 'read the API key from standard input')
    .exitOverride()
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage and examples)');
  withExamples(program, [
    'export SIS_API_URL=http://127.0.0.1:3000 SIS_API_KEY=…   # or: sis configure',
    'sis investigate 203.0.113.7',
    'sis incidents list --severity high,critical --since 24h',
  ]);
  addInvestigationCommands(program);
  addKeyCommands(program);
  addIncidentsCommands(program);
  addGraphCommand(program);
  addSearchCommand(program);
  addTenantKnowledgeCommands(program);
  addFeedCommands(program);
  addConnectorCommands(program);
  addWebhookCommands(program);
  addConfigureCommand(program);
  addSmokeCommand(program);
  addMcpCommands(program);
  addAssetCommands(program);
  withExamples(
    program
      .command('completion')
      .description('Print a shell completion script for bash, zsh or fish')
      .argument('<shell>', 'bash, zsh or fish'),
    ['eval "$(sis completion bash)"', 'sis completion fish | source'],
  ).action((shell: string) => {
    printText(completionScript(program, shell));
  });
  options.extend?.(program);
  return program;
}

/** Runs the CLI; returns the exit code. Every failure becomes one line on stderr, never a stack trace. */
export async function run(argv: string[], options: ProgramOptions = {}): Promise<number> {
  process.exitCode = undefined;
  quietOnClosedPipe();
  try {
    await buildProgram(options).parseAsync(argv);
    return Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed its message already; help and --version are successes.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const failure =
      error instanceof ApiError || error instanceof NetworkError
        ? describeFailure(error)
        : error instanceof CliError
          ? error
          : new CliError(`Unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    process.stderr.write(`sis: ${terminalSafe(failure.message)}\n`);
    return failure.exitCode;
  }
}
