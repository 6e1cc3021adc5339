import { describe, expect, it } from 'vitest';
import { SearchQuery, SearchResponse } from '../../../shared/api/schemas/search';
import { ValidationError } from '../../../shared/domain/core/errors';
import { termsForQuery } from '../../../shared/domain/search/search-terms';

describe('SearchQuery', () => {
  it('trims q and applies defaults', () => {
    expect(SearchQuery.parse({ q: '  203.0.113.66  ' })).toEqual({ q: '203.0.113.66', limit: 20 });
  });

  it('accepts status and verdict filters', () => {
    expect(SearchQuery.parse({ q: 'phishing', status: 'completed', verdict: 'malicious' })).toMatchObject({
      status: 'completed',
      verdict: 'malicious',
    });
  });

  it.each([
    {},
    { q: '' },
    { q: '   ' },
    { q: 'x'.repeat(257) },
    { q: 'a', status: 'done' },
    { q: 'a', verdict: 'evil' },
  ])('rejects %j', (query) => {
    expect(SearchQuery.safeParse(query).success).toBe(false);
  });

  it('every q the schema accepts is either tokenised or refused with a ValidationError, never a crash', () => {
    for (const q of [
      '203.0.113.66',
      'the',
      '"',
      'ip:',
      'type:',
      '::',
      '\\\\',
      '@',
      'a@',
      'https://',
      '%%%',
      '🔥',
    ]) {
      const parsed = SearchQuery.parse({ q });
      try {
        expect(termsForQuery(parsed.q).terms.length).toBeGreaterThan(0);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
      }
    }
  });
});

describe('SearchResponse', () => {
  it('allows a running session with no report yet', () => {
    const result = {
      session_id: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
      status: 'active',
      entity: { type: 'ip', value: '203.0.113.66' },
      risk_score: null,
      summary: null,
      persona: 'SOC Analyst',
      created_at: '2026-11-01T09:30:00.000Z',
    };
    expect(SearchResponse.safeParse({ results: [result], next_cursor: null }).success).toBe(true);
    expect(
      SearchResponse.safeParse({ results: [{ ...result, risk_score: 101 }], next_cursor: null }).success,
    ).toBe(false);
  });
});
