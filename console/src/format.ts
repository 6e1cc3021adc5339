import { pageHref } from './base';
import type { Entity } from './types';

/** Times are shown in UTC, as the service records them, to the minute: `2026-11-23 21:40 UTC`. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * What a person types into a "(UTC)" field, as the API's time: `2026-11-23` stays a date (the day's
 * start in UTC), `2026-11-23 14:00` or `2026-11-23T14:00` becomes `2026-11-23T14:00:00Z`. Anything else
 * is sent as typed, for the service to explain.
 */
export function utcQueryTime(text: string): string {
  const typed = text.trim();
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?Z?$/i.exec(typed);
  return match ? `${match[1]}T${match[2]}${match[3] ?? ':00'}Z` : typed;
}

/** The pattern of the "(UTC)" date-time fields: a date, optionally with a time. */
export const UTC_TIME_PATTERN = '\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?Z?)?';

export function graphHref(entity: Entity): string {
  return pageHref(`/graph/${encodeURIComponent(entity.value)}?type=${entity.type}`);
}

export function sessionHref(sessionId: string): string {
  return pageHref(`/sessions/${encodeURIComponent(sessionId)}`);
}

export function incidentHref(incidentId: string): string {
  return pageHref(`/incidents/${encodeURIComponent(incidentId)}`);
}

export function attackHref(techniqueId: string): string {
  return `https://attack.mitre.org/techniques/${techniqueId.replace('.', '/')}/`;
}

export const DAY_MS = 24 * 3600 * 1000;

/** A key expiring within this many days is flagged "expires soon" (OpenCTI and MISP do the same). */
export const EXPIRES_SOON_DAYS = 14;

export function expiresSoon(expiresAt: string, now = Date.now()): boolean {
  const left = new Date(expiresAt).getTime() - now;
  return left > 0 && left < EXPIRES_SOON_DAYS * DAY_MS;
}
