import { type Command, Option } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { parseDuration, parsePositiveInt } from '../durations';
import { EXIT, UsageError } from '../errors';
import type { components } from '../generated/api';
import { printJson, printRows, printText, shortTime } from '../output';
import { runWithContext } from './investigations';
import { collectList } from './list-options';

type Schemas = components['schemas'];

/** The grace period the API accepts at most (7 days). */
const MAX_GRACE_SECONDS = 604_800;

function secretLines(apiKey: string): string[] {
  return [
    '',
    'API key (shown only now; store it in a secrets manager, send it as the X-API-Key header):',
    apiKey,
  ];
}

interface CreateFlags {
  name: string;
  description?: string;
  scopes?: string[];
  /** The hidden alias `--scope` (the spelling before `--scopes`), so older scripts keep working. */
  scope?: string[];
  role: 'client' | 'admin';
  expiresInDays?: number;
}

async function createKey(flags: CreateFlags, ctx: CommandContext): Promise<number> {
  const body: Schemas['CreateApiKeyRequest'] = {
    name: flags.name,
    scopes: [...(flags.scopes ?? []), ...(flags.scope ?? [])] as Schemas['ApiKeyScope'][],
    role: flags.role,
    ...(flags.description ? { description: flags.description } : {}),
    ...(flags.expiresInDays ? { expires_in_days: flags.expiresInDays } : {}),
  };
  const key = (await ctx.api.call('createApiKey', { body })).body;
  if (ctx.json) printJson(key);
  else
    printText(
      [
        `Created key ${key.key_id} (${key.name}): role ${key.role}, scopes ${key.scopes.join(', ') || 'none'}, expires ${shortTime(key.expires_at)}.`,
        ...secretLines(key.api_key),
      ].join('\n'),
    );
  return EXIT.ok;
}

async function listKeys(search: string | undefined, ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('listApiKeys', { ...(search ? { query: { search } } : {}) })).body;
  printRows(
    ctx.json,
    answer,
    ['KEY ID', 'NAME', 'ROLE', 'STATUS', 'EXPIRES', 'LAST USED', 'SCOPES'],
    answer.keys.map((k) => [
      k.key_id,
      k.name,
      k.role,
      k.status,
      shortTime(k.expires_at),
      shortTime(k.last_used_at),
      k.scopes.join(',') || '-',
    ]),
    'No keys.',
  );
  return EXIT.ok;
}

interface RotateFlags {
  grace?: string;
  now?: boolean;
  expiresInDays?: number;
}

function graceSeconds(flags: RotateFlags): number {
  if (Boolean(flags.grace) === Boolean(flags.now)) {
    throw new UsageError(
      'Give exactly one of --grace DURATION (old secret keeps working that long) or --now.',
    );
  }
  const grace = flags.now ? 0 : parseDuration(flags.grace ?? '', '--grace');
  if (grace > MAX_GRACE_SECONDS) throw new UsageError('--grace can be at most 7d (604800 s).');
  return grace;
}

async function rotateKey(
  keyId: string,
  flags: RotateFlags,
  grace: number,
  ctx: CommandContext,
): Promise<number> {
  const body: Schemas['RotateApiKeyRequest'] = {
    grace_period_seconds: grace,
    ...(flags.expiresInDays ? { expires_in_days: flags.expiresInDays } : {}),
  };
  const key = (await ctx.api.call('rotateApiKey', { path: { key_id: keyId }, body })).body;
  if (ctx.json) printJson(key);
  else
    printText(
      [
        `Rotated key ${key.key_id} (${key.name}); the old secret ${grace === 0 ? 'no longer works' : `works until ${shortTime(key.grace_period_ends_at)}`}. New expiry ${shortTime(key.expires_at)}.`,
        ...secretLines(key.api_key),
      ].join('\n'),
    );
  return EXIT.ok;
}

async function disableKey(keyId: string, ctx: CommandContext): Promise<number> {
  const key = (await ctx.api.call('disableApiKey', { path: { key_id: keyId } })).body;
  if (ctx.json) printJson(key);
  else printText(`Key ${key.key_id} (${key.name}) is ${key.status}.`);
  return EXIT.ok;
}

const days = (v: string) => parsePositiveInt(v, '--expires-in-days');

/**
 * `--scope`, accepted but not shown: every command spells the option `--scopes` (the API's field,
 * `sis admin bootstrap --scopes`), and scripts written for the singular keep working.
 */
export const scopeAlias = () => new Option('--scope <scopes>').argParser(collectList).hideHelp();

export function addKeyCommands(program: Command): void {
  const keys = withExamples(program.command('keys').description('Manage API keys (needs an admin key)'), [
    'sis keys list',
    'sis keys create --name "SOC bot" --scopes investigations:read,investigations:write',
  ]);
  withExamples(
    keys
      .command('create')
      .description('Create an API key; its secret is printed once, to stdout')
      .requiredOption('--name <name>', 'key name')
      .option('--description <text>', 'what the key is for')
      .option('--scopes <scopes>', 'scope(s), comma-separated or repeated', collectList)
      .addOption(scopeAlias())
      .addOption(
        new Option('--role <role>', 'client, or admin for key management')
          .choices(['client', 'admin'])
          .default('client'),
      )
      .option('--expires-in-days <days>', 'days until the key expires (1-365; service default 90)', days),
    [
      'sis keys create --name "SOC bot" --scopes investigations:read --scopes investigations:write --expires-in-days 30',
    ],
  ).action((flags: CreateFlags, command: Command) => runWithContext(command, (ctx) => createKey(flags, ctx)));
  withExamples(
    keys
      .command('list')
      .description('List API keys (never their secrets)')
      .option('--search <text>', 'match name or description'),
    ['sis keys list --search bot'],
  ).action((flags: { search?: string }, command: Command) =>
    runWithContext(command, (ctx) => listKeys(flags.search, ctx)),
  );
  withExamples(
    keys
      .command('rotate')
      .description('Issue a new secret for a key; the new secret is printed once, to stdout')
      .argument('<key_id>')
      .option('--grace <duration>', 'keep the old secret working this long (e.g. 1h, 30m, 7d)')
      .option('--now', 'refuse the old secret from the next request')
      .option('--expires-in-days <days>', 'new lifetime in days (1-365)', days),
    ['sis keys rotate abcdefghij234567 --grace 1h', 'sis keys rotate abcdefghij234567 --now --json'],
  ).action((keyId: string, flags: RotateFlags, command: Command) => {
    const grace = graceSeconds(flags);
    return runWithContext(command, (ctx) => rotateKey(keyId, flags, grace, ctx));
  });
  withExamples(keys.command('disable').description('Disable a key at once').argument('<key_id>'), [
    'sis keys disable abcdefghij234567',
  ]).action((keyId: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => disableKey(keyId, ctx)),
  );
}
