import { config } from '../../shared/config';
import type { Entity } from '../../shared/domain/core/entity';
import { incidentId, type NormalisedIncident, type Severity } from '../../shared/domain/incidents/incident';
import type { Caller } from '../../shared/domain/keys/scopes';
import { postingTermsFor } from '../../shared/domain/search/search-phrases';
import { termsForSession } from '../../shared/domain/search/search-terms';
import { queryKnowledgeGraph } from '../../shared/services/graph/knowledge-graph';
import { listIncidents } from '../../shared/services/incidents/incidents';
import { searchInvestigations } from '../../shared/services/investigations/search';
import { createDocumentClient } from '../../shared/store/dynamo-client';
import { GraphRepository, nodeItems, sideItem } from '../../shared/store/graph-repository';
import { IncidentsRepository, incidentItem } from '../../shared/store/incidents-repository';
import { postingItems } from '../../shared/store/search-index/postings';
import { SearchRepository } from '../../shared/store/search-index/search-repository';
import { tableName } from '../../shared/store/tables';
import { meterTotals, startDynamoMeter } from '../lib/dynamo-meter';
import type { BenchService } from '../lib/harness';
import { batchWriteAll, type Item } from '../lib/seed';
import { type Distribution, distribution } from '../lib/stats';
import type { ScenarioContext } from './context';

/**
 * The knowledge routes at growing data sizes, through the local gateway (authorizer included), on
 * the scale table set: a graph neighbourhood of one entity with 1k/10k/100k edges, the incident list
 * over 1k/10k/100k incidents with a severity and time filter, and search over 1k/10k sessions of the
 * caller. Data is seeded with BatchWriteItem in the items the stores' own builders produce, growing
 * level by level. A page of results should cost the same at every size: besides latency, the
 * DynamoDB requests and read units of one call are metered at each level (the service function the
 * handler calls, run over a metering hop).
 */
export interface ScaleQueryResult {
  query: string;
  size: number;
  latencyMs: Distribution;
  /** p50 at this size / p50 at the smallest size. */
  growth: number;
  /** The reference request's p50, measured interleaved with this query. */
  referenceP50Ms: number;
  /**
   * growth with machine drift taken out: (p50 / reference p50) at this size over the same at the
   * smallest size. The reference (a 20-edge neighbourhood) does not change with size.
   */
  normalisedGrowth: number;
  dynamoRequests: number;
  readUnits: number;
  results: number;
}

export interface ScaleResult {
  samplesPerLevel: number;
  graph: ScaleQueryResult[];
  incidents: ScaleQueryResult[];
  search: ScaleQueryResult[];
  seedSeconds: number;
}

const HUB: Entity = { type: 'ip', value: '203.0.113.250' };
/** The reference: a neighbourhood that stays at 20 edges whatever the size of the rest. */
const REFERENCE: Entity = { type: 'ip', value: '203.0.113.251' };
const REFERENCE_PATH = `/api/v1/graph/entity/${REFERENCE.value}?limit=20`;
const SEEDED_AT = '2026-11-01T00:00:00.000Z';
const NEWEST = Date.parse(SEEDED_AT);
/** Incidents arrive at a constant rate (the 100k level spans 90 days), newest first as i grows. */
const INCIDENT_SPACING_MS = (90 * 86_400_000) / 100_000;
const SEVERITY_MIX: Severity[] = [
  'informational',
  'informational',
  'low',
  'low',
  'low',
  'medium',
  'medium',
  'high',
  'high',
  'critical',
];
const STATUSES = ['new', 'active', 'resolved', 'closed'] as const;
const WORDS = [
  'phishing',
  'beaconing',
  'spray',
  'exfiltration',
  'scanner',
  'ransomware',
  'benign',
  'lateral',
];
const NEIGHBOUR_TYPES = ['host', 'user', 'domain', 'ip'] as const;

