import type { Command } from 'commander';
import { globals, readStdinSecret, withExamples } from '../context';
import { EXIT, UsageError } from '../errors';
import { note, printJson, printText, table } from '../output';
import {
  checkApiUrl,
  checkProfileName,
  configFile,
  DEFAULT_PROFILE,
  insecureUrlWarning,
  listProfiles,
  readProfile,
  saveProfile,
} from '../profiles';

/** Reads a line from the terminal without echoing it (for the API key). */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(question);
    let value = '';
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new UsageError('Canceled.'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    input.on('data', onData);
  });
}

function promptLine(question: string): Promise<string> {
  return new Promise((resolve) => {
    process.stderr.write(question);
    process.stdin.resume();
    process.stdin.setEncoding('utf8');
    process.stdin.once('data', (line: string) => {
      process.stdin.pause();
      resolve(line.trim());
    });
  });
}

interface ConfigureFlags {
  apiUrl?: string;
  list?: boolean;
}

async function configure(flags: ConfigureFlags, command: Command): Promise<number> {
  const { profile: chosen, apiKeyStdin, json } = globals(command);
  if (flags.list) {
    const profiles = listProfiles().map((name) => ({ name, api_url: readProfile(name)?.api_url ?? '' }));
    if (json) printJson({ config_file: configFile(), profiles });
    else
      printText(
        table(
          ['PROFILE', 'API URL'],
          profiles.map((p) => [p.name, p.api_url]),
        ) || 'No profiles yet.',
      );
    return EXIT.ok;
  }
  const name = checkProfileName(chosen ?? DEFAULT_PROFILE);
  const existing = readProfile(name);
  const interactive = Boolean(process.stdin.isTTY) && !apiKeyStdin;
  let apiUrl = flags.apiUrl;
  if (!apiUrl && interactive) {
    apiUrl = (await promptLine(`API URL${existing ? ` [${existing.api_url}]` : ''}: `)) || existing?.api_url;
  }
  apiUrl ??= existing?.api_url;
  if (!apiUrl) throw new UsageError('Give the service URL with --api-url (e.g. https://sis.example.com).');
  let apiKey: string | undefined;
  if (apiKeyStdin) apiKey = await readStdinSecret();
  else if (interactive)
    apiKey = (await promptHidden(`API key${existing?.api_key ? ' [keep current]' : ''}: `)) || undefined;
  apiKey ??= existing?.api_key;
  if (!apiKey)
    throw new UsageError(
      'Give the API key on standard input with --api-key-stdin, or run this in a terminal.',
    );
  const file = saveProfile(name, { api_url: checkApiUrl(apiUrl), api_key: apiKey });
  const warning = insecureUrlWarning(checkApiUrl(apiUrl));
  if (warning) note(warning);
  if (json) printJson({ profile: name, api_url: checkApiUrl(apiUrl), config_file: file });
  else printText(`Saved profile "${name}" (${checkApiUrl(apiUrl)}) in ${file} (readable by you only).`);
  return EXIT.ok;
}

export function addConfigureCommand(program: Command): void {
  withExamples(
    program
      .command('configure')
      .description(
        'Save a named profile (API URL and key) in your config directory, mode 0600; --profile names it (default "default"). The key is read from a hidden prompt or --api-key-stdin, never from an argument.',
      )
      .option('--api-url <url>', "the service's base URL")
      .option('--list', 'list saved profiles (never their keys)'),
    [
      'sis configure --api-url https://sis.example.com',
      'pass show sis/prod | sis configure --profile prod --api-url https://sis.example.com --api-key-stdin',
      'sis configure --list',
    ],
  ).action(async (flags: ConfigureFlags, command: Command) => {
    process.exitCode = await configure(flags, command);
  });
}
