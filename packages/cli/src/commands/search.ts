import { type Command, Option } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { printRows, shortTime } from '../output';
import { runWithContext } from './investigations';
import { limit } from './list-options';

type Schemas = components['schemas'];

async function search(
  query: string,
  flags: { status?: string; verdict?: string; limit?: number },
  ctx: CommandContext,
): Promise<number> {
  const answer = (
    await ctx.api.call('searchInvestigations', {
      query: {
        q: query,
        ...(flags.status ? { status: flags.status as Schemas['SessionStatus'] } : {}),
        ...(flags.verdict
          ? { verdict: flags.verdict as NonNullable<Schemas['SearchResult']['verdict']> }
          : {}),
        ...(flags.limit ? { limit: flags.limit } : {}),
      },
    })
  ).body;
  printRows(
    ctx.json,
    answer,
    ['CREATED', 'SESSION', 'STATUS', 'VERDICT', 'RISK', 'ENTITY', 'SUMMARY'],
    answer.results.map((r) => [
      shortTime(r.created_at),
      r.session_id,
      r.status,
      r.verdict ?? '-',
      r.risk_score === null ? '-' : String(r.risk_score),
      `${r.entity.type} ${r.entity.value}`,
      // The summary's headline: a table row is one line.
      (r.summary ?? '').split('\n')[0] ?? '',
    ]),
    'No investigations match.',
  );
  return EXIT.ok;
}

/** `sis search <query>`. */
export function addSearchCommand(program: Command): void {
  withExamples(
    program
      .command('search')
      .description('Search past investigations by entity, summary or finding text')
      .argument('<query>', 'words to look for')
      .addOption(
        new Option('--status <status>', 'session status').choices([
          'initialized',
          'active',
          'completed',
          'failed',
          'canceled',
        ]),
      )
      .addOption(
        new Option('--verdict <verdict>', 'report verdict').choices([
          'benign',
          'suspicious',
          'malicious',
          'unknown',
        ]),
      )
      .addOption(limit(100)),
    ['sis search paypa1', 'sis search 203.0.113.7 --verdict malicious --json'],
  ).action((query: string, flags: { status?: string; verdict?: string; limit?: number }, command: Command) =>
    runWithContext(command, (ctx) => search(query, flags, ctx)),
  );
}