function neighbour(i: number): Entity {
  const type = NEIGHBOUR_TYPES[i % 4]!;
  const n = String(i).padStart(6, '0');
  if (type === 'host') return { type, value: `ws-${n}` };
  if (type === 'user') return { type, value: `user${n}@contoso.example` };
  if (type === 'domain') return { type, value: `d${n}.scale.example` };
  return { type, value: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` };
}

function graphItems(from: number, to: number, self: Entity = HUB): Item[] {
  const items: Item[] = [];
  for (let i = from; i < to; i++) {
    const other = neighbour(i);
    const at = new Date(NEWEST - i * 60_000).toISOString();
    items.push(
      sideItem({
        self,
        other,
        relationship: 'co_occurs_in_incident',
        direction: 'both',
        first_seen: at,
        last_seen: at,
        count: 1 + (i % 7),
        evidence: [incidentId('bench', `edge-${i}`)],
      }),
    );
  }
  return items;
}

function incident(i: number): NormalisedIncident {
  const created = new Date(NEWEST - i * INCIDENT_SPACING_MS).toISOString();
  return {
    incident_id: incidentId('bench', `scale-${i}`),
    source: 'bench',
    source_id: `scale-${i}`,
    title: `Scale incident ${i}: ${WORDS[i % WORDS.length]} activity`,
    severity: SEVERITY_MIX[i % SEVERITY_MIX.length]!,
    status: STATUSES[(i * 3) % 4]!,
    created_at: created,
    updated_at: created,
    entities: [neighbour(i), { type: 'ip', value: `198.51.100.${i % 250}` }],
  };
}

function sessionPostings(i: number, ownerKeyId: string): Item[] {
  const entity: Entity =
    i % 2 === 0 ? { type: 'ip', value: `198.18.${(i >> 8) & 255}.${i & 255}` } : neighbour(i);
  const verdict = i % 3 === 0 ? 'malicious' : i % 3 === 1 ? 'suspicious' : 'benign';
  const entry = {
    session_id: `s_scale${String(i).padStart(19, '0')}`,
    owner_key_id: ownerKeyId,
    status: 'completed',
    entity,
    persona: 'SOC Analyst',
    created_at: new Date(NEWEST - i * 60_000).toISOString(),
    risk_score: (i * 37) % 100,
    verdict,
    summary: `Observed ${WORDS[i % WORDS.length]} activity involving ${entity.value}; verdict ${verdict}.`,
  };
  const terms = termsForSession({ ...entry, findings: [] });
  return postingItems(entry, terms, postingTermsFor(terms));
}

export function scaleLevels(quick: boolean) {
  return quick
    ? { graph: [1_000, 5_000], incidents: [1_000, 5_000], search: [1_000, 1_500] }
    : { graph: [1_000, 10_000, 100_000], incidents: [1_000, 10_000, 100_000], search: [1_000, 10_000] };
}

type Row = Omit<ScaleQueryResult, 'growth' | 'normalisedGrowth'>;

export async function runScale(ctx: ScenarioContext, bench: BenchService): Promise<ScaleResult> {
  const levels = scaleLevels(ctx.quick);
  const samples = ctx.quick ? 40 : 150;
  const cfg = config();
  const doc = createDocumentClient(cfg);
  const meter = await startDynamoMeter(ctx.dynamodbEndpoint);
  const meteredDoc = createDocumentClient({ ...cfg, SIS_DYNAMODB_ENDPOINT: meter.endpoint });
  const caller: Caller = { keyId: bench.keyId, role: 'client', scopes: ['search:read'] };
  let seedMs = 0;

  const measure = async (
    query: string,
    size: number,
    path: string,
    metered: () => Promise<number>,
  ): Promise<Row> => {
    const call = async (target: string) => {
      const answer = await bench.http.call('GET', target, { key: bench.apiKey });
      if (answer.status !== 200) throw new Error(`GET ${target} answered ${answer.status}`);
      return answer.ms;
    };
    for (let i = 0; i < 30; i++) await call(path);
    // The query and the reference alternate request by request, so both see the same machine.
    const latencies: number[] = [];
    const reference: number[] = [];
    for (let i = 0; i < samples; i++) {
      latencies.push(await call(path));
      reference.push(await call(REFERENCE_PATH));
    }
    meter.calls.length = 0;
    meter.label = query;
    const results = await metered();
    meter.label = undefined;
    const totals = meterTotals(meter.calls);
    return {
      query,
      size,
      latencyMs: distribution(latencies),
      referenceP50Ms: distribution(reference).p50,
      dynamoRequests: totals.requests,
      readUnits: totals.readUnits,
      results,
    };
  };
  const withGrowth = (rows: Row[]): ScaleQueryResult[] =>
    rows.map((row) => {
      const base = rows.find((r) => r.query === row.query)!;
      return {
        ...row,
        growth: row.latencyMs.p50 / base.latencyMs.p50,
        normalisedGrowth: row.latencyMs.p50 / row.referenceP50Ms / (base.latencyMs.p50 / base.referenceP50Ms),
      };
    });
  const seed = async (table: string, items: Item[]) => {
    const start = performance.now();
    await batchWriteAll(doc, table, items, 4);
    seedMs += performance.now() - start;
  };

  // Graph: the hub's node, then its edges, level by level.
  const graphRows: Row[] = [];
  const graphRepo = new GraphRepository(meteredDoc, tableName(cfg, 'graph'));
  await seed(tableName(cfg, 'graph'), [
    ...[HUB, REFERENCE].flatMap((entity) =>
      nodeItems({
        ...entity,
        first_seen: SEEDED_AT,
        last_seen: SEEDED_AT,
        incident_count: 1,
        investigation_count: 0,
      }),
    ),
    ...graphItems(0, 20, REFERENCE),
  ]);
  let seeded = 0;
  for (const size of levels.graph) {
    ctx.say(`  graph: seeding to ${size} edges`);
    for (let from = seeded; from < size; from += 10_000) {
      await seed(tableName(cfg, 'graph'), graphItems(from, Math.min(size, from + 10_000)));
    }
    seeded = size;
    graphRows.push(
      await measure(
        'graph neighbourhood, depth 1, limit 20',
        size,
        `/api/v1/graph/entity/${HUB.value}?limit=20`,
        async () => {
          const result = await queryKnowledgeGraph(graphRepo, { value: HUB.value, depth: 1, limit: 20 });
          return result.neighbors.length;
        },
      ),
    );
  }

  // Incidents: constant arrival rate, so a bigger store reaches further back in time.
  const incidentRows: Row[] = [];
  const incidentsRepo = new IncidentsRepository(meteredDoc, tableName(cfg, 'incidents'));
  const since = new Date(NEWEST - 30 * 86_400_000).toISOString();
  seeded = 0;
  for (const size of levels.incidents) {
    ctx.say(`  incidents: seeding to ${size}`);
    for (let from = seeded; from < size; from += 10_000) {
      const items: Item[] = [];
      for (let i = from; i < Math.min(size, from + 10_000); i++)
        items.push(incidentItem(incident(i), SEEDED_AT));
      await seed(tableName(cfg, 'incidents'), items);
    }
    seeded = size;
    incidentRows.push(
      await measure(
        'incidents, severity=high,critical, last 30 days, limit 20',
        size,
        `/api/v1/incidents?severity=high,critical&since=${encodeURIComponent(since)}&limit=20`,
        async () => {
          const page = await listIncidents(incidentsRepo, cfg.SIS_PUBLIC_URL, {
            severity: ['high', 'critical'],
            since,
            limit: 20,
          });
          return page.incidents.length;
        },
      ),
    );
  }

  // Search: the caller's own sessions.
  const searchRows: Row[] = [];
  const index = new SearchRepository(meteredDoc, tableName(cfg, 'sessions'));
  seeded = 0;
  for (const size of levels.search) {
    ctx.say(`  search: seeding to ${size} sessions`);
    for (let from = seeded; from < size; from += 1_000) {
      const items: Item[] = [];
      for (let i = from; i < Math.min(size, from + 1_000); i++)
        items.push(...sessionPostings(i, bench.keyId));
      await seed(tableName(cfg, 'sessions'), items);
    }
    seeded = size;
    for (const q of ['type:ip', 'verdict:malicious phishing']) {
      searchRows.push(
        await measure(
          `search "${q}", limit 20`,
          size,
          `/api/v1/search?q=${encodeURIComponent(q)}&limit=20`,
          async () => {
            const page = await searchInvestigations(index, caller, { q, limit: 20 });
            return page.results.length;
          },
        ),
      );
    }
  }

  doc.destroy();
  meteredDoc.destroy();
  await meter.stop();
  return {
    samplesPerLevel: samples,
    graph: withGrowth(graphRows),
    incidents: withGrowth(incidentRows),
    search: withGrowth(searchRows),
    seedSeconds: seedMs / 1000,
  };
}
