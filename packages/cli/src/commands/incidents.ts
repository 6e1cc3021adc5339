import type { Command } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { sinceToTime } from '../durations';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { note, printJson, printText, shortTime, table } from '../output';
import { runWithContext } from './investigations';
import { limit } from './list-options';

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

/** `sis incidents list`. */
export function addIncidentsCommands(program: Command): void {
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
}
