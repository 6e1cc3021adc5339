import { perConfiguration } from '../../config';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../domain/core/errors';
import { VERDICTS, type Verdict } from '../../domain/core/vocabulary';
import { entitiesWithInvestigations } from '../../domain/incidents/auto-investigation';
import { incidentLink } from '../../domain/incidents/incident';
import { assertOwner, ownerOf } from '../../domain/keys/ownership';
import type { Caller, ConsoleUser, StartChannel } from '../../domain/keys/scopes';
import { termsForQuery } from '../../domain/search/search-terms';
import type { AutoInvestigationRepository } from '../../store/auto-investigation/auto-investigation-repository';
import type { IncidentsRepository } from '../../store/incidents-repository';
import { type KeysRepository, keysRepositoryFromConfig } from '../../store/keys-repository';
import { isPostingSortKey } from '../../store/search-index/keys';
import { TenantListRepository } from '../../store/search-index/tenant-list-repository';
import { BatchRepository } from '../../store/sessions/batch-repository';
import { onSessionsTable } from '../../store/sessions-table';
import * as z from '../../zod';
import { deploymentCursorCodec } from '../auth/cursor-secrets';

/**
 * What the web console reads beyond the plugin's services: the signed-in person, every session of
 * the tenant (listing and search), one incident in full, and the key audit trail. Console users are
 * `tenantWide` callers, so the investigation services' owner checks let them read any session.
 */
/** Who is signed in, with the role the console shows pages for; an API key (no person) is refused. */
export function consoleMe(user: ConsoleUser | undefined) {
  if (!user) throw new UnauthorizedError('A console sign-in is required.');
  return {
    username: user.username,
    ...(user.email ? { email: user.email } : {}),
    role: user.role,
    groups: user.groups,
  };
}

export interface ConsoleSessionsInput {
  q?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  batch_id?: string | undefined;
}

/** Where the list reads a batch's sessions from (the batch route's repository). */
export type BatchSessions = Pick<BatchRepository, 'get' | 'sessions'>;

export const batchSessionsStore = /* @__PURE__ */ perConfiguration(
  (cfg): BatchSessions => onSessionsTable(cfg, BatchRepository),
);

const sessionsPosition = /* @__PURE__ */ (() =>
  z.object({ after: z.string().check(z.refine(isPostingSortKey)) }))();

/**
 * Who started each session, with a name a person recognises: the key's name from the keys table, or
 * the person's console username, which sessions record when a person starts them (for sessions from
 * before that, only the signed-in person's own are named; others show a short form of the ID).
 */
async function startersNamed(
  keys: KeysRepository,
  caller: Caller,
  entries: readonly { owner_key_id: string; owner_name?: string }[],
) {
  const names = new Map<string, string | null>();
  for (const entry of entries) if (entry.owner_name) names.set(entry.owner_key_id, entry.owner_name);
  await Promise.all(
    [...new Set(entries.map((entry) => entry.owner_key_id))].map(async (ownerId) => {
      if (names.has(ownerId)) return;
      const owner = ownerOf(ownerId);
      if (owner.kind === 'user') {
        names.set(ownerId, caller.user && owner.id === caller.user.sub ? caller.user.username : null);
      } else {
        names.set(ownerId, (await keys.nameOf(owner.id)) ?? null);
      }
    }),
  );
  return names;
}

export async function listTenantSessions(
  index: TenantListRepository,
  keys: KeysRepository,
  caller: Caller,
  input: ConsoleSessionsInput,
  batches?: BatchSessions,
) {
  if (input.batch_id && batches) return listBatchSessions(batches, keys, caller, input);
  const terms = input.q ? termsForQuery(input.q).terms : [];
  const binding = { op: 'consoleSessions', user: caller.keyId, terms };
  const after = input.cursor
    ? (await deploymentCursorCodec()).decode(input.cursor, binding, sessionsPosition).after
    : undefined;
  const page = await index.list({ terms, limit: input.limit, after });
  const names = await startersNamed(keys, caller, page.hits);
  return {
    results: page.hits.map((entry) => ({
      session_id: entry.session_id,
      status: entry.status,
      entity: entry.entity,
      persona: entry.persona,
      risk_score: entry.risk_score ?? null,
      verdict: entry.verdict ?? null,
      summary: entry.summary ?? null,
      created_at: entry.created_at,
      owner: ownerView(entry, names),
    })),
    next_cursor: page.next ? (await deploymentCursorCodec()).encode({ after: page.next }, binding) : null,
  };
}

