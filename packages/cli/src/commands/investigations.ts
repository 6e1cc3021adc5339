import { type Command, Option } from 'commander';
import { type ApiClient, ApiError, type SuccessBody } from '../api';
import { type CommandContext, commandContext, withExamples } from '../context';
import { parsePositiveInt } from '../durations';
import { CliError, EXIT, UsageError } from '../errors';
import type { components } from '../generated/api';
import {
  eventDescriber,
  type IncidentTitles,
  incidentIdsIn,
  note,
  printJson,
  printText,
  type Report,
  renderReport,
  shortTime,
  table,
} from '../output';
import { investigateBatch } from './investigate-batch';
import { addSessionsListCommand } from './sessions-list';

type Schemas = components['schemas'];
type History = Schemas['SessionHistoryResponse'];
type StartResult = SuccessBody<'startInvestigation', 200>;
type Accepted = SuccessBody<'startInvestigation', 202>;
type StartBody = Schemas['StartInvestigationRequest'];

/** The specification's limit for a synchronous investigation. */
export const SYNC_LIMIT_SECONDS = 1860;
const TERMINAL = new Set(['completed', 'failed', 'canceled']);
const ENTITY_TYPES = ['ip', 'user', 'host', 'domain'];
const TLP_LEVELS = ['clear', 'green', 'amber', 'amber+strict', 'red'] as const satisfies readonly NonNullable<
  StartBody['tlp']
>[];

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));
const remaining = (deadline: number) => Math.max(1000, deadline - Date.now());
const endedExit = (status: string) => (status === 'completed' ? EXIT.ok : EXIT.investigationEnded);

