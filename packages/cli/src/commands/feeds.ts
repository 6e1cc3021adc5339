import type { Command } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { note, printRows, printText, shortTime } from '../output';
import { runWithContext } from './investigations';

type Schemas = components['schemas'];
type FeedName = Schemas['FeedSummary']['name'];

function printFeeds(answer: Schemas['ListFeedsResponse'], ctx: CommandContext): void {
  printRows(
    ctx.json,
    answer,
    ['FEED', 'ENABLED', 'STATUS', 'INDICATORS', 'REFRESHED', 'ERROR'],
    answer.feeds.map((f) => [
      f.name,
      f.enabled ? 'yes' : 'no',
      f.status,
      String(f.indicator_count),
      f.last_refreshed_at ? shortTime(f.last_refreshed_at) : '-',
      f.error ?? '',
    ]),
    'No feeds.',
  );
  const disabled = answer.feeds.filter((f) => !f.enabled);
  if (!ctx.json && disabled.length > 0 && disabled[0]?.how_to_enable) {
    printText(
      `\n${disabled.length} feed(s) disabled. ${disabled[0].how_to_enable.replace(disabled[0].name, '<NAME>')}`,
    );
  }
}

/** What a refresh with no feed enabled says (on stderr: the table stays the output). */
export const NOTHING_TO_REFRESH =
  'No feed is enabled, so nothing was refreshed. Enable one with SIS_FEED_<NAME>_ENABLED=true (locally SIS_PUBLIC_SOURCES=on enables every keyless feed), or -c feeds=<NAMES> on AWS.';

async function listFeeds(ctx: CommandContext): Promise<number> {
  printFeeds((await ctx.api.call('listFeeds', {})).body, ctx);
  return EXIT.ok;
}

async function refreshFeeds(names: string[], ctx: CommandContext): Promise<number> {
  const body = names.length ? { names: names.map((n) => n.toUpperCase() as FeedName) } : {};
  const answer = (await ctx.api.call('refreshFeeds', { body })).body;
  printFeeds(answer, ctx);
  if (!body.names && !answer.feeds.some((f) => f.enabled)) note(NOTHING_TO_REFRESH);
  // A refresh that left a requested (or any enabled) feed in error exits non-zero, for scripts.
  const wanted = new Set(body.names ?? answer.feeds.filter((f) => f.enabled).map((f) => f.name));
  return answer.feeds.some((f) => wanted.has(f.name) && f.status === 'error') ? EXIT.error : EXIT.ok;
}

export function addFeedCommands(program: Command): void {
  const feeds = withExamples(
    program.command('feeds').description('Public threat feeds matched inside the tenant (admin key)'),
    ['sis feeds list', 'sis feeds refresh FEODO TOR_EXITS'],
  );
  withExamples(
    feeds.command('list').description('Each feed: enabled, status, indicators, last refresh, error'),
    ['sis feeds list', 'sis feeds list --json'],
  ).action((_flags: unknown, command: Command) => runWithContext(command, (ctx) => listFeeds(ctx)));
  withExamples(
    feeds
      .command('refresh')
      .description('Download feeds now (default: every enabled feed); exits 1 when one is left in error')
      .argument('[names...]', 'feed names, e.g. FEODO SPAMHAUS_DROP'),
    ['sis feeds refresh', 'sis feeds refresh TRANCO --json'],
  ).action((names: string[], _flags: unknown, command: Command) =>
    runWithContext(command, (ctx) => refreshFeeds(names, ctx)),
  );
}
