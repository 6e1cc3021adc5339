import { UsageError } from './errors';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** "90", "90s", "15m", "24h", "7d", "1w" → seconds. */
export function parseDuration(value: string, what: string): number {
  const match = /^(\d+)\s*([smhdw]?)$/i.exec(value.trim());
  if (!match)
    throw new UsageError(`Invalid ${what} "${value}": use a number with s, m, h, d or w (e.g. 1h).`);
  return Number(match[1]) * (UNIT_SECONDS[(match[2] || 's').toLowerCase()] ?? 1);
}

/** --since: a duration back from now ("24h") or a time the API reads as is (ISO 8601 or a date). */
export function sinceToTime(value: string, now = new Date()): string {
  if (/^\d+\s*[smhdw]$/i.test(value.trim())) {
    return new Date(now.getTime() - parseDuration(value, '--since') * 1000).toISOString();
  }
  return value;
}

export function parsePositiveInt(value: string, what: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`Invalid ${what} "${value}": give a whole number ≥ 1.`);
  return Number(value);
}
