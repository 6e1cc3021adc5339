import { type Command, InvalidArgumentError, Option } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { parsePositiveInt, sinceToTime } from '../durations';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { note, printJson, printRows, printText, shortTime, table } from '../output';
import { runWithContext } from './investigations';

type Schemas = components['schemas'];

interface IncidentFlags {
  severity?: string;
  status?: string;
  since?: string;
  until?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
}

async function listIncidents(flags: IncidentFlags, ctx: CommandContext): Promise<number> {
  const query = {
    ...(flags.severity ? { severity: flags.severity } : {}),
    ...(flags.status ? { status: flags.status } : {}),
    ...(flags.since ? { since: sinceToTime(flags.since) } : {}),
    ...(flags.until ? { until: sinceToTime(flags.until) } : {}),
    ...(flags.limit ? { limit: flags.limit } : {}),
  };
  const incidents: Schemas['IncidentSummary'][] = [];
  let cursor = flags.cursor;
  let page: Schemas['ListIncidentsResponse'];
  do {
    page = (await ctx.api.call('listIncidents', { query: { ...query, ...(cursor ? { cursor } : {}) } })).body;
    incidents.push(...page.incidents);
    cursor = page.next_cursor ?? undefined;
  } while (flags.all && cursor);
  const answer: Schemas['ListIncidentsResponse'] = { ...page, incidents, next_cursor: page.next_cursor };
  if (ctx.json) printJson(answer);
  else {
    printText(
      table(
        ['CREATED', 'SEVERITY', 'STATUS', 'INCIDENT', 'SOURCE', 'TITLE'],
        incidents.map((i) => [
          shortTime(i.created_at),
          i.severity,
          i.status,
          i.incident_id,
          i.source,
          i.title,
        ]),
      ) || 'No incidents match.',
    );
    if (answer.next_cursor) note(`More incidents: add --all, or --cursor ${answer.next_cursor}`);
  }
  return EXIT.ok;
}

async function showGraph(
  value: string,
  flags: { type?: string; depth?: number; limit?: number },
  ctx: CommandContext,
): Promise<number> {
  const answer = (
    await ctx.api.call('queryKnowledgeGraph', {
      path: { value },
      query: {
        ...(flags.type ? { type: flags.type as Schemas['EntityType'] } : {}),
        ...(flags.depth ? { depth: flags.depth } : {}),
        ...(flags.limit ? { limit: flags.limit } : {}),
      },
    })
  ).body;
  if (ctx.json) printJson(answer);
  else {
    const e = answer.entity;
    printText(
      [
        `${e.type} ${e.value}: ${e.investigation_count} investigation(s), ${e.incident_count} incident(s)${e.risk_score !== undefined ? `, risk ${e.risk_score}/100` : ''}; seen ${shortTime(e.first_seen)} to ${shortTime(e.last_seen)}`,
        '',
        table(
          ['TYPE', 'VALUE', 'RELATIONSHIP', 'DIR', 'COUNT', 'DEPTH', 'LAST SEEN'],
          answer.neighbors.map((n) => [
            n.type,
            n.value,
            n.relationship,
            n.direction ?? '-',
            String(n.count),
            String(n.depth),
            shortTime(n.last_seen),
          ]),
        ) || 'No related entities.',
      ].join('\n'),
    );
  }
  return EXIT.ok;
}

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

const limit = (max: number) =>
  new Option('--limit <n>', `at most this many per page (1-${max})`).argParser((v) =>
    parsePositiveInt(v, '--limit'),
  );

export function addKnowledgeCommands(program: Command): void {
  const incidents = withExamples(program.command('incidents').description('Incidents synced from SIEMs'), [
    'sis incidents list --severity high,critical --since 24h',
  ]);
  withExamples(
    incidents
      .command('list')
      .description('List incidents, newest first; --all follows the cursors to the end')
      .option('--severity <list>', 'comma-separated: informational, low, medium, high, critical')
      .option('--status <list>', 'comma-separated: new, active, resolved, closed')
      .option('--since <when>', 'created at or after: a duration back from now (24h, 7d) or ISO 8601')
      .option('--until <when>', 'created before: a duration back from now or ISO 8601')
      .addOption(limit(100))
      .option('--cursor <cursor>', 'continue from a previous page')
      .option('--all', 'follow next_cursor until every matching incident is listed'),
    [
      'sis incidents list --severity high,critical --since 24h',
      'sis incidents list --status new --all --json',
    ],
  ).action((flags: IncidentFlags, command: Command) =>
    runWithContext(command, (ctx) => listIncidents(flags, ctx)),
  );

  withExamples(
    program
      .command('graph')
      .description('Entities related to a value in the knowledge graph')
      .argument('<value>', 'an IP address, user, host or domain')
      .addOption(
        new Option('--type <type>', 'entity type (inferred when omitted)').choices([
          'ip',
          'user',
          'host',
          'domain',
        ]),
      )
      .addOption(
        new Option('--depth <n>', 'hops to follow: 1 or 2').argParser((v) => {
          if (v !== '1' && v !== '2') throw new InvalidArgumentError('Allowed choices are 1, 2.');
          return Number(v);
        }),
      )
      .addOption(limit(100)),
    ['sis graph 203.0.113.7', 'sis graph alice --type user --depth 2 --json'],
  ).action((value: string, flags: { type?: string; depth?: number; limit?: number }, command: Command) =>
    runWithContext(command, (ctx) => showGraph(value, flags, ctx)),
  );

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