function ownerView(
  entry: { owner_key_id: string; started_via?: StartChannel | undefined },
  names: ReadonlyMap<string, string | null>,
) {
  return {
    ...ownerOf(entry.owner_key_id),
    name: names.get(entry.owner_key_id) ?? null,
    ...(entry.started_via ? { via: entry.started_via } : {}),
  };
}

const isVerdict = (value: unknown): value is Verdict => (VERDICTS as readonly unknown[]).includes(value);

/**
 * The sessions of one batch, newest first, in one page (a batch holds at most 100): read from the
 * batch and its sessions' records, not the search postings. Console users read every batch of the
 * tenant (tenant-wide callers); a search or a cursor does not combine with it.
 */
async function listBatchSessions(
  batches: BatchSessions,
  keys: KeysRepository,
  caller: Caller,
  input: ConsoleSessionsInput,
) {
  if (input.q || input.cursor) {
    throw new ValidationError('batch_id lists a whole batch; it does not combine with q or cursor.', [
      { path: input.q ? 'q' : 'cursor', message: 'not allowed with batch_id' },
    ]);
  }
  const batch = assertOwner(await batches.get(String(input.batch_id)), caller, 'batch');
  const ids = batch.entries.flatMap((entry) => ('session_id' in entry ? [entry.session_id] : []));
  const records = await batches.sessions(ids);
  const sessions = ids
    .flatMap((id) => records.get(id) ?? [])
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.session_id.localeCompare(a.session_id));
  const names = await startersNamed(keys, caller, sessions);
  return {
    results: sessions.map((session) => {
      const report = session.report_summary ?? session.report;
      return {
        session_id: session.session_id,
        status: session.status,
        entity: session.entity,
        persona: session.persona,
        risk_score: typeof report?.risk_score === 'number' ? report.risk_score : null,
        verdict: isVerdict(report?.verdict) ? report.verdict : null,
        summary: session.report?.summary ?? null,
        created_at: session.created_at,
        owner: ownerView(session, names),
      };
    }),
    next_cursor: null,
  };
}

export async function getIncident(
  incidents: IncidentsRepository,
  publicUrl: string,
  incidentId: string,
  investigations?: Pick<AutoInvestigationRepository, 'investigationsOf'>,
) {
  const incident = await incidents.get(incidentId);
  if (!incident) throw new NotFoundError('No incident with this ID.');
  const known = (await investigations?.investigationsOf([incidentId]))?.get(incidentId);
  return {
    incident_id: incident.incident_id,
    title: incident.title,
    description: incident.description ?? null,
    severity: incident.severity,
    status: incident.status,
    link: incidentLink(publicUrl, incident.incident_id),
    source: incident.source,
    source_id: incident.source_id,
    source_url: incident.source_url ?? null,
    origin: incident.origin ?? null,
    created_at: incident.created_at,
    updated_at: incident.updated_at,
    entities: entitiesWithInvestigations(incident.entities, known?.investigations),
  };
}

const auditPosition = /* @__PURE__ */ (() =>
  z.object({
    after: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T[0-9:.]+Z#[A-Za-z0-9_-]{1,64}$/)),
  }))();

export async function keyAuditTrail(
  keys: KeysRepository,
  caller: Caller,
  input: { limit: number; cursor?: string | undefined },
) {
  const binding = { op: 'keyAudit', user: caller.keyId };
  const after = input.cursor
    ? (await deploymentCursorCodec()).decode(input.cursor, binding, auditPosition).after
    : undefined;
  const page = await keys.auditPage(input.limit, after);
  return {
    entries: page.entries.map((entry) => ({
      at: entry.at,
      action: entry.action,
      key_id: entry.key_id,
      actor: entry.actor,
      details: entry.details,
    })),
    next_cursor: page.next ? (await deploymentCursorCodec()).encode({ after: page.next }, binding) : null,
  };
}

/**
 * The keys table of this process, for the audit trail and the key names of sessions that did not
 * record them (rebuilt when tests reset the config).
 */
export const keysStore: () => KeysRepository = /* @__PURE__ */ perConfiguration((cfg) =>
  keysRepositoryFromConfig(cfg),
);

/** The tenant's list of sessions in the search index, for the console's sessions page. */
export const tenantSessions: () => TenantListRepository = /* @__PURE__ */ perConfiguration((cfg) =>
  onSessionsTable(cfg, TenantListRepository),
);
