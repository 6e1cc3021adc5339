import { type Command, Option } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { parsePositiveInt, sinceToTime } from '../durations';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { printJson, printText, shortTime, table } from '../output';

type Schemas = components['schemas'];
type Page = Schemas['ListSessionsResponse'];

interface ListFlags {
  status?: string;
  verdict?: string;
  entity?: string;
  since?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
}

const STATUSES = ['initialized', 'active', 'completed', 'failed', 'canceled'];
const VERDICTS = ['benign', 'suspicious', 'malicious', 'unknown'];

/** `sis sessions list`: the caller's own sessions, newest first (listSessions); --all follows the cursors. */
async function listSessions(flags: ListFlags, ctx: CommandContext): Promise<number> {
  const query = {
    ...(flags.status ? { status: flags.status as Schemas['SessionStatus'] } : {}),
    ...(flags.verdict ? { verdict: flags.verdict as Schemas['Verdict'] } : {}),
    ...(flags.entity ? { entity: flags.entity } : {}),
    ...(flags.since ? { since: sinceToTime(flags.since) } : {}),
    ...(flags.limit ? { limit: flags.limit } : {}),
  };
  const sessions: Page['sessions'] = [];
  let cursor = flags.cursor;
  let page: Page;
  do {
    page = (await ctx.api.call('listSessions', { query: { ...query, ...(cursor ? { cursor } : {}) } })).body;
    sessions.push(...page.sessions);
    cursor = page.next_cursor ?? undefined;
  } while (flags.all && cursor);
  if (ctx.json) {
    printJson({ sessions, next_cursor: page.next_cursor });
    return EXIT.ok;
  }
  printText(
    table(
      ['CREATED', 'SESSION', 'STATUS', 'VERDICT', 'RISK', 'ENTITY', 'SUMMARY'],
      sessions.map((s) => [
        shortTime(s.created_at),
        s.session_id,
        s.status,
        s.verdict ?? '-',
        s.risk_score === null ? '-' : String(s.risk_score),
        `${s.entity.type} ${s.entity.value}`,
        (s.summary ?? '').split('\n')[0] ?? '',
      ]),
    ) || 'No sessions match.',
  );
  if (page.next_cursor && !flags.all) printText(`More: --cursor ${page.next_cursor} (or --all)`);
  return EXIT.ok;
}

export function addSessionsListCommand(
  sessions: Command,
  run: (command: Command, work: (ctx: CommandContext) => Promise<number>) => Promise<void>,
): void {
  withExamples(
    sessions
      .command('list', { isDefault: true })
      .description("List this key's investigation sessions, newest first (the default of `sis sessions`)")
      .addOption(new Option('--status <status>', 'only sessions in this status').choices(STATUSES))
      .addOption(new Option('--verdict <verdict>', 'only sessions with this verdict').choices(VERDICTS))
      .option('--entity <value>', 'only sessions of or naming this IP, user, domain (or words)')
      .option('--since <when>', 'started at or after: a duration back from now (24h, 7d) or ISO 8601')
      .addOption(
        new Option('--limit <n>', 'at most this many per page (1-100)').argParser((v) =>
          parsePositiveInt(v, '--limit'),
        ),
      )
      .option('--cursor <cursor>', 'continue from a previous page')
      .option('--all', 'follow next_cursor until every matching session is listed'),
    [
      'sis sessions list',
      'sis sessions list --status completed --verdict malicious --since 7d',
      'sis sessions list --entity 203.0.113.66 --all --json',
    ],
  ).action((flags: ListFlags, command: Command) => run(command, (ctx) => listSessions(flags, ctx)));
}
