import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  DEFAULT_RATE_LIMIT,
  isDefaultRateLimit,
  RateLimiter,
  rateLimitFromContext,
  takeToken,
  validateRateLimit,
} from '../../../shared/domain/keys/rate-limit';

function clock(start = Date.parse('2026-11-01T12:00:00.000Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('token bucket', () => {
  it('allows a full burst at once, then refuses until tokens refill', () => {
    const time = clock();
    const limiter = new RateLimiter(time.now);
    const limits = { rate_per_second: 10, burst: 20 };
    for (let i = 0; i < 20; i++) expect(limiter.check('k', limits).allowed).toBe(true);
    expect(limiter.check('k', limits)).toEqual({ allowed: false, reason: 'rate', retryAfterSeconds: 1 });
    time.advance(99);
    expect(limiter.check('k', limits).allowed).toBe(false);
    time.advance(1);
    expect(limiter.check('k', limits).allowed).toBe(true);
    expect(limiter.check('k', limits).allowed).toBe(false);
  });

  it('sustains exactly the steady rate over time', () => {
    const time = clock();
    const limiter = new RateLimiter(time.now);
    const limits = { rate_per_second: 5, burst: 1 };
    let allowed = 0;
    for (let ms = 0; ms < 10_000; ms += 10) {
      if (limiter.check('k', limits).allowed) allowed++;
      time.advance(10);
    }
    expect(allowed).toBe(50);
  });

  it('never stores more than the burst however long the key was idle', () => {
    const time = clock();
    const limiter = new RateLimiter(time.now);
    const limits = { rate_per_second: 100, burst: 3 };
    limiter.check('k', limits);
    time.advance(3_600_000);
    const results = Array.from({ length: 4 }, () => limiter.check('k', limits).allowed);
    expect(results).toEqual([true, true, true, false]);
  });

  it('keeps keys independent', () => {
    const limiter = new RateLimiter(clock().now);
    const limits = { rate_per_second: 1, burst: 1 };
    expect(limiter.check('a', limits).allowed).toBe(true);
    expect(limiter.check('a', limits).allowed).toBe(false);
    expect(limiter.check('b', limits).allowed).toBe(true);
  });

  it('computes Retry-After from the missing fraction of a token', () => {
    const time = clock();
    const limiter = new RateLimiter(time.now);
    const limits = { rate_per_second: 0.2, burst: 1 };
    limiter.check('k', limits);
    time.advance(1000);
    expect(limiter.check('k', limits)).toEqual({ allowed: false, reason: 'rate', retryAfterSeconds: 4 });
  });

  it('tolerates a clock that steps backwards', () => {
    const state = { tokens: 0, updatedAtMs: 10_000 };
    const { decision, bucket } = takeToken(state, undefined, { rate_per_second: 1, burst: 1 }, 5_000);
    expect(decision.allowed).toBe(false);
    expect(bucket.updatedAtMs).toBe(10_000);
  });
});

describe('daily quota', () => {
  it('counts requests per UTC day and refuses with Retry-After until midnight UTC', () => {
    const time = clock(Date.parse('2026-11-01T23:59:00.000Z'));
    const limiter = new RateLimiter(time.now);
    const limits = { rate_per_second: 1000, burst: 1000, daily_quota: 3 };
    expect(limiter.check('k', limits)).toMatchObject({ allowed: true, remainingToday: 2 });
    limiter.check('k', limits);
    limiter.check('k', limits);
    expect(limiter.check('k', limits)).toEqual({ allowed: false, reason: 'quota', retryAfterSeconds: 60 });
    time.advance(60_000);
    expect(limiter.check('k', limits)).toMatchObject({ allowed: true, remainingToday: 2 });
  });

  it('does not count requests refused by the rate limit', () => {
    const time = clock();
    const limiter = new RateLimiter(time.now);
    const limits = { rate_per_second: 1, burst: 1, daily_quota: 2 };
    expect(limiter.check('k', limits).allowed).toBe(true);
    expect(limiter.check('k', limits)).toMatchObject({ allowed: false, reason: 'rate' });
    time.advance(1000);
    expect(limiter.check('k', limits)).toMatchObject({ allowed: true, remainingToday: 0 });
  });
});

describe('rate limit settings', () => {
  it('defaults to 10/s, burst 20, no daily quota', () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ rate_per_second: 10, burst: 20 });
    expect(isDefaultRateLimit({ ...DEFAULT_RATE_LIMIT })).toBe(true);
    expect(isDefaultRateLimit({ ...DEFAULT_RATE_LIMIT, daily_quota: 5 })).toBe(false);
  });

  it.each([
    { rate_per_second: 0, burst: 1 },
    { rate_per_second: 10_001, burst: 1 },
    { rate_per_second: 1, burst: 0 },
    { rate_per_second: 1, burst: 1.5 },
    { rate_per_second: 1, burst: 1, daily_quota: 0 },
    { rate_per_second: Number.NaN, burst: 1 },
  ])('rejects %j', (settings) => {
    expect(() => validateRateLimit(settings)).toThrow(ValidationError);
  });

  it('reads the limits back from the authorizer context, API Gateway flattening included', () => {
    expect(rateLimitFromContext({ rateLimitPerSecond: '2', burstLimit: '4', dailyQuota: '0' })).toEqual({
      rate_per_second: 2,
      burst: 4,
    });
    expect(rateLimitFromContext({ rateLimitPerSecond: 1, burstLimit: 2, dailyQuota: 100 })).toEqual({
      rate_per_second: 1,
      burst: 2,
      daily_quota: 100,
    });
    expect(rateLimitFromContext({})).toEqual(DEFAULT_RATE_LIMIT);
  });
});
