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
  const head = text
    .replace(INCIDENT_ID, '')
    .replace(/[\s,]+\.?$/, '')
    .replace(/:\s*$/, ':');
  const rest = ids.filter((id) => !titles?.has(id));
  return [
    `  - ${head.endsWith(':') ? head : `${head}:`}`,
    ...known.map((id) => {
      const incident = titles?.get(id);
      return `      ${incident?.title} (${incident?.severity})`;
    }),
    ...(rest.length ? [`      and ${rest.length} more: ${rest.join(', ')}`] : []),
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

/** The incident IDs a report's recommendations name. */
export function incidentIdsIn(report: Report | null | undefined): string[] {
  return [...new Set((report?.recommendations ?? []).flatMap((r) => r.match(INCIDENT_ID) ?? []))];
}

export type HistoryEvent = Schemas['HistoryEvent'];

/** One line per tool event, as the incremental poll reports them. */
export function describeEvent(event: HistoryEvent): string {
  const detail = event.detail as Record<string, unknown>;
  const tool = String(detail.tool ?? '');
  const took = typeof detail.duration_ms === 'number' ? ` in ${detail.duration_ms} ms` : '';
  switch (event.type) {
    case 'tool_started':
      return `  started   ${tool}`;
    case 'tool_succeeded': {
      const findings = typeof detail.findings === 'number' ? `, ${detail.findings} finding(s)` : '';
      return `  finished  ${tool}${took}${findings}`;
    }
    case 'tool_failed':
      return `  failed    ${tool}${took}${detail.error ? `: ${detail.error}` : ''}`;
    case 'tool_timed_out':
      return `  timed out ${tool}${took}`;
    default:
      return `  ${event.type}${tool ? ` ${tool}` : ''}`;
  }
}
