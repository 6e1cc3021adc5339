import { perConfiguration } from '../../config';
import { entitiesWithInvestigations } from '../../domain/incidents/auto-investigation';
import {
  type IncidentStatus,
  type IncidentView,
  SEVERITIES,
  type Severity,
  toIncidentView,
} from '../../domain/incidents/incident';
import { AutoInvestigationRepository } from '../../store/auto-investigation/auto-investigation-repository';
import { documentClientFor } from '../../store/dynamo-client';
import {
  type IncidentsRepository,
  incidentsRepositoryFromConfig,
  isIncidentListPosition,
} from '../../store/incidents-repository';
import { tableName } from '../../store/tables';
import * as z from '../../zod';
import { deploymentCursorCodec } from '../auth/cursor-secrets';

/**
 * List Recent Incidents: newest first by the SIEM's created_at, filtered by severity (all by
 * default), status and a created_at range (`since` inclusive, `until` exclusive). The cursor is
 * bound to the filters, so it cannot be replayed with other ones.
 */
export interface ListIncidentsInput {
  severity?: Severity[] | undefined;
  status?: IncidentStatus[] | undefined;
  since?: string | undefined;
  until?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export interface ListIncidentsResult {
  incidents: IncidentView[];
  next_cursor: string | null;
}

const position = /* @__PURE__ */ (() =>
  z.object({ after: z.string().check(z.refine(isIncidentListPosition)) }))();

/** What the incidents' views read of their entities' investigations (auto-investigation). */
export type InvestigationsReader = Pick<AutoInvestigationRepository, 'investigationsOf'>;

export async function listIncidents(
  incidents: IncidentsRepository,
  publicUrl: string,
  input: ListIncidentsInput,
  investigations?: InvestigationsReader,
): Promise<ListIncidentsResult> {
  const severities = input.severity?.length
    ? SEVERITIES.filter((s) => input.severity?.includes(s))
    : [...SEVERITIES];
  const statuses = input.status?.length ? [...input.status].sort() : undefined;
  const binding = {
    op: 'listIncidents',
    severity: severities,
    status: statuses,
    since: input.since,
    until: input.until,
  };
  const after = input.cursor
    ? (await deploymentCursorCodec()).decode(input.cursor, binding, position).after
    : undefined;
  const page = await incidents.list({
    severities,
    statuses,
    since: input.since,
    until: input.until,
    limit: input.limit,
    after,
  });
  const known = investigations
    ? await investigations.investigationsOf(page.incidents.map((incident) => incident.incident_id))
    : new Map();
  return {
    incidents: page.incidents.map((incident) => ({
      ...toIncidentView(incident, publicUrl),
      entities: entitiesWithInvestigations(
        incident.entities,
        known.get(incident.incident_id)?.investigations,
      ),
    })),
    next_cursor: page.next ? (await deploymentCursorCodec()).encode({ after: page.next }, binding) : null,
  };
}

/** The incidents' investigations of this process (one per cold start). */
export const incidentInvestigations: () => InvestigationsReader = /* @__PURE__ */ perConfiguration(
  (cfg) => new AutoInvestigationRepository(documentClientFor(cfg), tableName(cfg, 'incidents')),
);

/** The incident store of this process (one per cold start; rebuilt when tests reset the config). */
export const incidentStore: () => IncidentsRepository = /* @__PURE__ */ perConfiguration((cfg) =>
  incidentsRepositoryFromConfig(cfg),
);
