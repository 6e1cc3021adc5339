import type { EntityType } from '../core/entity';
import type {
  AnalystSection,
  CoverageSource,
  Finding,
  Report,
  SourceReading,
  ToolCall,
  ToolName,
} from '../core/vocabulary';
import { FEEDS } from '../feeds/declarations';
import { FEED_NAMES, type FeedName, howToEnableFeed } from '../feeds/names';
import {
  CONNECTOR_ENTITY_TYPES,
  CONNECTOR_NAMES,
  type ConnectorName,
  howToEnableConnector,
} from '../intel/names';
import { VERDICT_THRESHOLDS } from './thresholds';

/**
 * `report.coverage.sources`: every source the tenant has and what became of it in this run, so a
 * report says what it did not check as plainly as what it found. Built-in tools read the tenant's
 * own data; feeds and connectors are outside knowledge (a feed is matched inside the tenant, but
 * what it lists comes from its publisher); the analyst is the Bedrock model writing the narrative.
 */

/** What the deployment turned on, from its configuration (services/workflow/source-setup.ts). */
export interface SourceSetup {
  /** Feeds enabled (SIS_FEED_<NAME>_ENABLED). */
  feeds: readonly FeedName[];
  /** Connectors configured (a key, or SIS_INTEL_<NAME>_ENABLED for a keyless one). */
  connectors: readonly ConnectorName[];
  analyst: 'rules' | 'bedrock';
}

/**
 * The built-in tools (every tool but `feeds` and the connectors) and the entity type each is for
 * (all types when absent), as tools/built-in-tool-declarations.ts declares them: repeated here, as
 * names only, because the report's room may not import the tools' (they import it).
 */
const BUILT_IN_FOR: Readonly<Record<string, EntityType | undefined>> = {
  ip_classification: 'ip',
  domain_analysis: 'domain',
  account_analysis: 'user',
  host_analysis: 'host',
  incident_history: undefined,
  prior_investigations: undefined,
  graph_neighbourhood: undefined,
} satisfies Partial<Record<ToolName, EntityType | undefined>>;

/** The most severe reading among findings: a score band, or benign evidence, else no opinion. */
function readingOf(findings: readonly Finding[]): SourceReading {
  const intel = findings.map((f) => f.source_verdict).filter((v) => v !== undefined && v !== 'unknown');
  const risk = Math.max(0, ...findings.map((f) => f.score));
  if (intel.includes('malicious') || risk >= VERDICT_THRESHOLDS.malicious) return 'malicious';
  if (intel.includes('suspicious') || risk >= VERDICT_THRESHOLDS.suspicious) return 'suspicious';
  if (intel.includes('benign') || findings.some((f) => f.benign === true)) return 'benign';
  return 'no_opinion';
}

const findingsOf = (call: ToolCall) => (call.status === 'succeeded' ? (call.output?.findings ?? []) : []);

function failedReason(call: ToolCall): string {
  if (call.status === 'timed_out') return call.error ?? 'Timed out.';
  return call.error ?? 'Failed.';
}

/** A consulted, skipped or failed entry from a recorded tool call. */
function fromCall(name: string, kind: CoverageSource['kind'], call: ToolCall): CoverageSource {
  if (call.status === 'succeeded') {
    const cached =
      call.cached === true
        ? { reason: `Answered from the cache (${call.cache_age_seconds ?? 0} s old).` }
        : {};
    return { name, kind, status: 'consulted', reading: readingOf(findingsOf(call)), ...cached };
  }
  if (call.status === 'skipped') return { name, kind, status: 'skipped', reason: call.error ?? 'Skipped.' };
  return { name, kind, status: 'failed', reason: failedReason(call) };
}

const typeWord = (type: EntityType) => (type === 'ip' ? 'an IP' : `a ${type}`);

function builtInSources(type: EntityType, calls: ReadonlyMap<string, ToolCall>): CoverageSource[] {
  return Object.entries(BUILT_IN_FOR).map(([name, only]) => {
    const call = calls.get(name);
    if (call) return fromCall(name, 'built_in', call);
    const applies = only === undefined || only === type;
    return {
      name,
      kind: 'built_in',
      status: 'skipped',
      reason: applies ? 'Not run.' : `Does not apply to ${typeWord(type)}.`,
    };
  });
}

const stringsIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function feedSources(type: EntityType, setup: SourceSetup, call: ToolCall | undefined): CoverageSource[] {
  const facts = call?.status === 'succeeded' ? (call.output?.facts ?? {}) : {};
  const checked = stringsIn(facts.feeds_checked);
  const stale = stringsIn(facts.stale_feeds);
  const unavailable = stringsIn(facts.unavailable_feeds);
  const findings = call ? findingsOf(call) : [];
  return FEED_NAMES.map((name): CoverageSource => {
    const base = { name, kind: 'feed' as const };
    if (!setup.feeds.includes(name)) {
      return { ...base, status: 'disabled', reason: `Not enabled. ${howToEnableFeed(name)}` };
    }
    if (!(FEEDS[name].entityTypes as readonly string[]).includes(type)) {
      return { ...base, status: 'skipped', reason: `Lists no ${type === 'ip' ? 'IP' : type}s.` };
    }
    if (!call) return { ...base, status: 'skipped', reason: 'Not run.' };
    if (call.status !== 'succeeded') return fromCall(name, 'feed', call);
    if (facts.feeds === 'unavailable' || unavailable.includes(name)) {
      return {
        ...base,
        status: 'failed',
        reason: 'No compiled list to match: the feed was never refreshed, or its store could not be read.',
      };
    }
    if (!checked.includes(name)) return { ...base, status: 'skipped', reason: 'Not loaded.' };
    const own = findings.filter((f) => f.evidence_source === `feed:${name}`);
    return {
      ...base,
      status: 'consulted',
      reading: readingOf(own),
      ...(stale.includes(name)
        ? { reason: 'Stale: not refreshed for more than three refresh periods.' }
        : {}),
    };
  });
}

function connectorSources(
  type: EntityType,
  setup: SourceSetup,
  calls: ReadonlyMap<string, ToolCall>,
): CoverageSource[] {
  return CONNECTOR_NAMES.map((name): CoverageSource => {
    const call = calls.get(`intel_${name}`);
    if (call) return fromCall(name, 'connector', call);
    const base = { name, kind: 'connector' as const };
    if (!setup.connectors.includes(name)) {
      return { ...base, status: 'disabled', reason: `Not configured. ${howToEnableConnector(name)}` };
    }
    if (!CONNECTOR_ENTITY_TYPES[name].includes(type)) {
      return { ...base, status: 'skipped', reason: `Does not look up ${typeWord(type)}.` };
    }
    return { ...base, status: 'skipped', reason: 'Not run.' };
  });
}

function analystSource(setup: SourceSetup): CoverageSource {
  return setup.analyst === 'bedrock'
    ? { name: 'analyst', kind: 'analyst', status: 'skipped', reason: 'The analyst has not written yet.' }
    : {
        name: 'analyst',
        kind: 'analyst',
        status: 'disabled',
        reason: 'SIS_ANALYST=rules: the rules engine wrote the report.',
      };
}

/** The coverage list of a run of these tool calls for an entity of this type. */
export function coverageSources(
  type: EntityType,
  toolCalls: readonly ToolCall[],
  setup: SourceSetup,
): CoverageSource[] {
  const calls = new Map<string, ToolCall>(toolCalls.map((call) => [call.name, call]));
  return [
    ...builtInSources(type, calls),
    ...feedSources(type, setup, calls.get('feeds' satisfies ToolName)),
    ...connectorSources(type, setup, calls),
    analystSource(setup),
  ];
}

/**
 * The report once the analyst's section is known (Bedrock mode): its coverage entry says whether the
 * model wrote, and the summary the analyst rewrote keeps the outside-sources line.
 */
export function withAnalystCoverage(report: Report): Report {
  const { sources } = report.coverage;
  if (!report.analyst || !sources) return report;
  const entry = analystCoverage(report.analyst);
  const line = outsideSourcesLine(sources);
  return {
    ...report,
    summary: line && !report.summary.includes(line) ? `${report.summary}\n${line}` : report.summary,
    coverage: { ...report.coverage, sources: sources.map((s) => (s.kind === 'analyst' ? entry : s)) },
  };
}

function analystCoverage(analyst: AnalystSection): CoverageSource {
  return analyst.mode === 'bedrock'
    ? { name: 'analyst', kind: 'analyst', status: 'consulted', reading: 'no_opinion' }
    : {
        name: 'analyst',
        kind: 'analyst',
        status: 'failed',
        reason: `The rules engine wrote the narrative (${analyst.fallback_reason ?? 'fallback'}).`,
      };
}

const isOutside = (source: CoverageSource) => source.kind === 'feed' || source.kind === 'connector';

/** Whether a run with this list consulted no feed and no connector. */
export function noOutsideSource(sources: readonly CoverageSource[]): boolean {
  return !sources.some((s) => isOutside(s) && s.status === 'consulted');
}

/**
 * The summary's line on outside knowledge: said only when no outside source was consulted, naming
 * the tools that were for what they are.
 */
export function outsideSourcesLine(sources: readonly CoverageSource[] | undefined): string | undefined {
  if (!sources || !noOutsideSource(sources)) return undefined;
  const internal = sources.filter((s) => s.kind === 'built_in' && s.status === 'consulted').length;
  const tools = internal === 1 ? '1 tenant-internal tool' : `${internal} tenant-internal tools`;
  return `No outside source was consulted: ${tools} read the tenant's own data only (no feed or connector; see coverage.sources).`;
}
