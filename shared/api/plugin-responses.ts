/**
 * Responses sized for assistants. An assistant platform puts a skill's answer into a model's context,
 * where every kilobyte costs and an oversized answer may be cut off mid-JSON by the platform. The
 * five skill routes therefore answer within fixed caps (docs/plugin.md) and say so with
 * `truncated: true` when something was left out; the full detail stays reachable (a narrower page,
 * the poll's history). Pure functions over plain response bodies: no I/O, input never mutated.
 */

export const PLUGIN_LIMITS = {
  /** Serialized UTF-8 JSON of one skill response. */
  maxResponseBytes: 64 * 1024,
  /** report.summary */
  summaryChars: 2_000,
  /** report.findings (strongest first, so the weakest go) */
  findings: 20,
  /** A finding's description or impact */
  findingTextChars: 1_000,
  /** report.entities (the investigated entity first) */
  reportEntities: 50,
  /** report.recommendations */
  recommendations: 10,
  /** IDs or values listed as evidence of a finding, an entity or a graph neighbor */
  evidence: 10,
  /** Knowledge-graph neighbors (depth 1 before depth 2, so depth 2 goes first) */
  neighbors: 100,
  /** Entities listed per incident */
  incidentEntities: 10,
  /** Title of each listed incident */
  incidentTitleChars: 300,
  /** Summary of each search result (the report route has the whole summary) */
  searchSummaryChars: 300,
} as const;

type Json = Record<string, unknown>;
export type Compacted<T> = T & { truncated?: true };

const ELLIPSIS = '…';

/** Records whether anything was cut while the caps are applied. */
class Cutter {
  cut = false;

  text(value: unknown, max: number): unknown {
    if (typeof value !== 'string' || value.length <= max) return value;
    this.cut = true;
    return `${value.slice(0, max - 1)}${ELLIPSIS}`;
  }

  list<T>(value: T[] | undefined, max: number): T[] | undefined {
    if (!Array.isArray(value) || value.length <= max) return value;
    this.cut = true;
    return value.slice(0, max);
  }
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function compactReportInPlace(report: Json | null | undefined, cutter: Cutter): void {
  if (!report || typeof report !== 'object') return;
  report.summary = cutter.text(report.summary, PLUGIN_LIMITS.summaryChars);
  const findings = cutter.list(report.findings as Json[] | undefined, PLUGIN_LIMITS.findings);
  if (findings) {
    report.findings = findings.map((finding) => ({
      ...finding,
      description: cutter.text(finding.description, PLUGIN_LIMITS.findingTextChars),
      impact: cutter.text(finding.impact, PLUGIN_LIMITS.findingTextChars),
      ...(Array.isArray(finding.evidence)
        ? { evidence: cutter.list(finding.evidence as unknown[], PLUGIN_LIMITS.evidence) }
        : {}),
    }));
  }
  const entities = listWithEvidence(cutter, report.entities, PLUGIN_LIMITS.reportEntities);
  if (entities) report.entities = entities;
  if (Array.isArray(report.recommendations)) {
    report.recommendations = cutter.list(report.recommendations as unknown[], PLUGIN_LIMITS.recommendations);
  }
}

/** Report entities and graph neighbours: the list cut to its limit, and each item's evidence to its own. */
function listWithEvidence(cutter: Cutter, items: unknown, limit: number): Json[] | undefined {
  const kept = cutter.list(items as Json[] | undefined, limit);
  return kept?.map((item) =>
    Array.isArray(item.evidence)
      ? { ...item, evidence: cutter.list(item.evidence as unknown[], PLUGIN_LIMITS.evidence) }
      : item,
  );
}

/** Keys whose text a reader can do without the end of; identifiers, URLs and cursors are never cut. */
const CUTTABLE_TEXT = new Set(['summary', 'description', 'impact', 'title', 'content', 'message', 'error']);

interface Candidate {
  parent: Json | unknown[];
  key: string | number;
  bytes: number;
  kind: 'array' | 'text' | 'facts';
}

function largestCandidate(root: unknown): Candidate | undefined {
  let best: Candidate | undefined;
  const consider = (candidate: Candidate) => {
    if (!best || candidate.bytes > best.bytes) best = candidate;
  };
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        if (Array.isArray(item) && item.length > 1)
          consider({ parent: node, key: i, bytes: jsonBytes(item), kind: 'array' });
        visit(item);
      });
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (Array.isArray(value) && value.length > 1) {
          consider({ parent: node as Json, key, bytes: jsonBytes(value), kind: 'array' });
        } else if (typeof value === 'string' && value.length > 64 && CUTTABLE_TEXT.has(key)) {
          consider({ parent: node as Json, key, bytes: jsonBytes(value), kind: 'text' });
        } else if (key === 'facts' && value && typeof value === 'object' && Object.keys(value).length > 0) {
          // A tool's raw facts: the findings already say what they meant.
          consider({ parent: node as Json, key, bytes: jsonBytes(value), kind: 'facts' });
        }
        visit(value);
      }
    }
  };
  visit(root);
  return best;
}