/** Tells how to pick the session up again when the user stops following it. */
function onInterrupt(sessionId: string): () => void {
  const handler = () => {
    note(`Stopped following; the investigation goes on. Resume with: sis sessions watch ${sessionId}`);
    process.exit(130);
  };
  process.once('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/**
 * Follows a session with the incremental poll (?after=next_cursor) until it ends, handing each new
 * event to onEvent; returns the whole history as one document of the getSessionHistory shape.
 */
export async function followSession(
  api: ApiClient,
  sessionId: string,
  deadline: number,
  onEvent?: (event: Schemas['HistoryEvent']) => void,
): Promise<History> {
  let after: string | undefined;
  let interval = 250;
  let whole: History | undefined;
  for (;;) {
    let page: History;
    try {
      page = (
        await api.call('getSessionHistory', {
          path: { session_id: sessionId },
          ...(after ? { query: { after } } : {}),
        })
      ).body;
    } catch (error) {
      // A busy service is no reason to abandon the wait: back off as it asks.
      if (
        error instanceof ApiError &&
        (error.status === 429 || error.status === 503) &&
        Date.now() < deadline
      ) {
        await sleep((error.retryAfterSeconds ?? 2) * 1000);
        continue;
      }
      throw error;
    }
    whole = whole
      ? {
          ...page,
          messages: [...whole.messages, ...page.messages],
          events: [...whole.events, ...page.events],
          tool_calls: [...whole.tool_calls, ...page.tool_calls],
          next_cursor: page.next_cursor ?? whole.next_cursor,
        }
      : page;
    for (const event of page.events) onEvent?.(event);
    if (page.next_cursor) after = page.next_cursor;
    if (page.has_more) continue;
    if (TERMINAL.has(page.session.status)) return whole;
    if (Date.now() + interval > deadline) {
      throw new CliError(
        `Session ${sessionId} is still ${page.session.status} after the wait limit; follow it with: sis sessions watch ${sessionId}`,
      );
    }
    await sleep(interval);
    interval = Math.min(Math.round(interval * 1.5), 3000);
  }
}

/**
 * Titles of the incidents a report's recommendations name, from the incidents list (newest first, at
 * most 3 pages). Best effort: a key without incidents:read, or an older incident, keeps its ID.
 */
async function incidentTitles(api: ApiClient, report: Report | null | undefined): Promise<IncidentTitles> {
  const wanted = new Set(incidentIdsIn(report));
  const titles = new Map<string, { title: string; severity: string }>();
  let cursor: string | undefined;
  try {
    for (let page = 0; page < 3 && titles.size < wanted.size; page++) {
      const answer = (
        await api.call('listIncidents', { query: { limit: 100, ...(cursor ? { cursor } : {}) } })
      ).body;
      for (const incident of answer.incidents) {
        if (wanted.has(incident.incident_id)) titles.set(incident.incident_id, incident);
      }
      cursor = answer.next_cursor ?? undefined;
      if (!cursor) break;
    }
  } catch {
    // IDs stay IDs.
  }
  return titles;
}

interface InvestigateFlags {
  type?: string;
  persona?: string;
  tlp?: string;
  background?: boolean;
  wait: boolean;
  progress?: boolean;
  timeout: number;
}

async function investigate(entity: string, flags: InvestigateFlags, ctx: CommandContext): Promise<number> {
  const { api, json } = ctx;
  const progress = flags.progress ?? (Boolean(process.stderr.isTTY) && !json);
  const deadline = Date.now() + flags.timeout * 1000;
  const body: StartBody = {
    entity: flags.type ? { type: flags.type as Schemas['EntityType'], value: entity } : entity,
    // Tool progress is only visible while polling: with progress on, the CLI starts in the background
    // and follows the session (the printed result is the same document either way).
    background: Boolean(flags.background) || !flags.wait || progress,
    ...(flags.persona ? { persona: flags.persona } : {}),
    ...(flags.tlp ? { tlp: flags.tlp as StartBody['tlp'] } : {}),
  };
  if (progress && !body.background) note(`Investigating ${entity}; waiting for the result…`);
  const started = await api.call('startInvestigation', { body, timeoutMs: remaining(deadline) });

  let result: StartResult;
  if (started.status === 200) {
    result = started.body as StartResult;
  } else {
    const accepted = started.body as Accepted;
    if (!flags.wait) {
      if (json) printJson(accepted);
      else
        printText(
          [
            `Investigation ${accepted.session_id} started (${accepted.status}).`,
            `Session: ${accepted.session_url}`,
            `Follow it with: sis sessions watch ${accepted.session_id}`,
          ].join('\n'),
        );
      return EXIT.ok;
    }
    if (progress)
      note(`Running as ${accepted.session_id}; following its progress (Ctrl-C stops following only).`);
    const stopHandling = onInterrupt(accepted.session_id);
    const describe = eventDescriber();
    try {
      await followSession(
        api,
        accepted.session_id,
        deadline,
        progress ? (e) => note(describe(e)) : undefined,
      );
    } finally {
      stopHandling();
    }
    const report = (await api.call('getInvestigationReport', { path: { session_id: accepted.session_id } }))
      .body;
    // The same document a synchronous start answers with, so scripts see one shape either way.
    result = {
      session_id: accepted.session_id,
      run_id: accepted.run_id,
      session_url: accepted.session_url,
      status: report.status,
      report: report.report,
      ...(report.failure_reason ? { failure_reason: report.failure_reason } : {}),
    };
  }
  if (json) printJson(result);
  else printText(renderReport(result, result.report, undefined, await incidentTitles(api, result.report)));
  return endedExit(result.status);
}

type Starter = NonNullable<History['session']['started_by']>;

/** "SOAR playbook (API key k_…)" or "alice (person)"; a name not recorded says so. */
function starterLabel(starter: Starter): string {
  if (starter.kind === 'api_key') return `${starter.name ?? 'name not recorded'} (API key ${starter.key_id})`;
  return `${starter.name ?? 'name not recorded'} (person)`;
}

async function showSession(sessionId: string, ctx: CommandContext): Promise<number> {
  const history = (await ctx.api.call('getSessionHistory', { path: { session_id: sessionId } })).body;
  if (ctx.json) {
    printJson(history);
    return EXIT.ok;
  }
  const s = history.session;
  const lines = [
    `Session ${s.session_id}: ${s.status}`,
    `Entity: ${s.entity.type} ${s.entity.value}    Persona: ${s.persona}`,
    `Created: ${shortTime(s.created_at)}    Updated: ${shortTime(s.updated_at)}${s.completed_at ? `    Completed: ${shortTime(s.completed_at)}` : ''}`,
  ];
  if (s.started_by) lines.push(`Started by: ${starterLabel(s.started_by)}`);
  if (s.verdict !== undefined) lines.push(`Verdict: ${s.verdict}    Risk: ${s.risk_score ?? '-'}/100`);
  if (s.failure_reason) lines.push(`Reason: ${s.failure_reason}`);
  lines.push('', `Tool calls (${history.tool_calls.length}):`);
  const calls = table(
    ['TOOL', 'STATUS', 'MS', 'STARTED'],
    history.tool_calls.map((c) => [c.name, c.status, String(c.duration_ms), shortTime(c.started_at)]),
  );
  lines.push(calls ? calls.replace(/^/gm, '  ') : '  none yet');
  printText(lines.join('\n'));
  return EXIT.ok;
}

async function watchSession(sessionId: string, timeout: number, ctx: CommandContext): Promise<number> {
  const stopHandling = onInterrupt(sessionId);
  const describe = eventDescriber();
  let history: History;
  try {
    history = await followSession(
      ctx.api,
      sessionId,
      Date.now() + timeout * 1000,
      ctx.json ? undefined : (e) => printText(`${shortTime(e.created_at)} ${describe(e).trim()}`),
    );
  } finally {
    stopHandling();
  }
  if (ctx.json) printJson(history);
  else {
    const s = history.session;
    const outcome =
      s.status === 'completed' ? ` (verdict ${s.verdict ?? '-'}, risk ${s.risk_score ?? '-'}/100)` : '';
    printText(
      `Session ${sessionId} ${s.status}${outcome}${s.failure_reason ? `: ${s.failure_reason}` : ''}.`,
    );
    if (s.status === 'completed') printText(`Report: sis sessions report ${sessionId}`);
  }
  return endedExit(history.session.status);
}

async function cancelSession(sessionId: string, ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('cancelInvestigation', { path: { session_id: sessionId } })).body;
  if (ctx.json) printJson(answer);
  else printText(`Session ${answer.session_id} is ${answer.status}.`);
  return EXIT.ok;
}

async function sessionReport(sessionId: string, ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('getInvestigationReport', { path: { session_id: sessionId } })).body;
  if (ctx.json) printJson(answer);
  else
    printText(
      renderReport(answer, answer.report, answer.entity, await incidentTitles(ctx.api, answer.report)),
    );
  return answer.status === 'failed' || answer.status === 'canceled' ? EXIT.investigationEnded : EXIT.ok;
}

