import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import type { Entity } from '../domain/core/entity';
import {
  type IncidentStatus,
  type NormalisedIncident,
  SEVERITIES,
  type Severity,
} from '../domain/incidents/incident';
import { documentClientFor } from './dynamo-client';
import { expiredItem, incidentTtl } from './retention/retention-ttl';
import { GSI1, tableName } from './tables';

/**
 * Normalised incidents in the incidents table: pk `INCIDENT#<incident_id>`, sk `META`, and gsi1
 * `SEVERITY#<severity>` / `<created_at>#<incident_id>` so a listing is one Query per severity over
 * a created_at range, newest first. Never a Scan.
 *
 * Lists merge the per-severity queries newest first. A list position is a gsi1 sort key: every
 * incident is in exactly one severity partition and sort keys are unique (they end in the ID), so
 * "everything strictly older than the position" continues a list without repeats or gaps.
 */
export type UpsertOutcome = 'created' | 'updated' | 'stale';

export interface StoredIncident extends NormalisedIncident {
  ingested_at: string;
}

export interface IncidentListQuery {
  severities?: readonly Severity[] | undefined;
  statuses?: readonly IncidentStatus[] | undefined;
  /** Inclusive lower bound on created_at (ISO, `toISOString` form). */
  since?: string | undefined;
  /** Exclusive upper bound on created_at. */
  until?: string | undefined;
  limit: number;
  /** Position the previous page ended on (exclusive). */
  after?: string | undefined;
}

export interface IncidentPage {
  incidents: StoredIncident[];
  /** Position to continue after; absent on the last page. */
  next?: string;
}

const META_SK = 'META';
const incidentPk = (id: string) => `INCIDENT#${id}`;
const severityPk = (severity: Severity) => `SEVERITY#${severity}`;
const listKey = (incident: Pick<NormalisedIncident, 'created_at' | 'incident_id'>) =>
  `${incident.created_at}#${incident.incident_id}`;
const LOWEST_KEY = '0';
/** Query calls one list request may make before answering with what it has and a cursor. */
const MAX_QUERIES_PER_LIST = 30;

const INCIDENT_ATTRIBUTES = [
  'incident_id',
  'source',
  'source_id',
  'title',
  'description',
  'severity',
  'status',
  'created_at',
  'updated_at',
  'entities',
  'source_url',
  'origin',
  'ingested_at',
] as const;

type Item = Record<string, unknown>;

function incidentFromItem(item: Item): StoredIncident {
  const out: Record<string, unknown> = {};
  for (const attribute of INCIDENT_ATTRIBUTES) {
    const value = item[attribute];
    if (value !== undefined && value !== null) out[attribute] = value;
  }
  out.entities = Array.isArray(item.entities)
    ? (item.entities as Entity[]).map((e) => ({ type: e.type, value: e.value }))
    : [];
  return out as unknown as StoredIncident;
}

/** The position format; anything else in a cursor was tampered with. */
export function isIncidentListPosition(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#inc_[a-z2-7]{26}$/.test(value);
}

/** One severity partition read lazily, newest first, in pages. */
class SeverityStream {
  buffer: Item[] = [];
  exhausted = false;
  /** Lowest sort key examined so far: everything at or above it has been read. */
  examinedTo: string | undefined;
  private startKey: Record<string, unknown> | undefined;

  constructor(
    private readonly fetch: (startKey: Record<string, unknown> | undefined) => Promise<{
      items: Item[];
      lastKey: Record<string, unknown> | undefined;
    }>,
    private readonly skip: string | undefined,
  ) {}

  async next(): Promise<void> {
    const { items, lastKey } = await this.fetch(this.startKey);
    const now = Date.now();
    // An incident past its retention is not listed, though DynamoDB may not have deleted it yet.
    this.buffer.push(...items.filter((item) => item[GSI1.sortKey] !== this.skip && !expiredItem(item, now)));
    this.startKey = lastKey;
    if (!lastKey) this.exhausted = true;
    else this.examinedTo = String(lastKey[GSI1.sortKey]);
  }
}

/** The stored form of an incident (also for bulk seeding by tooling and benchmarks). */
export function incidentItem(incident: NormalisedIncident, ingestedAt: string): Item {
  return {
    pk: incidentPk(incident.incident_id),
    sk: META_SK,
    [GSI1.partitionKey]: severityPk(incident.severity),
    [GSI1.sortKey]: listKey(incident),
    ...incident,
    ingested_at: ingestedAt,
    // Kept for the incident retention after its last ingestion (shared/store/retention/retention-ttl.ts).
    ...incidentTtl(ingestedAt),
  };
}

/**
 * The write condition of an upsert, as domain `shouldReplace` states it: not older than the stored
 * copy; a push never over a pulled copy; a pull over any copy that was not pulled.
 */
function upsertCondition(incident: NormalisedIncident): {
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  const values: Record<string, unknown> = { ':updated': incident.updated_at };
  const names = { '#origin': 'origin', '#kind': 'kind' };
  const kind = incident.origin?.kind;
  if (kind === 'push') {
    return {
      ConditionExpression:
        'attribute_not_exists(pk) OR (updated_at <= :updated AND NOT (#origin.#kind = :pull))',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ':pull': 'pull' },
    };
  }
  if (kind === 'pull') {
    return {
      ConditionExpression:
        'attribute_not_exists(pk) OR updated_at <= :updated OR attribute_not_exists(#origin.#kind) OR #origin.#kind <> :pull',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ':pull': 'pull' },
    };
  }
  return {
    ConditionExpression: 'attribute_not_exists(pk) OR updated_at <= :updated',
    ExpressionAttributeValues: values,
  };
}

