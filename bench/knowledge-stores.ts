import { randomBytes } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createLocalDynamoDbClient, startDynamoDbLocal } from '../local/dynamodb-local';
import { parseConfig } from '../shared/config';
import type { Entity } from '../shared/domain/core/entity';
import { type NormalisedIncident, SEVERITIES } from '../shared/domain/incidents/incident';
import { assertIncident } from '../shared/domain/incidents/incident-input';
import type { Caller } from '../shared/domain/keys/scopes';
import { postingTermsFor } from '../shared/domain/search/search-phrases';
import { termsForSession } from '../shared/domain/search/search-terms';
import { queryKnowledgeGraph } from '../shared/services/graph/knowledge-graph';
import { listIncidents } from '../shared/services/incidents/incidents';
import { searchInvestigations } from '../shared/services/investigations/search';
import { ensureTables, tableEnvironment, tableNamesFor } from '../shared/store/create-tables';
import { createDocumentClient } from '../shared/store/dynamo-client';
import { GraphRepository, nodeItems, sideItem } from '../shared/store/graph-repository';
import { IncidentsRepository, incidentItem } from '../shared/store/incidents-repository';
import { postingItems } from '../shared/store/search-index/postings';
import type { SearchEntry } from '../shared/store/search-index/records';
import { SearchRepository } from '../shared/store/search-index/search-repository';

