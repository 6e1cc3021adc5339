import { pageHref } from './base';
import type { Entity } from './types';

export { UTC_TIME_PATTERN, utcQueryTime } from './utc-time';

/** Times are shown in UTC, as the service records them, to the minute: `2026-11-23 21:40 UTC`. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

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

/** A length of time in its largest whole unit: `1 day`, `6 h`, `30 min`, `45 s`. */
export function duration(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, ' day'],
    [3_600, ' h'],
    [60, ' min'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${count}${unit}${unit === ' day' && count !== 1 ? 's' : ''}`;
    }
  }
  return `${seconds} s`;
}
