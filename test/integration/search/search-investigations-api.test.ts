import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../../shared/config';
import type { Entity } from '../../../shared/domain/core/entity';
import { termsForSession } from '../../../shared/domain/search/search-terms';
import type { SearchEntry } from '../../../shared/store/search-index/records';
import { forgeCursor } from '../../support/cursors';
import { errorShape, startTestService, type TestService } from '../../support/local-service';
import { configuredSearchIndex } from '../../support/search-index';

/**
 * Search over HTTP: sessions indexed the way the workflow indexes them on completion (the domain's
 * termsForSession), found by entity value and by a summary word, only ever by their own key.
 */
let service: TestService;
let alice: { keyId: string; apiKey: string };
let bob: { keyId: string; apiKey: string };

async function indexSession(
  owner: string,
  id: string,
  day: number,
  entity: Entity,
  summary: string,
  extra: Partial<SearchEntry> = {},
) {
  const entry: SearchEntry = {
    session_id: id,
    owner_key_id: owner,
    status: 'completed',
    entity,
    persona: 'SOC Analyst',
    created_at: `2026-11-${String(day).padStart(2, '0')}T09:30:00.000Z`,
    risk_score: 82,
    verdict: 'malicious',
    summary,
    ...extra,
  };
  await configuredSearchIndex(config()).indexSession(
    entry,
    termsForSession({
      entity,
      status: entry.status,
      verdict: entry.verdict,
      persona: entry.persona,
      summary,
      findings: [{ title: 'Password spray', description: 'Many failed logons from one source' }],
    }),
  );
}

beforeAll(async () => {
  service = await startTestService();
  const fast = { rate_per_second: 1_000, burst: 1_000 };
  alice = await service.createKey({ name: 'alice plugin', scopes: ['search:read'], rate_limit: fast });
  bob = await service.createKey({ name: 'bob plugin', scopes: ['search:read'], rate_limit: fast });
  const ip: Entity = { type: 'ip', value: '203.0.113.66' };
  await indexSession(
    alice.keyId,
    's_alice000001',
    1,
    ip,
    '203.0.113.66 ran a password spray against j.doe@contoso.example.',
  );
  await indexSession(
    alice.keyId,
    's_alice000002',
    2,
    { type: 'domain', value: 'micros0ft-login.example.com' },
    'Look-alike phishing page hosted on 203.0.113.66.',
  );
  await indexSession(
    alice.keyId,
    's_alice000003',
    3,
    { type: 'host', value: 'ws-0142' },
    'Benign admin tooling.',
    {
      status: 'failed',
      verdict: null,
      risk_score: null,
    },
  );
  await indexSession(
    bob.keyId,
    's_bob00000001',
    4,
    ip,
    '203.0.113.66 phishing infrastructure, seen by another team.',
  );
  for (let i = 0; i < 12; i++) {
    await indexSession(
      alice.keyId,
      `s_alicepage${String(i).padStart(2, '0')}`,
      10 + i,
      ip,
      `Beaconing sample number ${i}.`,
    );
  }
});

afterAll(async () => {
  await service?.stop();
});

const ids = (body: { results: { session_id: string }[] }) => body.results.map((r) => r.session_id);

describe('GET /api/v1/search', () => {
  it('finds a completed session by entity value and by a summary word, with the result fields', async () => {
    const byValue = await service.call('GET', '/api/v1/search?q=203.0.113.66&limit=100', {
      key: alice.apiKey,
    });
    expect(byValue.status).toBe(200);
    expect(ids(byValue.body)).toContain('s_alice000001');
    expect(ids(byValue.body)).toContain('s_alice000002');
    const byWord = await service.call('GET', '/api/v1/search?q=Phishing', { key: alice.apiKey });
    expect(byWord.body.results).toEqual([
      {
        session_id: 's_alice000002',
        status: 'completed',
        entity: { type: 'domain', value: 'micros0ft-login.example.com' },
        risk_score: 82,
        summary: 'Look-alike phishing page hosted on 203.0.113.66.',
        verdict: 'malicious',
        persona: 'SOC Analyst',
        created_at: '2026-11-02T09:30:00.000Z',
      },
    ]);
    const both = await service.call(
      'GET',
      `/api/v1/search?q=${encodeURIComponent('203.0.113.66 j.doe@contoso.example')}`,
      { key: alice.apiKey },
    );
    expect(ids(both.body)).toEqual(['s_alice000001']);
  });

  it("never returns another key's sessions", async () => {
    const asBob = await service.call('GET', '/api/v1/search?q=203.0.113.66&limit=100', { key: bob.apiKey });
    expect(ids(asBob.body)).toEqual(['s_bob00000001']);
    const asAlice = await service.call('GET', '/api/v1/search?q=infrastructure', { key: alice.apiKey });
    expect(asAlice.body.results).toEqual([]);
  });

  it('filters by status and verdict', async () => {
    const failed = await service.call('GET', '/api/v1/search?q=ws-0142&status=failed', { key: alice.apiKey });
    expect(ids(failed.body)).toEqual(['s_alice000003']);
    const malicious = await service.call('GET', '/api/v1/search?q=ws-0142&verdict=malicious', {
      key: alice.apiKey,
    });
    expect(ids(malicious.body)).toEqual([]);
  });

  it('pages newest first, and refuses cursors of another key or query', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/v1/search?q=beaconing&limit=5${cursor ? `&cursor=${cursor}` : ''}`;
      const answer = await service.call('GET', url, { key: alice.apiKey });
      seen.push(...ids(answer.body));
      cursor = answer.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(
      Array.from({ length: 12 }, (_, i) => `s_alicepage${String(11 - i).padStart(2, '0')}`),
    );

    const first = await service.call('GET', '/api/v1/search?q=beaconing&limit=5', { key: alice.apiKey });
    const stolen = await service.call(
      'GET',
      `/api/v1/search?q=beaconing&limit=5&cursor=${first.body.next_cursor}`,
      {
        key: bob.apiKey,
      },
    );
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject(errorShape('invalid_cursor'));
    const other = await service.call('GET', `/api/v1/search?q=spray&cursor=${first.body.next_cursor}`, {
      key: alice.apiKey,
    });
    expect(other.status).toBe(400);
    const forged = forgeCursor(first.body.next_cursor, { after: 'TERM#x' });
    expect(
      (await service.call('GET', `/api/v1/search?q=beaconing&cursor=${forged}`, { key: alice.apiKey }))
        .status,
    ).toBe(400);
  });

  it('validates q: 1-256 characters and something searchable', async () => {
    for (const q of ['', '%20%20', 'x'.repeat(257), 'the%20and%20of']) {
      const answer = await service.call('GET', `/api/v1/search?q=${q}`, { key: alice.apiKey });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject(errorShape('validation_error'));
    }
    expect((await service.call('GET', '/api/v1/search', { key: alice.apiKey })).status).toBe(400);
  });
});