/**
 * The backstop behind the per-field caps: while the body is over the byte budget, halve the largest
 * list, shorten the largest free text or empty the largest raw-facts object. Lists keep their head
 * (every list here is ordered most relevant first).
 */
function fitToBudget(body: Json, maxBytes: number): boolean {
  let cut = false;
  for (let size = jsonBytes(body); size > maxBytes; size = jsonBytes(body)) {
    const target = largestCandidate(body);
    if (!target) break;
    const container = target.parent as Record<string | number, unknown>;
    const value = container[target.key];
    if (target.kind === 'array') {
      const list = value as unknown[];
      container[target.key] = list.slice(0, Math.floor(list.length / 2));
    } else if (target.kind === 'text') {
      const text = value as string;
      container[target.key] = `${text.slice(0, Math.max(32, Math.floor(text.length / 2)))}${ELLIPSIS}`;
    } else {
      container[target.key] = {};
    }
    cut = true;
  }
  return cut;
}

function finish<T extends object>(body: Json, cutter: Cutter): Compacted<T> {
  const overBudget = fitToBudget(body, PLUGIN_LIMITS.maxResponseBytes);
  if (cutter.cut || overBudget) body.truncated = true;
  return body as Compacted<T>;
}

/** startInvestigation: the synchronous result (report, and tool_calls/raw_results when asked for). */
export function compactInvestigationResult<T extends object>(body: T): Compacted<T> {
  const copy = structuredClone(body) as Json;
  const cutter = new Cutter();
  compactReportInPlace(copy.report as Json | null, cutter);
  return finish<T>(copy, cutter);
}

/** getInvestigationReport */
export const compactInvestigationReport = compactInvestigationResult;

/** queryKnowledgeGraph */
export function compactGraphNeighborhood<T extends object>(body: T): Compacted<T> {
  const copy = structuredClone(body) as Json;
  const cutter = new Cutter();
  const neighbors = listWithEvidence(cutter, copy.neighbors, PLUGIN_LIMITS.neighbors);
  if (neighbors) copy.neighbors = neighbors;
  return finish<T>(copy, cutter);
}

/**
 * listIncidents. A full page of SIEM incidents can pass the byte budget on source_url alone (a
 * Sentinel portal link is ~300 characters); those go before any incident does, since `link` leads
 * to the incident in this service, and dropping incidents would leave a gap before next_cursor.
 */
export function compactIncidentList<T extends object>(body: T): Compacted<T> {
  const copy = structuredClone(body) as Json;
  const cutter = new Cutter();
  if (Array.isArray(copy.incidents)) {
    const incidents = (copy.incidents as Json[]).map(
      (incident): Json => ({
        ...incident,
        title: cutter.text(incident.title, PLUGIN_LIMITS.incidentTitleChars),
        ...(Array.isArray(incident.entities)
          ? { entities: cutter.list(incident.entities as unknown[], PLUGIN_LIMITS.incidentEntities) }
          : {}),
      }),
    );
    copy.incidents = incidents;
    if (jsonBytes(copy) > PLUGIN_LIMITS.maxResponseBytes && incidents.some((i) => 'source_url' in i)) {
      copy.incidents = incidents.map(({ source_url: _, ...rest }) => rest);
      cutter.cut = true;
    }
  }
  return finish<T>(copy, cutter);
}

/** searchInvestigations */
export function compactSearchResults<T extends object>(body: T): Compacted<T> {
  const copy = structuredClone(body) as Json;
  const cutter = new Cutter();
  if (Array.isArray(copy.results)) {
    copy.results = (copy.results as Json[]).map((result) => ({
      ...result,
      summary: cutter.text(result.summary, PLUGIN_LIMITS.searchSummaryChars),
    }));
  }
  return finish<T>(copy, cutter);
}
