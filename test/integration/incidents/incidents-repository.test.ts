import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import {
  INCIDENT_STATUSES,
  type IncidentStatus,
  type NormalisedIncident,
  SEVERITIES,
  type Severity,
} from '../../../shared/domain/incidents/incident';
import { assertIncident } from '../../../shared/domain/incidents/incident-input';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import {
  type IncidentListQuery,
  IncidentsRepository,
  incidentItem,
} from '../../../shared/store/incidents-repository';
import { createIsolatedTables } from '../../support/dynamodb';

/**
 * The merge of per-severity queries against a brute-force model: for random filters, page sizes and
 * a tiny query budget (forcing short pages that still carry a cursor), paging to the end yields
 * exactly the matching incidents, newest first, each once.
 */
let repository: IncidentsRepository;
let tight: IncidentsRepository;
const incidents: NormalisedIncident[] = [];
const BASE = Date.parse('2026-09-01T00:00:00Z');

beforeAll(async () => {
  const tables = await createIsolatedTables();
  const doc = createDocumentClient(parseConfig({ ...tables.env }));
  repository = new IncidentsRepository(doc, tables.names.incidents);
  tight = new IncidentsRepository(doc, tables.names.incidents, { maxQueriesPerList: 6 });
  const random = fc.sample(
    fc.record({
      severity: fc.constantFrom(...SEVERITIES),
      // Skewed so a status filter is selective: most incidents are closed.
      status: fc.constantFrom<IncidentStatus>(
        'closed',
        'closed',
        'closed',
        'closed',
        'closed',
        'new',
        'active',
        'resolved',
      ),
      minutes: fc.integer({ min: 0, max: 600 }),
    }),
    { numRuns: 400, seed: 7 },
  );
  random.forEach((r, i) => {
    incidents.push(
      assertIncident({
        source: 'custom',
        source_id: `r-${i}`,
        title: `Incident ${i}`,
        severity: r.severity,
        status: r.status,
        created_at: new Date(BASE + r.minutes * 60_000).toISOString(),
      }),
    );
  });
  // Seeded in the store's own item form, in batches; upsert is covered elsewhere.
  for (let i = 0; i < incidents.length; i += 25) {
    await doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [tables.names.incidents]: incidents.slice(i, i + 25).map((incident) => ({
            PutRequest: { Item: incidentItem(incident, new Date().toISOString()) },
          })),
        },
      }),
    );
  }
});

function model(query: Omit<IncidentListQuery, 'limit' | 'after'>): string[] {
  return incidents
    .filter((i) => !query.severities?.length || query.severities.includes(i.severity))
    .filter((i) => !query.statuses?.length || query.statuses.includes(i.status))
    .filter((i) => !query.since || i.created_at >= query.since)
    .filter((i) => !query.until || i.created_at < query.until)
    .map((i) => `${i.created_at}#${i.incident_id}`)
    .sort()
    .reverse();
}

async function pageAll(repo: IncidentsRepository, query: Omit<IncidentListQuery, 'after'>) {
  const keys: string[] = [];
  let after: string | undefined;
  let pages = 0;
  let shortWithCursor = 0;
  do {
    const page = await repo.list({ ...query, after });
    expect(page.incidents.length).toBeLessThanOrEqual(query.limit);
    if (page.next && page.incidents.length < query.limit) shortWithCursor++;
    keys.push(...page.incidents.map((i) => `${i.created_at}#${i.incident_id}`));
    after = page.next;
    pages++;
  } while (after && pages < 1000);
  return { keys, pages, shortWithCursor };
}

const queries = fc.record({
  severities: fc.option(fc.subarray([...SEVERITIES] as Severity[], { minLength: 1 }), { nil: undefined }),
  statuses: fc.option(
    fc.subarray([...INCIDENT_STATUSES] as IncidentStatus[], { minLength: 1, maxLength: 2 }),
    {
      nil: undefined,
    },
  ),
  since: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
  span: fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
  limit: fc.integer({ min: 1, max: 40 }),
});

describe('incidents repository listing', () => {
  it('pages every filter combination exactly like the model, also under a tiny query budget', async () => {
    await fc.assert(
      fc.asyncProperty(queries, fc.boolean(), async (q, useTight) => {
        const since = q.since === undefined ? undefined : new Date(BASE + q.since * 60_000).toISOString();
        const until =
          q.span === undefined
            ? undefined
            : new Date(BASE + ((q.since ?? 0) + q.span) * 60_000).toISOString();
        const filters = { severities: q.severities, statuses: q.statuses, since, until };
        const { keys } = await pageAll(useTight ? tight : repository, { ...filters, limit: q.limit });
        expect(keys).toEqual(model(filters));
      }),
      { numRuns: 40, seed: 11 },
    );
  });

  it('answers a selective filter in short pages with a cursor when the budget runs out', async () => {
    const { keys, shortWithCursor } = await pageAll(tight, { statuses: ['resolved'], limit: 40 });
    expect(keys).toEqual(model({ statuses: ['resolved'] }));
    expect(shortWithCursor).toBeGreaterThan(0);
  });
});