type Run = (command: Command, work: (ctx: CommandContext) => Promise<number>) => Promise<void>;

export const runWithContext: Run = async (command, work) => {
  process.exitCode = await work(await commandContext(command));
};

const timeoutOption = () =>
  new Option('--timeout <seconds>', 'give up waiting after this many seconds')
    .default(SYNC_LIMIT_SECONDS)
    .argParser((v) => parsePositiveInt(v, '--timeout'));

export function addInvestigationCommands(program: Command): void {
  withExamples(
    program
      .command('investigate')
      .description(
        'Investigate an IP address, user, host or domain and print the report (summary, verdict, risk, findings, session URL). Waits like a synchronous client (up to 1860 s): when the service hands back 202 it polls the session, showing tool progress on a terminal.',
      )
      .argument(
        '[entity]',
        'the value to investigate, e.g. 203.0.113.7, alice@corp.example, paypa1-login.com',
      )
      .option('--batch <file>', 'start a batch: one entity a line (value or type:value), up to 100')
      .addOption(
        new Option('--type <type>', 'entity type (inferred from the value when omitted)').choices(
          ENTITY_TYPES,
        ),
      )
      .option('--persona <name>', 'who the report is written for, e.g. "SOC Analyst", ciso, hunter')
      .addOption(new Option('--tlp <level>', 'TLP of the request (default amber)').choices(TLP_LEVELS))
      .option('--background', 'start in the background and follow the session by polling from the start')
      .option('--no-wait', 'start in the background, print the session ID and URL, and return at once')
      .option('--progress', 'show tool progress on stderr even when it is not a terminal')
      .option('--no-progress', 'never show tool progress')
      .addOption(timeoutOption()),
    [
      'sis investigate 203.0.113.7',
      'sis investigate alice --type user --persona ciso',
      'sis investigate paypa1-login.com --no-wait --json',
      'sis investigate --batch entities.txt --json',
    ],
  ).action((entity: string | undefined, flags: InvestigateFlags & { batch?: string }, command: Command) => {
    // Usage first: a missing or blank entity is refused before any profile or key is looked up.
    if (flags.batch !== undefined) {
      if (entity !== undefined) throw new UsageError('Give an entity or --batch FILE, not both.');
      const file = flags.batch;
      return runWithContext(command, (ctx) => investigateBatch(file, flags, ctx));
    }
    if (entity === undefined || entity.trim() === '') {
      throw new UsageError(
        'Give the entity to investigate (an IP address, user, host or domain, e.g. sis investigate 203.0.113.7), or --batch FILE.',
      );
    }
    return runWithContext(command, (ctx) => investigate(entity, flags, ctx));
  });

  const sessions = withExamples(
    program.command('sessions').description('List, show, follow, cancel and read investigation sessions'),
    [
      'sis sessions list --since 24h',
      'sis sessions watch s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
      'sis sessions report s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF --json',
    ],
  );
  addSessionsListCommand(sessions, runWithContext);
  withExamples(
    sessions
      .command('show')
      .description("Show a session's status, tool calls and timing")
      .argument('<session_id>'),
    ['sis sessions show s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF'],
  ).action((id: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => showSession(id, ctx)),
  );
  withExamples(
    sessions
      .command('watch')
      .description(
        'Follow a session (incremental polling with ?after=) until it completes, fails or is canceled',
      )
      .argument('<session_id>')
      .addOption(timeoutOption()),
    ['sis sessions watch s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF'],
  ).action((id: string, flags: { timeout: number }, command: Command) =>
    runWithContext(command, (ctx) => watchSession(id, flags.timeout, ctx)),
  );
  withExamples(
    sessions.command('cancel').description('Cancel a running investigation').argument('<session_id>'),
    ['sis sessions cancel s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF'],
  ).action((id: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => cancelSession(id, ctx)),
  );
  withExamples(
    sessions
      .command('report')
      .description("Print a session's report: summary, verdict, risk, findings, recommendations")
      .argument('<session_id>'),
    [
      'sis sessions report s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
      'sis sessions report s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF --json | jq .report.verdict',
    ],
  ).action((id: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => sessionReport(id, ctx)),
  );
}
