import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  elasticAlertQuery,
  pullWindow,
  sentinelListParams,
  splunkNotableSearch,
  watermarkAfter,
} from '../../../shared/domain/siem';

const now = new Date('2026-11-01T12:00:00.000Z');

describe('pull window', () => {
  it('first run looks back 7 days and leaves the last minute to settle', () => {
    expect(pullWindow(undefined, now)).toEqual({
      from: '2026-10-25T12:00:00.000Z',
      to: '2026-10-26T12:00:00.000Z',
    });
    expect(pullWindow(undefined, now, { maxWindowHours: 24 * 30 })).toEqual({
      from: '2026-10-25T12:00:00.000Z',
      to: '2026-11-01T11:59:00.000Z',
    });
  });

  it('re-reads an overlap before the watermark', () => {
    expect(pullWindow('2026-11-01T11:00:00.000Z', now)).toEqual({
      from: '2026-11-01T10:55:00.000Z',
      to: '2026-11-01T11:59:00.000Z',
    });
  });

  it('catches up in bounded steps after an outage', () => {
    const window = pullWindow('2026-10-20T00:00:00.000Z', now, { overlapSeconds: 0, maxWindowHours: 6 });
    expect(window).toEqual({ from: '2026-10-20T00:00:00.000Z', to: '2026-10-20T06:00:00.000Z' });
  });

  it('always yields a non-empty window, even with a watermark in the future', () => {
    const window = pullWindow('2026-11-02T00:00:00.000Z', now);
    expect(Date.parse(window.to)).toBeGreaterThan(Date.parse(window.from));
    expect(window.to <= '2026-11-01T11:59:00.000Z').toBe(true);
  });

  it('refuses a corrupt watermark', () => {
    expect(() => pullWindow('not-a-time', now)).toThrow(ValidationError);
  });
});

describe('watermark after a run', () => {
  const window = { from: '2026-11-01T10:00:00.000Z', to: '2026-11-01T11:00:00.000Z' };

  it('moves to the window end when the window was read completely, even with no records', () => {
    expect(
      watermarkAfter({ previous: '2026-11-01T10:05:00.000Z', window, completed: true, processed: [] }),
    ).toBe(window.to);
  });

  it('moves only to the newest processed record when the run stopped part-way', () => {
    const processed = [
      { updated_at: '2026-11-01T10:20:00.000Z' },
      { updated_at: '2026-11-01T10:40:00.000Z' },
    ];
    expect(
      watermarkAfter({ previous: '2026-11-01T10:05:00.000Z', window, completed: false, processed }),
    ).toBe('2026-11-01T10:40:00.000Z');
  });

  it('never moves backwards', () => {
    const processed = [{ updated_at: '2026-11-01T10:20:00.000Z' }];
    expect(
      watermarkAfter({ previous: '2026-11-01T10:50:00.000Z', window, completed: false, processed }),
    ).toBe('2026-11-01T10:50:00.000Z');
  });

  it('never passes the window end, whatever a SIEM clock says', () => {
    const processed = [{ updated_at: '2026-11-03T00:00:00.000Z' }];
    expect(watermarkAfter({ window, completed: false, processed })).toBe(window.to);
  });

  it('stays at the window start when nothing was processed and there was no watermark', () => {
    expect(watermarkAfter({ window, completed: false, processed: [] })).toBe(window.from);
  });
});

describe('vendor pull requests', () => {
  const window = { from: '2026-11-01T10:00:00.000Z', to: '2026-11-01T11:00:00.000Z' };

  it('Sentinel: OData filter and order on lastModifiedTimeUtc', () => {
    expect(sentinelListParams(window, 25)).toEqual({
      'api-version': '2024-03-01',
      $filter:
        'properties/lastModifiedTimeUtc ge 2026-11-01T10:00:00.000Z and properties/lastModifiedTimeUtc lt 2026-11-01T11:00:00.000Z',
      $orderby: 'properties/lastModifiedTimeUtc asc',
      $top: '25',
    });
  });

  it('Splunk: notables raised or reviewed inside the window, oldest first', () => {
    expect(splunkNotableSearch(window)).toBe(
      'search `notable` earliest=-30d latest=1793530800 | eval sis_modified=max(_time, coalesce(review_time, 0)) | where sis_modified>=1793527200 AND sis_modified<1793530800 | sort 0 sis_modified',
    );
  });

  it('Elastic: alerts created or re-triaged inside the window', () => {
    const query = elasticAlertQuery(window, 10) as {
      size: number;
      sort: unknown[];
      query: { bool: { should: unknown[] } };
    };
    expect(query.size).toBe(10);
    expect(query.sort).toEqual([
      { '@timestamp': { order: 'asc' } },
      { 'kibana.alert.uuid': { order: 'asc' } },
    ]);
    expect(query.query.bool.should).toEqual([
      { range: { '@timestamp': { gte: window.from, lt: window.to } } },
      { range: { 'kibana.alert.workflow_status_updated_at': { gte: window.from, lt: window.to } } },
    ]);
  });
});
