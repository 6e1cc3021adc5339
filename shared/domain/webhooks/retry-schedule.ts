/**
 * When a failed delivery is tried again: `SIS_WEBHOOK_RETRY_SCHEDULE`, the seconds to wait before
 * each further attempt (comma-separated). The default spreads 8 attempts over about 11 hours, in the
 * spirit of Standard Webhooks' example schedule. Each wait gets ±20 % jitter, so receivers that fail
 * together are not retried together; a receiver's `Retry-After` longer than the wait replaces it: the
 * receiver knows when it can take the delivery again, and an attempt before then is wasted. It is
 * capped at MAX_RETRY_WAIT_SECONDS (one day, the longest wait the schedule itself may list), so a
 * receiver cannot park a delivery for ever; the schedule's length still bounds the attempts.
 */
export const DEFAULT_RETRY_SCHEDULE = [5, 60, 300, 1800, 3600, 7200, 28800] as const;
export const MAX_RETRY_WAIT_SECONDS = 86_400;
export const MAX_RETRIES = 20;
const JITTER = 0.2;

export function parseRetrySchedule(text: string): number[] {
  const waits = text.split(',').map((part) => part.trim());
  if (waits.length === 0 || waits.length > MAX_RETRIES) {
    throw new Error(`must list 1 to ${MAX_RETRIES} waits in seconds, comma-separated`);
  }
  return waits.map((part) => {
    if (!/^\d{1,6}$/.test(part) || Number(part) < 1 || Number(part) > MAX_RETRY_WAIT_SECONDS) {
      throw new Error(`"${part}" is not a wait of 1 to ${MAX_RETRY_WAIT_SECONDS} seconds`);
    }
    return Number(part);
  });
}

/**
 * The wait before the attempt after `attemptsMade` failed ones, or undefined when the schedule is
 * exhausted (the delivery has failed). `random` in [0, 1) draws the jitter.
 */
export function nextRetryWait(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const base = schedule[attemptsMade - 1];
  if (base === undefined) return undefined;
  const jittered = Math.max(1, Math.round(base * (1 - JITTER + 2 * JITTER * random())));
  if (retryAfterSeconds === undefined) return jittered;
  return Math.max(jittered, Math.min(Math.ceil(retryAfterSeconds), MAX_RETRY_WAIT_SECONDS));
}
