import { describe, expect, it } from 'vitest';
import {
  MAX_RETRY_WAIT_SECONDS,
  nextRetryWait,
  parseRetrySchedule,
} from '../../../shared/domain/webhooks/retry-schedule';

const middle = () => 0.5; // no jitter: the wait is the schedule's step

describe('nextRetryWait', () => {
  it('takes the step after the attempts made, with ±20 % jitter, and ends with the schedule', () => {
    expect(nextRetryWait([5, 60], 1, undefined, middle)).toBe(5);
    expect(nextRetryWait([5, 60], 2, undefined, () => 0)).toBe(48);
    expect(nextRetryWait([5, 60], 2, undefined, () => 0.999_999)).toBe(72);
    expect(nextRetryWait([5, 60], 3, undefined, middle)).toBeUndefined();
  });

  it("lets a receiver's longer Retry-After win over a shorter step, also past the schedule's longest wait", () => {
    expect(nextRetryWait([1, 1], 1, 2, middle)).toBe(2);
    expect(nextRetryWait([5, 60], 1, 600, middle)).toBe(600);
    expect(nextRetryWait([5, 60], 1, 1.2, middle)).toBe(5);
  });

  it('caps a Retry-After at a day, so a receiver cannot park a delivery for ever', () => {
    expect(nextRetryWait([5], 1, 10 * MAX_RETRY_WAIT_SECONDS, middle)).toBe(MAX_RETRY_WAIT_SECONDS);
  });

  it('a Retry-After never revives a spent schedule', () => {
    expect(nextRetryWait([5], 2, 30, middle)).toBeUndefined();
  });
});

describe('parseRetrySchedule', () => {
  it('reads comma-separated waits and refuses waits out of 1 s … 1 day', () => {
    expect(parseRetrySchedule('1, 1')).toEqual([1, 1]);
    expect(() => parseRetrySchedule('0')).toThrow();
    expect(() => parseRetrySchedule(String(MAX_RETRY_WAIT_SECONDS + 1))).toThrow();
  });
});