export class IncidentsRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly limits: { maxQueriesPerList: number } = { maxQueriesPerList: MAX_QUERIES_PER_LIST },
  ) {}

  /**
   * Idempotent upsert: the same incident_id is one item; a copy with an older updated_at than the
   * stored one is refused by the condition (domain `shouldReplace`: an equal one replaces).
   */
  async upsert(incident: NormalisedIncident, now: Date = new Date()): Promise<UpsertOutcome> {
    try {
      const { Attributes } = await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: incidentItem(incident, now.toISOString()),
          ...upsertCondition(incident),
          ReturnValues: 'ALL_OLD',
        }),
      );
      return Attributes ? 'updated' : 'created';
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return 'stale';
      throw error;
    }
  }

  async get(incidentId: string): Promise<StoredIncident | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: incidentPk(incidentId), sk: META_SK },
        ConsistentRead: true,
      }),
    );
    return Item && !expiredItem(Item) ? incidentFromItem(Item) : undefined;
  }

  /** Whether any incident is stored: one single-item Query per severity. */
  async hasAny(): Promise<boolean> {
    const page = await this.list({ limit: 1 });
    return page.incidents.length > 0;
  }

  /**
   * Newest first across the requested severities (all by default). A position is "safe" once every
   * severity that still has data has been read down to it; safe incidents are emitted in order, and
   * the severity holding the position back is read further. With a status filter many items may be
   * skipped, so after MAX_QUERIES_PER_LIST queries the page is returned as it is, with a cursor.
   */
  async list(query: IncidentListQuery): Promise<IncidentPage> {
    const severities = query.severities?.length ? [...new Set(query.severities)] : [...SEVERITIES];
    const lower = query.since ?? LOWEST_KEY;
    // A bare `until` instant sorts below every `<until>#inc_…` key, so BETWEEN excludes incidents
    // created at exactly `until`; `after` itself is skipped in code.
    const upper = [query.until, query.after].filter((k): k is string => k !== undefined).sort()[0];
    const names: Record<string, string> = { '#gpk': GSI1.partitionKey, '#gsk': GSI1.sortKey };
    const values: Record<string, unknown> = { ':lower': lower };
    let keyCondition = '#gpk = :pk AND #gsk >= :lower';
    if (upper !== undefined) {
      if (upper < lower) return { incidents: [] };
      keyCondition = '#gpk = :pk AND #gsk BETWEEN :lower AND :upper';
      values[':upper'] = upper;
    }
    let filter: string | undefined;
    if (query.statuses?.length) {
      names['#status'] = 'status';
      filter = `#status IN (${query.statuses.map((s, i) => {
        values[`:s${i}`] = s;
        return `:s${i}`;
      })})`;
    }
    const pageSize = filter ? Math.max(50, query.limit + 1) : query.limit + 1;
    let queries = 0;
    const streams = severities.map(
      (severity) =>
        new SeverityStream(async (startKey) => {
          queries++;
          const result = await this.doc.send(
            new QueryCommand({
              TableName: this.table,
              IndexName: GSI1.indexName,
              KeyConditionExpression: keyCondition,
              ...(filter ? { FilterExpression: filter } : {}),
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: { ...values, ':pk': severityPk(severity) },
              ScanIndexForward: false,
              Limit: pageSize,
              ...(startKey ? { ExclusiveStartKey: startKey } : {}),
            }),
          );
          return { items: result.Items ?? [], lastKey: result.LastEvaluatedKey };
        }, query.after),
    );

    const emitted: Item[] = [];
    await Promise.all(streams.map((stream) => stream.next()));
    for (;;) {
      const open = streams.filter((s) => !s.exhausted);
      // Everything at or above `safe` has been read in every severity.
      const safe = open.reduce<string | undefined>(
        (max, s) => (max === undefined || (s.examinedTo ?? '') > max ? (s.examinedTo ?? '') : max),
        undefined,
      );
      for (;;) {
        let best: SeverityStream | undefined;
        for (const stream of streams) {
          const head = stream.buffer[0];
          if (!head || (safe !== undefined && String(head[GSI1.sortKey]) < safe)) continue;
          if (!best || String(head[GSI1.sortKey]) > String(best.buffer[0]?.[GSI1.sortKey])) best = stream;
        }
        if (!best) break;
        emitted.push(best.buffer.shift() as Item);
        if (emitted.length > query.limit) {
          const page = emitted.slice(0, query.limit);
          return { incidents: page.map(incidentFromItem), next: String(page.at(-1)?.[GSI1.sortKey]) };
        }
      }
      if (open.length === 0) return { incidents: emitted.map(incidentFromItem) };
      if (queries >= this.limits.maxQueriesPerList) {
        return { incidents: emitted.map(incidentFromItem), ...(safe ? { next: safe } : {}) };
      }
      const holding = open.find((s) => (s.examinedTo ?? '') === safe) ?? open[0]!;
      await holding.next();
    }
  }
}

export function incidentsRepositoryFromConfig(
  cfg: Config,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
) {
  return new IncidentsRepository(doc, tableName(cfg, 'incidents'));
}
