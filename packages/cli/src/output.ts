import type { components } from './generated/api';

/** Text rendering for people; --json prints the API's documents unchanged instead. */

type Schemas = components['schemas'];
export type Report = NonNullable<Schemas['InvestigationReportResponse']['report']>;

/**
 * Control characters (ESC starts terminal escape sequences: colours, cursor moves, window titles,
 * even clipboard writes) and invisible format characters (bidi overrides that reorder what is shown,
 * zero-width characters) except newline and tab. Report text, intelligence strings and incident
 * fields come from outside; none of it may drive the terminal or disguise itself.
 */
const UNSAFE = /(?![\n\t])[\p{Cc}\p{Cf}]/gu;

/** Text safe to show on a terminal: unsafe characters removed, line separators as newlines. */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(UNSAFE, '');
}

/**
 * The JSON document as is, with every control and format character escaped as `\uXXXX`: the same
 * values for a program reading it, nothing a terminal would act on for a person looking at it.
 */
export function printJson(value: unknown): void {
  const text = JSON.stringify(value, null, 2).replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (char) =>
    char === '\n' ? char : `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  process.stdout.write(`${text}\n`);
}

let pipeWatched = false;

/**
 * A reader that stops early (`sis sessions | head -3`) closes the pipe: the rest of the output has
 * nowhere to go, which is no error of the command's. Exit quietly then, as `ls | head` does, rather
 * than let Node print the EPIPE stack trace.
 */
export function quietOnClosedPipe(stream: NodeJS.WriteStream = process.stdout): void {
  if (pipeWatched && stream === process.stdout) return;
  if (stream === process.stdout) pipeWatched = true;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw error;
  });
}

export function printText(text: string): void {
  const safe = terminalSafe(text);
  process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

/** A list answer: the JSON document with `--json`, else its table, or `empty` when it has no row. */
export function printRows(
  json: boolean,
  answer: unknown,
  headers: string[],
  rows: string[][],
  empty: string,
): void {
  if (json) printJson(answer);
  else printText(table(headers, rows) || empty);
}

/** Progress and notes for a person watching: stderr, so stdout stays the result. */
export function note(line: string): void {
  process.stderr.write(`${terminalSafe(line)}\n`);
}

/** A table cell is one line: newlines and runs of spaces of multi-line text become one space. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

function clip(value: string, width: number): string {
  return value.length > width ? `${value.slice(0, Math.max(0, width - 1))}…` : value;
}

/** A plain table; the last column is not padded (and not clipped, so links stay whole). */
export function table(headers: string[], rows: string[][], maxWidth = 48): string {
  if (rows.length === 0) return '';
  const cells = rows.map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? oneLine(cell) : clip(oneLine(cell), maxWidth))),
  );
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((row) => (row[i] ?? '').length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n');
}

export const shortTime = (iso: string | null | undefined): string =>
  iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, 'Z') : '-';

/** Incident titles by ID, for recommendations that name incidents (IDs without a title stay IDs). */
export type IncidentTitles = ReadonlyMap<string, { title: string; severity: string }>;

const INCIDENT_ID = /\binc_[a-z2-7]{26}\b/g;

/** `asn`, `as_org`, `country`, `network_class` of the investigated entity, as people read them. */
function entityFacts(report: Report): string | undefined {
  const subject = report.entities.find((e) => e.role === 'investigated');
  const a = (subject?.attributes ?? {}) as Record<string, unknown>;
  const parts = [
    a.asn !== undefined ? `AS${a.asn}${a.as_org ? ` ${a.as_org}` : ''}` : a.as_org ? String(a.as_org) : '',
    a.country ? `country ${a.country}` : '',
    a.network_class ? `network ${String(a.network_class).replace(/_/g, ' ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}

/**
 * The summary, every line indented. The rules engine's summary lists the indicators that the
 * findings below list again with their scores: its "Indicators:" block is left out here.
 */
function summaryLines(summary: string, findingsListed: boolean): string[] {
  const lines = summary.split(/\r?\n/);
  const kept: string[] = [];
  let inIndicators = false;
  for (const line of lines) {
    if (findingsListed && /^Indicators:\s*$/.test(line)) {
      inIndicators = true;
      continue;
    }
    if (inIndicators && /^- \[/.test(line)) continue;
    inIndicators = false;
    if (line.trim()) kept.push(`  ${line.trim()}`);
  }
  return kept;
}

/** A recommendation with its incident IDs replaced by their titles, one per line below it. */
function recommendationLines(text: string, titles: IncidentTitles | undefined): string[] {
  const ids = text.match(INCIDENT_ID) ?? [];
  const known = ids.filter((id) => titles?.has(id));
  if (known.length === 0) return [`  - ${text}`];
  // The words before the first ID ("Review the linked incidents:"), then one incident a line; the
  // persona's own "and N more" (IDs it left out of the text) stays a line of its own.
  const head = text.slice(0, text.indexOf(ids[0]!)).trimEnd().replace(/:?$/, ':');
  const rest = ids.filter((id) => !titles?.has(id));
  const more = /\band (\d+) more\b/.exec(text.slice(text.lastIndexOf(ids.at(-1)!)))?.[1];
  return [
    `  - ${head}`,
    ...known.map((id) => {
      const incident = titles?.get(id);
      return `      ${incident?.title} (${incident?.severity})`;
    }),
    ...(rest.length ? [`      ${rest.join(', ')}`] : []),
    ...(more ? [`      and ${more} more`] : []),
  ];
}

export function renderReport(
  head: { session_id: string; status: string; session_url?: string; failure_reason?: string },
  report: Report | null | undefined,
  entity?: { type: string; value: string },
  incidentTitles?: IncidentTitles,
): string {
  const lines: string[] = [];
  const subject = entity ? ` of ${entity.type} ${entity.value}` : '';
  lines.push(`Investigation ${head.session_id}${subject}: ${head.status}`);
  if (head.failure_reason) lines.push(`Reason: ${head.failure_reason}`);
  if (report) {
    const explanation = report.score_explanation;
    const confidence = report.confidence ? `    Confidence: ${report.confidence}` : '';
    lines.push(
      `Verdict: ${report.verdict}    Risk: ${report.risk_score}/100${confidence}    Persona: ${report.persona}`,
    );
    if (explanation) lines.push(`Why: ${explanation.verdict_reason}`);
    const facts = entityFacts(report);
    if (facts) lines.push(`Entity: ${facts}`);
    lines.push('', 'Summary:', ...summaryLines(report.summary, true));
    lines.push('', `Findings (${report.findings.length}):`);
    if (report.findings.length === 0) lines.push('  none');
    const points = new Map(explanation?.contributions.map((c) => [c.finding_id, c.points]) ?? []);
    const findings = [...report.findings].sort((a, b) => b.score - a.score);
    for (const finding of findings) {
      const added = points.has(finding.finding_id) ? ` (+${points.get(finding.finding_id)} risk)` : '';
      const attack = finding.attack?.length ? ` [${finding.attack.map((t) => t.id).join(', ')}]` : '';
      lines.push(
        `  ${finding.severity.toUpperCase().padEnd(8)} ${String(finding.score).padStart(3)}  ${finding.title}${attack}${added}`,
      );
    }
    lines.push(...coverageLines(report));
    if (report.recommendations.length > 0) {
      lines.push('', 'Recommendations:');
      for (const recommendation of report.recommendations)
        lines.push(...recommendationLines(recommendation, incidentTitles));
    }
  } else if (head.status === 'initialized' || head.status === 'active') {
    lines.push('The report is not ready yet.');
  }
  if (head.session_url) lines.push('', `Session: ${head.session_url}`);
  return lines.join('\n');
}

type CoverageSource = NonNullable<Report['coverage']['sources']>[number];

const READING_WORDS: Record<NonNullable<CoverageSource['reading']>, string> = {
  malicious: 'malicious',
  suspicious: 'suspicious',
  benign: 'benign',
  no_opinion: 'no opinion',
};

/**
 * What the run consulted (each source with its reading) and what it did not: skipped and failed
 * sources with their reason, disabled ones counted with the command that says how to enable them.
 */
function coverageLines(report: Report): string[] {
  const sources = report.coverage.sources;
  if (!sources) return [];
  const of = (status: CoverageSource['status']) => sources.filter((s) => s.status === status);
  const lines = ['', `Sources (${of('consulted').length} of ${sources.length} consulted):`];
  for (const s of of('consulted')) {
    const caveat = s.reason ? ` (${s.reason})` : '';
    lines.push(`  consulted  ${s.name}: ${READING_WORDS[s.reading ?? 'no_opinion']}${caveat}`);
  }
  for (const s of [...of('failed'), ...of('skipped').filter((s) => s.kind !== 'built_in')]) {
    lines.push(`  ${s.status.padEnd(9)}  ${s.name}: ${s.reason ?? ''}`.trimEnd());
  }
  const disabled = of('disabled');
  const count = (kind: CoverageSource['kind'], word: string) => {
    const n = disabled.filter((s) => s.kind === kind).length;
    return n ? [`${n} ${word}${n === 1 ? '' : 's'}`] : [];
  };
  const parts = [
    ...count('feed', 'feed'),
    ...count('connector', 'connector'),
    ...count('analyst', 'analyst'),
  ];
  if (parts.length > 0) {
    lines.push(`  disabled   ${parts.join(', ')} (sis feeds list, sis connectors list: how to enable them)`);
  }
  return lines;
}

/** The incident IDs a report's recommendations name. */
export function incidentIdsIn(report: Report | null | undefined): string[] {
  return [...new Set((report?.recommendations ?? []).flatMap((r) => r.match(INCIDENT_ID) ?? []))];
}

export type HistoryEvent = Schemas['HistoryEvent'];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const label = (word: string) => `  ${word.padEnd(9)} `;

/**
 * The progress of a session as a person reads it, one line an event: what changed from what
 * ("status    initialized → active, 5 tools to run"), each tool with its name, the report's outcome,
 * the analyst's turns. The poll's events name only the new status, so the describer remembers the
 * last one; one describer follows one session.
 */
export function eventDescriber(): (event: HistoryEvent) => string {
  let status: string | undefined;
  return (event) => {
    if (event.type !== 'status_changed') return describeEvent(event);
    const detail = event.detail as Record<string, unknown>;
    const next = String(detail.status ?? 'unknown');
    const change = status && status !== next ? `${status} → ${next}` : next;
    status = next;
    const tools = Array.isArray(detail.tools) ? `, ${plural(detail.tools.length, 'tool')} to run` : '';
    const reason = typeof detail.reason === 'string' && detail.reason ? `: ${detail.reason}` : '';
    return `${label('status')}${change}${tools}${reason}`;
  };
}

/** One line per event, as the incremental poll reports them (status changes: see eventDescriber). */
export function describeEvent(event: HistoryEvent): string {
  const detail = event.detail as Record<string, unknown>;
  const tool = String(detail.tool ?? '');
  const took = typeof detail.duration_ms === 'number' ? ` in ${detail.duration_ms} ms` : '';
  switch (event.type) {
    case 'tool_started':
      return `${label('started')}${tool}`;
    case 'tool_succeeded': {
      const findings = typeof detail.findings === 'number' ? `, ${detail.findings} finding(s)` : '';
      return `${label('finished')}${tool}${took}${findings}`;
    }
    case 'tool_failed':
      return `${label('failed')}${tool}${took}${detail.error ? `: ${detail.error}` : ''}`;
    case 'tool_timed_out':
      return `${label('timed out')}${tool}${took}`;
    case 'tool_skipped':
      return `${label('skipped')}${tool}${detail.reason ? `: ${detail.reason}` : ''}`;
    case 'status_changed':
      return `${label('status')}${String(detail.status ?? 'unknown')}`;
    case 'report_ready':
      return `${label('report')}ready: verdict ${String(detail.verdict ?? '-')}, risk ${String(detail.risk_score ?? '-')}/100`;
    case 'analyst_turn':
      return `${label('analyst')}turn ${String(detail.turn ?? '?')} (${String(detail.input_tokens ?? 0)} tokens in, ${String(detail.output_tokens ?? 0)} out)`;
    case 'analyst_fallback':
      return `${label('analyst')}fell back to the rules engine: ${String(detail.reason ?? 'no reason given').replace(/_/g, ' ')}`;
    default:
      // An event this CLI does not know yet: its name in words, and the tool it concerns.
      return `${label('event')}${event.type.replace(/_/g, ' ')}${tool ? ` ${tool}` : ''}`;
  }
}
