import { perConfiguration } from '../../config';
import {
  type IncidentStatus,
  type IncidentView,
  SEVERITIES,
  type Severity,
  toIncidentView,
} from '../../domain/incidents/incident';
import {
  type IncidentsRepository,
  incidentsRepositoryFromConfig,
  isIncidentListPosition,
} from '../../store/incidents-repository';
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

export async function listIncidents(
  incidents: IncidentsRepository,
  publicUrl: string,
  input: ListIncidentsInput,
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
  return {
    incidents: page.incidents.map((incident) => toIncidentView(incident, publicUrl)),
    next_cursor: page.next ? (await deploymentCursorCodec()).encode({ after: page.next }, binding) : null,
  };
}

/** The incident store of this process (one per cold start; rebuilt when tests reset the config). */
export const incidentStore: () => IncidentsRepository = /* @__PURE__ */ perConfiguration((cfg) =>
  incidentsRepositoryFromConfig(cfg),
);
