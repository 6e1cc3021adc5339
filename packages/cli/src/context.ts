import type { Command } from 'commander';
import { ApiClient } from './api';
import { CliError, EXIT, UsageError } from './errors';
import { note } from './output';
import { insecureUrlWarning, resolveTarget } from './profiles';

export interface GlobalFlags {
  json?: boolean;
  profile?: string;
  apiKeyStdin?: boolean;
}

export interface CommandContext {
  json: boolean;
  api: ApiClient;
}

/** Reads a secret piped to standard input (first line, trimmed); refuses a terminal. */
export async function readStdinSecret(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new UsageError(
      '--api-key-stdin reads the key from standard input; pipe it in, e.g. `pass show sis | sis …`.',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const secret = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0]?.trim() ?? '';
  if (!secret) throw new CliError('--api-key-stdin: standard input held no key.', EXIT.auth);
  return secret;
}

export function globals(command: Command): GlobalFlags {
  return command.optsWithGlobals<GlobalFlags>();
}

export async function commandContext(command: Command): Promise<CommandContext> {
  const flags = globals(command);
  const stdinKey = flags.apiKeyStdin ? await readStdinSecret() : undefined;
  const target = resolveTarget({ profile: flags.profile, stdinKey });
  const warning = insecureUrlWarning(target.apiUrl);
  if (warning) note(warning);
  return { json: Boolean(flags.json), api: new ApiClient(target) };
}

export function withExamples(command: Command, examples: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
}