/**
 * Read-path latency of the knowledge stores at size, against an in-memory DynamoDB Local on this
 * machine (the service calls as the handlers make them, cursors included):
 * - graph neighbourhood of one entity with 10,000 edges (depth 1 and 2, limit 20);
 * - incident list over 10,000 incidents (all severities, two severities + status filter, a time range);
 * - search over 5,000 sessions of one key (a term all share, an AND with a rare word, a word).
 * Seeded with BatchWriteItem in the stores' own item forms. Run: `npx tsx bench/knowledge-stores.ts`.
 * DynamoDB Local is not DynamoDB: the numbers compare designs and catch regressions; they are not
 * production latencies.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 60);

async function batchWrite(doc: DynamoDBDocumentClient, table: string, items: Record<string, unknown>[]) {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < chunks.length) {
        let pending: unknown[] | undefined = (chunks[next++] ?? []).map((Item) => ({ PutRequest: { Item } }));
        while (pending && pending.length > 0) {
          const result: { UnprocessedItems?: Record<string, unknown[]> } = await doc.send(
            new BatchWriteCommand({ RequestItems: { [table]: pending as never } }),
          );
          pending = result.UnprocessedItems?.[table];
        }
      }
    }),
  );
}

async function measure(name: string, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`${name.padEnd(64)} p50 ${at(0.5).padStart(6)} ms   p95 ${at(0.95).padStart(6)} ms`);
}

async function main() {
  const dynamo = await startDynamoDbLocal({});
  try {
    const names = tableNamesFor(`sis-bench-${randomBytes(3).toString('hex')}`);
    await ensureTables(createLocalDynamoDbClient(dynamo.endpoint), names);
    const cfg = parseConfig({ ...tableEnvironment(names), SIS_DYNAMODB_ENDPOINT: dynamo.endpoint });
    const doc = createDocumentClient(cfg);
    const graph = new GraphRepository(doc, names.graph);
    const incidents = new IncidentsRepository(doc, names.incidents);
    const search = new SearchRepository(doc, names.sessions);
    const at = '2026-11-01T00:00:00.000Z';

    // Graph: a hub with 10,000 neighbours, each neighbour with 5 edges of its own.
    let started = Date.now();
    const hub: Entity = { type: 'ip', value: '203.0.113.66' };
    const items: Record<string, unknown>[] = [
      ...nodeItems({ ...hub, first_seen: at, last_seen: at, incident_count: 10_000, investigation_count: 0 }),
    ];
    for (let i = 0; i < 10_000; i++) {
      const other: Entity = { type: 'host', value: `host-${String(i).padStart(5, '0')}` };
      const common = {
        relationship: 'co_occurs_in_incident' as const,
        direction: 'both' as const,
        first_seen: at,
        last_seen: at,
      };
      items.push(sideItem({ ...common, self: hub, other, count: 1 + (i % 7), evidence: [`inc_${i}`] }));
      items.push(
        sideItem({ ...common, self: other, other: hub, count: 1 + (i % 7), evidence: [`inc_${i}`] }),
      );
      if (i < 200) {
        for (let j = 0; j < 5; j++) {
          const far: Entity = { type: 'user', value: `user-${i}-${j}` };
          items.push(sideItem({ ...common, self: other, other: far, count: 1, evidence: [`inc_x${i}${j}`] }));
        }
      }
    }
    await batchWrite(doc, names.graph, items);
    console.log(`seeded graph: ${items.length} items in ${Date.now() - started} ms`);

    // Incidents: 10,000 over 30 days, all severities and statuses.
    started = Date.now();
    const statuses = ['new', 'active', 'resolved', 'closed'] as const;
    const base = Date.parse('2026-10-01T00:00:00Z');
    const seeded: NormalisedIncident[] = Array.from({ length: 10_000 }, (_, i) =>
      assertIncident({
        source: 'custom',
        source_id: `bench-${i}`,
        title: `Bench incident ${i}`,
        severity: SEVERITIES[(i * 7) % 5]!,
        status: statuses[(i * 3) % 4]!,
        created_at: new Date(base + i * 259_000).toISOString(),
        entities: [{ type: 'host', value: `host-${i % 500}` }],
      }),
    );
    await batchWrite(
      doc,
      names.incidents,
      seeded.map((i) => incidentItem(i, at)),
    );
    console.log(`seeded incidents: ${seeded.length} in ${Date.now() - started} ms`);

    // Search: 5,000 sessions of one key, each indexed with its domain terms.
    started = Date.now();
    const owner: Caller = { keyId: 'benchkey00000001', role: 'client', scopes: ['search:read'] };
    const words = [
      'phishing',
      'beaconing',
      'spray',
      'exfiltration',
      'scanner',
      'ransomware',
      'benign',
      'lateral',
    ];
    const postings: Record<string, unknown>[] = [];
    for (let i = 0; i < 5_000; i++) {
      const entity: Entity = { type: 'ip', value: `198.51.${Math.floor(i / 250)}.${i % 250}` };
      const summary = `Observed ${words[i % 8]} activity from ${entity.value} towards the tenant; case ${i}${i % 1000 === 0 ? ' with a rare zebra marker' : ''}.`;
      const entry: SearchEntry = {
        session_id: `s_bench${String(i).padStart(8, '0')}`,
        owner_key_id: owner.keyId,
        status: 'completed',
        entity,
        persona: 'SOC Analyst',
        created_at: new Date(base + i * 60_000).toISOString(),
        risk_score: i % 100,
        verdict: i % 3 === 0 ? 'malicious' : 'benign',
        summary,
      };
      const terms = termsForSession({ ...entry, findings: [] });
      postings.push(...postingItems(entry, terms, postingTermsFor(terms)));
    }
    await batchWrite(doc, names.sessions, postings);
    console.log(`seeded search: 5000 sessions, ${postings.length} postings in ${Date.now() - started} ms\n`);

    await measure('graph: neighbourhood, 10k edges, depth 1, limit 20', () =>
      queryKnowledgeGraph(graph, { value: hub.value, depth: 1, limit: 20 }),
    );
    await measure('graph: neighbourhood, 10k edges, depth 2, limit 20', () =>
      queryKnowledgeGraph(graph, { value: hub.value, depth: 2, limit: 20 }),
    );
    const page = await queryKnowledgeGraph(graph, { value: hub.value, depth: 1, limit: 100 });
    await measure('graph: neighbourhood, 10k edges, page 2 by cursor, limit 100', () =>
      queryKnowledgeGraph(graph, {
        value: hub.value,
        depth: 1,
        limit: 100,
        cursor: page.next_cursor ?? undefined,
      }),
    );
    const url = 'https://sis.example.com';
    await measure('incidents: 10k, all severities, limit 20', () =>
      listIncidents(incidents, url, { limit: 20 }),
    );
    await measure('incidents: 10k, severity=high,critical, limit 20', () =>
      listIncidents(incidents, url, { severity: ['high', 'critical'], limit: 20 }),
    );
    await measure('incidents: 10k, all severities, status=new, limit 100', () =>
      listIncidents(incidents, url, { status: ['new'], limit: 100 }),
    );
    await measure('incidents: 10k, since/until one week, limit 50', () =>
      listIncidents(incidents, url, {
        since: '2026-10-10T00:00:00.000Z',
        until: '2026-10-17T00:00:00.000Z',
        limit: 50,
      }),
    );
    await measure('search: 5k sessions, one common term (s:completed), limit 20', () =>
      searchInvestigations(search, owner, { q: 'status:completed', limit: 20 }),
    );
    await measure('search: 5k sessions, word (phishing, 625 hits), limit 20', () =>
      searchInvestigations(search, owner, { q: 'phishing', limit: 20 }),
    );
    await measure('search: 5k sessions, entity value, limit 20', () =>
      searchInvestigations(search, owner, { q: '198.51.7.42', limit: 20 }),
    );
    await measure('search: 5k sessions, AND of common + rare word (5 hits)', () =>
      searchInvestigations(search, owner, { q: 'activity zebra', limit: 20 }),
    );
  } finally {
    await dynamo.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
