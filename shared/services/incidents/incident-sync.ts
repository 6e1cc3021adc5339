import { perConfiguration } from '../../config';
import { ValidationError } from '../../domain/core/errors';
import { edgesFromIncident } from '../../domain/graph/graph';
import type { NormalisedIncident } from '../../domain/incidents/incident';
import { assertIncident } from '../../domain/incidents/incident-input';
import { SIEM_FORMATS } from '../../domain/siem/formats';
import { INCIDENT_MESSAGE_VERSION } from '../../platform/incident-queue';
import { documentClientFor } from '../../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../../store/graph-repository';
import {
  type IncidentsRepository,
  incidentsRepositoryFromConfig,
  type UpsertOutcome,
} from '../../store/incidents-repository';
import * as z from '../../zod';
import {
  type AutoInvestigationContext,
  followUpAutoInvestigation,
  investigateArrivedIncident,
} from './auto-investigation';

/**
 * SIEM incident sync, the consumer's side: every source (the push endpoint, incident-ingest.ts; the
 * pull connectors, siem-pull.ts; the demo loader) puts normalised incidents on the queue; one
 * consumer stores them and links their entities in the knowledge graph. Both consumer steps are
 * idempotent, so SQS's at-least-once delivery and retries after a partial failure never duplicate
 * an incident or double-count the graph. The producers live in modules of their own, so their
 * functions carry neither the incidents' store nor the graph.
 */

const incidentMessage = /* @__PURE__ */ (() =>
  z.object({
    v: z.literal(INCIDENT_MESSAGE_VERSION),
    incident: z.looseObject({ source_url: z.optional(z.string()) }),
    origin: z.optional(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('push'), key_id: z.string().check(z.minLength(1), z.maxLength(128)) }),
        z.object({ kind: z.literal('pull'), connector: z.enum(SIEM_FORMATS) }),
        z.object({ kind: z.literal('demo') }),
      ]),
    ),
  }))();

/** A message that can never be stored: redelivery cannot help, so it ends in the DLQ. */
export class PoisonMessageError extends Error {
  override readonly name = 'PoisonMessageError';
}

/**
 * Parses a queue message and validates the incident again with the same rules as the push
 * endpoint (the queue is a trust boundary too).
 */
export function decodeIncidentMessage(body: string): NormalisedIncident {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new PoisonMessageError('The message body is not JSON.');
  }
  const message = incidentMessage.safeParse(parsed);
  if (!message.success) throw new PoisonMessageError('The message is not an incident message (v1).');
  const { source_url, ...rest } = message.data.incident;
  const { origin } = message.data;
  try {
    const incident = assertIncident({ ...rest, ...(source_url ? { url: source_url } : {}) });
    return origin ? { ...incident, origin } : incident;
  } catch (error) {
    if (error instanceof ValidationError) throw new PoisonMessageError(error.message);
    throw error;
  }
}

export interface SyncStores {
  incidents: IncidentsRepository;
  graph: GraphRepository;
}

/**
 * Stores one incident and links its entities: the incident is upserted (an older copy is refused),
 * then every entity is counted once for it and its entities are linked pairwise. A failure after
 * the upsert is safe to retry: the upsert of the same copy succeeds again and the graph records
 * only what it has not recorded for this incident yet.
 */
export async function storeIncident(
  stores: SyncStores,
  incident: NormalisedIncident,
): Promise<UpsertOutcome> {
  const outcome = await stores.incidents.upsert(incident);
  if (outcome === 'stale') return outcome;
  await stores.graph.record(
    { id: incident.incident_id, kind: 'incident', at: incident.created_at },
    incident.entities.map((entity) => ({ entity, kind: 'incident' as const, at: incident.created_at })),
    edgesFromIncident(incident),
  );
  return outcome;
}

const followUpMessage = /* @__PURE__ */ (() =>
  z.object({
    v: z.literal(INCIDENT_MESSAGE_VERSION),
    follow_up: z.object({
      incident_id: z.string().check(z.minLength(1), z.maxLength(128)),
      round: z.number().check(z.int(), z.gte(0)),
    }),
  }))();

/** A follow-up of an incident's auto-investigation (platform/incident-queue.ts), else undefined. */
function followUpOf(body: string): { incident_id: string; round: number } | undefined {
  try {
    const parsed = followUpMessage.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.follow_up : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The consumer's per-record step: an incident is stored, then investigated when it qualifies
 * (auto-investigation.ts, built only when the deployment turned it on); a follow-up message advances
 * an incident's auto-investigation.
 */
export async function processIncidentMessage(
  stores: SyncStores,
  body: string,
  autoInvestigation?: () => AutoInvestigationContext,
): Promise<UpsertOutcome | 'followed_up'> {
  const followUp = followUpOf(body);
  if (followUp) {
    if (autoInvestigation)
      await followUpAutoInvestigation(autoInvestigation(), followUp.incident_id, followUp.round);
    return 'followed_up';
  }
  const incident = decodeIncidentMessage(body);
  const outcome = await storeIncident(stores, incident);
  if (outcome !== 'stale' && autoInvestigation)
    await investigateArrivedIncident(autoInvestigation(), incident);
  return outcome;
}

/** The consumer's stores of this process (one document client per cold start; rebuilt when tests reset the config). */
const syncContext = /* @__PURE__ */ perConfiguration((cfg) => {
  const doc = documentClientFor(cfg);
  return {
    incidents: incidentsRepositoryFromConfig(cfg, doc),
    graph: graphRepositoryFromConfig(cfg, doc),
  };
});

/** The consumer's stores (one document client per cold start). */
export function syncStores(): SyncStores {
  return syncContext();
}
