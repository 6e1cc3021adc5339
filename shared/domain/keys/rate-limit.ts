import { ValidationError } from '../core/errors';

/**
 * Per-key rate limits. On AWS they are enforced by API Gateway usage plans (token bucket: steady
 * `rate_per_second`, bucket size `burst`; optional quota per UTC day); locally the gateway enforces the
 * same numbers with {@link RateLimiter}. The defaults suit one assistant-platform integration: a chat
 * turn makes a handful of calls, polling runs every few seconds, so 10/s with bursts of 20 is ample
 * while stopping a runaway client. No daily quota by default, because an investigation-heavy day is
 * legitimate; operators set one per key when they want a hard cap.
 */
export interface RateLimitSettings {
  rate_per_second: number;
  burst: number;
  /** Requests per UTC day; absent means unlimited. */
  daily_quota?: number;
}

export const DEFAULT_RATE_LIMIT: Readonly<RateLimitSettings> = Object.freeze({
  rate_per_second: 10,
  burst: 20,
});

/** API Gateway's default account-level throttle; a key cannot meaningfully exceed it. */
export const RATE_LIMIT_BOUNDS = {
  maxRatePerSecond: 10_000,
  maxBurst: 5_000,
  maxDailyQuota: 100_000_000,
} as const;

export function validateRateLimit(settings: RateLimitSettings): RateLimitSettings {
  const problems: { path: string; message: string }[] = [];
  const { rate_per_second: rate, burst, daily_quota: quota } = settings;
  if (!Number.isFinite(rate) || rate <= 0 || rate > RATE_LIMIT_BOUNDS.maxRatePerSecond) {
    problems.push({
      path: 'rate_limit.rate_per_second',
      message: `must be > 0 and ≤ ${RATE_LIMIT_BOUNDS.maxRatePerSecond}`,
    });
  }
  if (!Number.isInteger(burst) || burst < 1 || burst > RATE_LIMIT_BOUNDS.maxBurst) {
    problems.push({
      path: 'rate_limit.burst',
      message: `must be an integer from 1 to ${RATE_LIMIT_BOUNDS.maxBurst}`,
    });
  }
  if (
    quota !== undefined &&
    (!Number.isInteger(quota) || quota < 1 || quota > RATE_LIMIT_BOUNDS.maxDailyQuota)
  ) {
    problems.push({
      path: 'rate_limit.daily_quota',
      message: `must be an integer from 1 to ${RATE_LIMIT_BOUNDS.maxDailyQuota}`,
    });
  }
  if (problems.length) {
    throw new ValidationError(
      `Invalid rate limit: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
      problems,
    );
  }
  return quota === undefined
    ? { rate_per_second: rate, burst }
    : { rate_per_second: rate, burst, daily_quota: quota };
}

/**
 * A deployment's default limits: those of its default usage plan (the stack passes them to key
 * administration), each falling back to the built-in {@link DEFAULT_RATE_LIMIT}. A quota of 0 or none
 * means unlimited. A key created without its own limits is stored with these, so what a listing shows
 * is what the plan enforces.
 */
export function deploymentDefaultRateLimit(overrides: {
  ratePerSecond?: number | undefined;
  burst?: number | undefined;
  dailyQuota?: number | undefined;
}): RateLimitSettings {
  return validateRateLimit({
    rate_per_second: overrides.ratePerSecond ?? DEFAULT_RATE_LIMIT.rate_per_second,
    burst: overrides.burst ?? DEFAULT_RATE_LIMIT.burst,
    ...(overrides.dailyQuota ? { daily_quota: overrides.dailyQuota } : {}),
  });
}

/** Whether a key's limits are exactly the deployment's defaults, so it can share the default plan. */
export function isDefaultRateLimit(
  settings: RateLimitSettings,
  defaults: RateLimitSettings = DEFAULT_RATE_LIMIT,
): boolean {
  return (
    settings.rate_per_second === defaults.rate_per_second &&
    settings.burst === defaults.burst &&
    settings.daily_quota === defaults.daily_quota
  );
}

export interface TokenBucketState {
  tokens: number;
  updatedAtMs: number;
}

export interface DailyCounterState {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  count: number;
}

export type RateLimitDecision =
  | { allowed: true; remainingTokens: number; remainingToday?: number }
  | { allowed: false; reason: 'rate' | 'quota'; retryAfterSeconds: number };

/** Refills the bucket for the time elapsed since it was last touched, capped at the burst size. */
export function refill(
  state: TokenBucketState | undefined,
  limits: RateLimitSettings,
  nowMs: number,
): TokenBucketState {
  if (!state) return { tokens: limits.burst, updatedAtMs: nowMs };
  const elapsedSeconds = Math.max(0, nowMs - state.updatedAtMs) / 1000;
  return {
    tokens: Math.min(limits.burst, state.tokens + elapsedSeconds * limits.rate_per_second),
    updatedAtMs: Math.max(nowMs, state.updatedAtMs),
  };
}

export function utcDay(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

function secondsUntilNextUtcDay(nowMs: number): number {
  const next = new Date(nowMs);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - nowMs) / 1000));
}

/**
 * One request against a key's bucket and daily counter. Pure: returns the decision and the next
 * states. A request refused by either limit consumes neither, as with API Gateway.
 */
export function takeToken(
  bucket: TokenBucketState | undefined,
  counter: DailyCounterState | undefined,
  limits: RateLimitSettings,
  nowMs: number,
): { decision: RateLimitDecision; bucket: TokenBucketState; counter: DailyCounterState } {
  const refilled = refill(bucket, limits, nowMs);
  const today = utcDay(nowMs);
  const count = counter?.day === today ? counter.count : 0;
  const currentCounter = { day: today, count };
  if (limits.daily_quota !== undefined && count >= limits.daily_quota) {
    return {
      decision: { allowed: false, reason: 'quota', retryAfterSeconds: secondsUntilNextUtcDay(nowMs) },
      bucket: refilled,
      counter: currentCounter,
    };
  }
  if (refilled.tokens < 1) {
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - refilled.tokens) / limits.rate_per_second));
    return {
      decision: { allowed: false, reason: 'rate', retryAfterSeconds },
      bucket: refilled,
      counter: currentCounter,
    };
  }
  const nextBucket = { tokens: refilled.tokens - 1, updatedAtMs: refilled.updatedAtMs };
  const nextCounter = { day: today, count: count + 1 };
  return {
    decision: {
      allowed: true,
      remainingTokens: Math.floor(nextBucket.tokens),
      ...(limits.daily_quota !== undefined ? { remainingToday: limits.daily_quota - nextCounter.count } : {}),
    },
    bucket: nextBucket,
    counter: nextCounter,
  };
}

/** The limits the authorizer hands over in its context (`dailyQuota` 0 means unlimited). */
export function rateLimitFromContext(context: {
  rateLimitPerSecond?: unknown;
  burstLimit?: unknown;
  dailyQuota?: unknown;
}): RateLimitSettings {
  const rate = Number(context.rateLimitPerSecond);
  const burst = Number(context.burstLimit);
  const quota = Number(context.dailyQuota);
  return {
    rate_per_second: Number.isFinite(rate) && rate > 0 ? rate : DEFAULT_RATE_LIMIT.rate_per_second,
    burst: Number.isInteger(burst) && burst >= 1 ? burst : DEFAULT_RATE_LIMIT.burst,
    ...(Number.isInteger(quota) && quota > 0 ? { daily_quota: quota } : {}),
  };
}

/**
 * In-memory limiter for the local gateway: one bucket and one daily counter per usage identifier,
 * with the clock injected so tests control time. State is per process, like one API Gateway stage.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucketState>();
  private readonly counters = new Map<string, DailyCounterState>();

  constructor(private readonly now: () => number = Date.now) {}

  check(identifier: string, limits: RateLimitSettings): RateLimitDecision {
    const result = takeToken(this.buckets.get(identifier), this.counters.get(identifier), limits, this.now());
    this.buckets.set(identifier, result.bucket);
    this.counters.set(identifier, result.counter);
    return result.decision;
  }

  reset(): void {
    this.buckets.clear();
    this.counters.clear();
  }
}
