import { perConfiguration } from '../../config';
import { type Entity, entityKey } from '../../domain/core/entity';
import type { Verdict } from '../../domain/core/vocabulary';
import {
  AUTO_INVESTIGATION_NAME,
  AUTO_INVESTIGATION_WINDOW_SECONDS,
  autoInvestigatedEntities,
  type EntityInvestigation,
  enrichmentDue,
  qualifiesForAutoInvestigation,
} from '../../domain/incidents/auto-investigation';
import { incidentLink, type NormalisedIncident } from '../../domain/incidents/incident';
import { SYSTEM_OWNER_ID } from '../../domain/keys/ownership';
import type { Caller } from '../../domain/keys/scopes';
import { METRIC } from '../../metric-names';
import { countMetric, logger } from '../../observability';
import { type IncidentFollowUps, incidentFollowUpsFromConfig } from '../../platform/incident-queue';
import { AutoInvestigationRepository } from '../../store/auto-investigation/auto-investigation-repository';
import { documentClientFor } from '../../store/dynamo-client';
import { type IncidentsRepository, incidentsRepositoryFromConfig } from '../../store/incidents-repository';
import { BatchRepository } from '../../store/sessions/batch-repository';
import { onSessionsTable } from '../../store/sessions-table';
import { tableName } from '../../store/tables';
import { runningRoom, startInvestigation } from '../investigations/investigations';
import { type LifecycleContext, lifecycleContext } from '../sessions/lifecycle-context';
import { sessionUrl } from '../sessions/session-context';
import { webhookContext } from '../webhooks/webhook-context';
import { publishWebhookEvent } from '../webhooks/webhook-events';

/**
 * Incidents investigated as they arrive (docs/soar.md, "Incidents investigated as they arrive"). The
 * incident queue's consumer, after storing an incident that qualifies, starts a background
 * investigation of each of its entities as the system principal, as far as the running cap allows;
 * then it schedules a follow-up on the same queue (delayed), which starts the entities that had to
 * wait, records the sessions' outcomes on the incident and, once all have ended, fires
 * `incident.enriched` once. A burst of incidents is thereby queued, never dropped, and never runs
 * more than SIS_MAX_RUNNING_INVESTIGATIONS investigations at once.
 */
export interface AutoInvestigationContext extends LifecycleContext {
  claims: AutoInvestigationRepository;
  sessionRecords: Pick<BatchRepository, 'sessions'>;
  incidents: Pick<IncidentsRepository, 'get'>;
  followUps: IncidentFollowUps;
  /** incidentEnriched below; tests pass their own to see what it is given. */
  enriched: (event: IncidentEnrichedEvent) => Promise<void>;
}

export interface IncidentEnrichedEvent {
  incident_id: string;
  link: string;
  sessions: (EntityInvestigation & { session_url: string })[];
}

/** The system principal: its own running count and daily quota (SIS_AUTO_INVESTIGATE_DAILY_QUOTA). */
const SYSTEM_CALLER: Caller = {
  keyId: SYSTEM_OWNER_ID,
  role: 'client',
  scopes: ['investigations:write'],
  keyName: AUTO_INVESTIGATION_NAME,
};

/** Follow-ups stop after this many rounds (at the default 30 s, past the workflow's hour and more). */
const MAX_FOLLOW_UP_ROUNDS = 240;

/**
 * Tells the subscribed receivers (docs/soar.md "Webhooks"): called once per incident, after the
 * conditional `enriched_at` write, when every investigated entity's session has ended. A publish that
 * fails is logged, never thrown: the incident's processing is done, and a retry of its message would
 * find `enriched_at` written and publish nothing.
 */
export async function incidentEnriched(event: IncidentEnrichedEvent): Promise<void> {
  logger.info('incident enriched', { incident_id: event.incident_id, sessions: event.sessions.length });
  try {
    await publishWebhookEvent(webhookContext(), { type: 'incident.enriched', data: { ...event } });
  } catch (error) {
    logger.error('incident.enriched not published', {
      incident_id: event.incident_id,
      reason: error instanceof Error ? error.name : 'unknown',
    });
  }
}

export const autoInvestigationContext = /* @__PURE__ */ perConfiguration((cfg): AutoInvestigationContext => {
  const doc = documentClientFor(cfg);
  return {
    ...lifecycleContext(),
    claims: new AutoInvestigationRepository(doc, tableName(cfg, 'incidents')),
    sessionRecords: onSessionsTable(cfg, BatchRepository, doc),
    incidents: incidentsRepositoryFromConfig(cfg, doc),
    followUps: incidentFollowUpsFromConfig(cfg),
    enriched: incidentEnriched,
  };
});

