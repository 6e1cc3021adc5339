/**
 * How long each kind of data is kept (docs/deploy.md "Retention"): a number of days after the
 * moment the kind counts from, 0 = kept forever. DynamoDB TTL deletes an item some time after its
 * `expires_at_epoch` (up to a few days later), so readers also treat an item past it as gone.
 *
 * - sessions:  a session and everything under it (history, tool results, analyst state, report,
 *              verdict index entries, batches), from the session's creation;
 * - incidents: an incident, from its creation;
 * - graph:     nodes, edges and evidence markers, from the last time an investigation or an incident
 *              saw them (each sighting pushes the expiry on);
 * - audit:     the admin audit list, from the audited action; kept longest.
 */
export const RETENTION_KINDS = ['sessions', 'incidents', 'graph', 'audit'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export type RetentionDays = Readonly<Record<RetentionKind, number>>;

/** The defaults: a year of investigations and incidents, half a year of an unseen graph, 7 years of audit. */
export const DEFAULT_RETENTION_DAYS: RetentionDays = {
  sessions: 365,
  incidents: 365,
  graph: 180,
  audit: 2555,
};
/** The longest a kind may be given (100 years); 0 = forever is always allowed. */
export const MAX_RETENTION_DAYS = 36_500;

const DAY_SECONDS = 86_400;

/** The TTL (epoch seconds) of an item counted from `fromMs` (epoch ms); undefined = kept forever. */
export function expiryEpoch(fromMs: number, days: number): number | undefined {
  if (days <= 0 || !Number.isFinite(fromMs)) return undefined;
  return Math.floor(fromMs / 1000) + days * DAY_SECONDS;
}

/** Whether an item with this TTL is past it at `nowMs` (an item without a TTL never is). */
export function isExpired(expiresAtEpoch: unknown, nowMs: number): boolean {
  return typeof expiresAtEpoch === 'number' && expiresAtEpoch * 1000 <= nowMs;
}

/**
 * Why these retention periods would contradict "audit kept longest": the audit list records who
 * changed keys and tenant knowledge, so it must outlive every other kind (forever outlives all).
 * Undefined when they are consistent.
 */
export function retentionProblem(days: RetentionDays): string | undefined {
  if (days.audit === 0) return undefined;
  const longer = RETENTION_KINDS.filter(
    (kind) => kind !== 'audit' && (days[kind] === 0 || days[kind] > days.audit),
  );
  if (longer.length === 0) return undefined;
  const named = longer.map((kind) => `${kind} ${days[kind] === 0 ? 'forever (0)' : `${days[kind]} days`}`);
  return `must be at least as long as every other retention (audit is kept longest): ${named.join(', ')} outlive audit's ${days.audit} days; raise it or set 0 (forever)`;
}

const ULID_TIME = /^[a-z]_([0-9A-HJKMNP-TV-Z]{10})[0-9A-HJKMNP-TV-Z]{16}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The creation time (epoch ms) a ULID-style ID (`s_<26>`, newId) carries in its first 10
 * characters; undefined for an ID of another shape.
 */
export function idTimeMs(id: string): number | undefined {
  const time = ULID_TIME.exec(id)?.[1];
  if (!time) return undefined;
  let ms = 0;
  for (const char of time) ms = ms * 32 + CROCKFORD.indexOf(char);
  return ms;
}
