import { describe, expect, it } from 'vitest';
import { NOTHING_ENABLED_TO_REFRESH, refreshOutcome } from '../../../shared/domain/feeds/refresh-outcome';

const disabled = { enabled: false, status: 'disabled', indicator_count: 0 } as const;

describe('what a manual feed refresh says it did', () => {
  it('names the setting when no feed is enabled', () => {
    const outcome = refreshOutcome([
      { name: 'FEODO', ...disabled },
      { name: 'TOR_EXITS', ...disabled },
    ]);
    expect(outcome.headline).toBe(NOTHING_ENABLED_TO_REFRESH);
    expect(outcome.headline).toContain('SIS_FEED_<NAME>_ENABLED=true');
    expect(outcome.headline).toContain('SIS_PUBLIC_SOURCES=on');
    expect(outcome.results).toEqual([]);
  });

  it('counts the refreshed feeds and gives each one its result, errors with their reason', () => {
    const outcome = refreshOutcome([
      { name: 'FEODO', enabled: true, status: 'ok', indicator_count: 1412 },
      { name: 'SPAMHAUS_DROP', ...disabled },
      {
        name: 'URLHAUS',
        enabled: true,
        status: 'error',
        indicator_count: 1,
        error: 'answered HTTP 503',
      },
    ]);
    expect(outcome.headline).toBe(
      'Refreshed 2 enabled feeds: 1 OK, 1 in error (each keeps its last good copy).',
    );
    expect(outcome.results).toEqual([
      { name: 'FEODO', ok: true, text: 'OK, 1,412 indicators' },
      { name: 'URLHAUS', ok: false, text: 'error: answered HTTP 503; keeps 1 indicator' },
    ]);
  });

  it('says all OK when every enabled feed refreshed', () => {
    const outcome = refreshOutcome([{ name: 'TRANCO', enabled: true, status: 'ok', indicator_count: 1 }]);
    expect(outcome.headline).toBe('Refreshed 1 enabled feed: all OK.');
  });
});
