import { describe, expect, it } from 'vitest';
import { UTC_TIME_PATTERN, utcQueryTime } from '../../../console/src/utc-time';

describe("the console's UTC date-time fields", () => {
  it('send a date as typed and a date with a time as an ISO time in UTC', () => {
    expect(utcQueryTime(' 2026-11-23 ')).toBe('2026-11-23');
    expect(utcQueryTime('2026-11-23 14:00')).toBe('2026-11-23T14:00:00Z');
    expect(utcQueryTime('2026-11-23T14:00:30')).toBe('2026-11-23T14:00:30Z');
    expect(utcQueryTime('2026-11-23t14:00z')).toBe('2026-11-23T14:00:00Z');
    // Anything else goes as typed, for the service's 400 to explain.
    expect(utcQueryTime('23/11/2026')).toBe('23/11/2026');
  });

  it('accept in the browser what they convert, and refuse a local-format date', () => {
    const pattern = new RegExp(`^(?:${UTC_TIME_PATTERN})$`);
    for (const ok of ['2026-11-23', '2026-11-23 14:00', '2026-11-23T14:00:30Z'])
      expect(pattern.test(ok)).toBe(true);
    for (const bad of ['11/23/2026', '2026-11-23 2pm', '']) expect(pattern.test(bad)).toBe(false);
  });
});