/** After an incident was stored: investigates its entities when it qualifies (push or pull, severity). */
export async function investigateArrivedIncident(
  ctx: AutoInvestigationContext,
  incident: NormalisedIncident,
) {
  if (!qualifiesForAutoInvestigation(incident, ctx.cfg.SIS_AUTO_INVESTIGATE_SEVERITY)) return;
  await advanceAutoInvestigation(ctx, incident, 0);
}

/** A follow-up message: the incident's investigations looked at again. */
export async function followUpAutoInvestigation(
  ctx: AutoInvestigationContext,
  incidentId: string,
  round: number,
) {
  const incident = await ctx.incidents.get(incidentId);
  if (!incident) return;
  await advanceAutoInvestigation(ctx, incident, round);
}

/**
 * One step: start what may start, record what is known, fire `incident.enriched` when due, else
 * look again later. Safe to run twice (a redelivered message): claims and the enrichment mark are
 * conditional writes.
 */
async function advanceAutoInvestigation(
  ctx: AutoInvestigationContext,
  incident: NormalisedIncident,
  round: number,
) {
  const entities = autoInvestigatedEntities(incident);
  if (entities.length === 0) return;
  const known = (await ctx.claims.investigationsOf([incident.incident_id])).get(incident.incident_id);
  if (known?.enriched_at) return;
  const sessionIds = await startWhatMayStart(ctx, entities);
  const records = await ctx.sessionRecords.sessions([...sessionIds.values()]);
  const investigations: EntityInvestigation[] = entities.flatMap((entity) => {
    const sessionId = sessionIds.get(entityKey(entity));
    if (!sessionId) return [];
    const session = records.get(sessionId);
    const report = session?.report_summary ?? session?.report;
    return [
      {
        entity,
        session_id: sessionId,
        status: session?.status ?? 'initialized',
        ...(report?.verdict ? { verdict: report.verdict as Verdict } : {}),
        ...(typeof report?.risk_score === 'number' ? { risk_score: report.risk_score } : {}),
      },
    ];
  });
  await ctx.claims.recordInvestigations(incident.incident_id, investigations);
  if (enrichmentDue(entities, investigations, false)) {
    if (await ctx.claims.markEnriched(incident.incident_id, ctx.now().toISOString())) {
      await ctx.enriched({
        incident_id: incident.incident_id,
        link: incidentLink(ctx.cfg.SIS_PUBLIC_URL, incident.incident_id),
        sessions: investigations.map((i) => ({ ...i, session_url: sessionUrl(ctx.cfg, i.session_id) })),
      });
    }
    return;
  }
  if (round >= MAX_FOLLOW_UP_ROUNDS) {
    logger.warn('auto-investigation follow-ups ended before every session did', {
      incident_id: incident.incident_id,
    });
    return;
  }
  await ctx.followUps.schedule(incident.incident_id, round + 1, ctx.cfg.SIS_AUTO_INVESTIGATE_RECHECK_SECONDS);
}

/**
 * The session of each entity: the one its live claim names (started for this or another incident
 * in the last 24 h), or one started now when the running cap and the daily quota allow. An entity
 * left without one is tried again at the next follow-up.
 */
async function startWhatMayStart(
  ctx: AutoInvestigationContext,
  entities: Entity[],
): Promise<Map<string, string>> {
  const now = ctx.now();
  const nowEpoch = Math.floor(now.getTime() / 1000);
  const claims = await ctx.claims.claims(entities);
  const sessions = new Map<string, string>();
  let room: number | undefined;
  let deferred = 0;
  for (const entity of entities) {
    const claim = claims.get(entityKey(entity));
    if (claim && claim.until_epoch >= nowEpoch) {
      if (claim.session_id) sessions.set(entityKey(entity), claim.session_id);
      continue; // a claim without a session yet: another consumer is starting it
    }
    room ??= (await runningRoom(ctx, SYSTEM_CALLER, now)).left;
    if (room <= 0 || !(await ctx.claims.claim(entity, nowEpoch, AUTO_INVESTIGATION_WINDOW_SECONDS))) {
      deferred += room <= 0 ? 1 : 0;
      continue;
    }
    try {
      const outcome = await startInvestigation(
        ctx,
        SYSTEM_CALLER,
        { entity, background: true, include_tool_calls: false, include_raw_results: false },
        { runningChecked: true, dailyQuota: ctx.cfg.SIS_AUTO_INVESTIGATE_DAILY_QUOTA },
      );
      const sessionId = String(outcome.body.session_id);
      await ctx.claims.setSession(entity, sessionId);
      sessions.set(entityKey(entity), sessionId);
      room -= 1;
      countMetric(METRIC.autoInvestigationsStarted);
    } catch (error) {
      // The daily quota (or a start that failed): the claim goes back and the next follow-up retries.
      await ctx.claims.release(entity);
      deferred += 1;
      logger.warn('auto-investigation start deferred', { error: error as Error });
    }
  }
  if (deferred > 0) countMetric(METRIC.autoInvestigationsDeferred, deferred);
  return sessions;
}
