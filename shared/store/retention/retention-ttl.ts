import { perConfiguration } from '../../config';
import { expiryEpoch, idTimeMs, isExpired, type RetentionDays } from '../../domain/retention/retention';

/**
 * The TTL attribute every store writes (the tables' `ttlAttribute`, tables.ts), from the configured
 * retention of the item's kind (shared/domain/retention/retention.ts). Each helper returns the
 * attribute to spread into an item, or nothing when that kind is kept forever.
 */
export const TTL_ATTRIBUTE = 'expires_at_epoch';

type Ttl = { expires_at_epoch?: number };

const configured = /* @__PURE__ */ perConfiguration(
  (cfg): RetentionDays => ({
    sessions: cfg.SIS_SESSION_RETENTION_DAYS,
    incidents: cfg.SIS_INCIDENT_RETENTION_DAYS,
    graph: cfg.SIS_GRAPH_RETENTION_DAYS,
    audit: cfg.SIS_AUDIT_RETENTION_DAYS,
  }),
);

/** The configured retention, in days per kind (parsed with the configuration: fails fast). */
export const retentionDays = (): RetentionDays => configured();

const ttl = (epoch: number | undefined): Ttl => (epoch === undefined ? {} : { expires_at_epoch: epoch });

/**
 * Every item of a session's partition (and its verdict entry, its batch) expires with the session:
 * counted from the creation time its ULID-style ID carries, so a history item written a week later
 * gets the same TTL as META without reading it. An ID of another shape counts from now.
 */
export function sessionTtl(sessionId: string, nowMs: number = Date.now()): Ttl {
  return ttl(expiryEpoch(idTimeMs(sessionId) ?? nowMs, retentionDays().sessions));
}

/** An incident's items, counted from its creation (ISO time). */
export function incidentTtl(createdAt: string): Ttl {
  return ttl(expiryEpoch(Date.parse(createdAt), retentionDays().incidents));
}

/** A graph item, counted from this sighting (written on every sighting, so last seen + N). */
export function graphTtl(seenAt: string | number = Date.now()): Ttl {
  const ms = typeof seenAt === 'number' ? seenAt : Date.parse(seenAt);
  return ttl(expiryEpoch(ms, retentionDays().graph));
}

/** An audit record, counted from the audited action (ISO time). */
export function auditTtl(at: string): Ttl {
  return ttl(expiryEpoch(Date.parse(at), retentionDays().audit));
}

/** Whether a read item is past its TTL but not yet deleted by DynamoDB (which takes up to days). */
export function expiredItem(item: Record<string, unknown> | undefined, nowMs: number = Date.now()): boolean {
  return item !== undefined && isExpired(item[TTL_ATTRIBUTE], nowMs);
}

/** A read item, or undefined when it is past its TTL. */
export function live<T extends Record<string, unknown>>(item: T | undefined, nowMs?: number): T | undefined {
  return expiredItem(item, nowMs) ? undefined : item;
}
