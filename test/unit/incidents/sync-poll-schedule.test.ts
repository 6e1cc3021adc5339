import { describe, expect, it } from 'vitest';
import { syncPollDelayMs } from '../../../shared/services/investigations/investigations';

describe('the synchronous start’s re-read schedule', () => {
  const delays = Array.from({ length: 200 }, (_, attempt) => syncPollDelayMs(attempt));
  const elapsedAfter = (reads: number) => delays.slice(0, reads).reduce((sum, d) => sum + d, 0);

  it('reads every 50 ms through the first 300 ms, where a rules run ends', () => {
    expect(delays.slice(0, 6)).toEqual([50, 50, 50, 50, 50, 50]);
    expect(elapsedAfter(6)).toBe(300);
  });

  it('backs off without ever waiting longer than 250 ms, and never shrinks again', () => {
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(Math.max(...delays)).toBe(250);
    expect(delays.slice(10)).toEqual(delays.slice(10).map(() => 250));
  });

  it('costs at most seven reads more than a steady 250 ms poll over the 25 s wait the stack allows', () => {
    let reads = 0;
    while (elapsedAfter(reads) < 25_000) reads++;
    expect(reads).toBeLessThanOrEqual(25_000 / 250 + 7);
  });
});
