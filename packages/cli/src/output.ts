import type { components } from './generated/api';

/** Text rendering for people; --json prints the API's documents unchanged instead. */

type Schemas = components['schemas'];
export type Report = NonNullable<Schemas['InvestigationReportResponse']['report']>;

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printText(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Progress and notes for a person watching: stderr, so stdout stays the result. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

function clip(value: string, width: number): string {
  return value.length > width ? `${value.slice(0, Math.max(0, width - 1))}…` : value;
}

/** A plain table; the last column is not padded (and not clipped, so links stay whole). */
export function table(headers: string[], rows: string[][], maxWidth = 48): string {
  if (rows.length === 0) return '';
  const cells = rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : clip(cell, maxWidth))));
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

export function renderReport(
  head: { session_id: string; status: string; session_url?: string; failure_reason?: string },
  report: Report | null | undefined,
  entity?: { type: string; value: string },
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
    lines.push('', 'Summary:', `  ${report.summary}`);
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
      for (const recommendation of report.recommendations) lines.push(`  - ${recommendation}`);
    }
  } else if (head.status === 'initialized' || head.status === 'active') {
    lines.push('The report is not ready yet.');
  }
  if (head.session_url) lines.push('', `Session: ${head.session_url}`);
  return lines.join('\n');
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
