import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import { runToolByName, type ToolContext } from '../../../shared/domain/investigation';
import { context, daysAgo, incident, type TestData } from './investigation-test-data';

const domain: Entity = { type: 'domain', value: 'paypa1-login.com' };
const alice: Entity = { type: 'user', value: 'corp\\alice' };
const host: Entity = { type: 'host', value: 'ws-0042.corp.local' };

async function output(name: string, entity: Entity, data: TestData, extra: Partial<ToolContext> = {}) {
  const call = await runToolByName(name, entity, context(data, extra));
  expect(call.status).toBe('succeeded');
  return call.output!;
}

describe('incident_history', () => {
  it('says so when no incident mentions the entity', async () => {
    const out = await output('incident_history', domain, {});
    expect(out.findings).toEqual([
      expect.objectContaining({ finding_id: 'incident_history:no_incidents', score: 0, category: 'context' }),
    ]);
    expect(out.facts).toMatchObject({ incident_count: 0, latest_incident_at: null });
  });

  it('weights incidents by severity and recency and lists co-occurring entities', async () => {
    const out = await output('incident_history', domain, {
      incidents: [
        incident('inc_new_crit', 'critical', 0, [domain, alice, host]),
        incident('inc_old_high', 'high', 120, [domain, alice]),
        incident('inc_closed_low', 'low', 2, [domain], 'closed'),
        incident('inc_other', 'critical', 0, [host]),
      ],
    });
    const [finding] = out.findings;
    expect(finding).toMatchObject({
      finding_id: 'incident_history:mentioned_in_incidents',
      category: 'incident_history',
      title: 'Mentioned in 3 incidents (1 critical, 1 high, 1 low)',
      evidence: ['inc_new_crit', 'inc_old_high', 'inc_closed_low'],
    });
    // 60 (fresh critical) ⊕ 45×0.25 (4 months old high) ⊕ 10×0.8×~0.95 (closed low, 2 days)
    expect(finding!.score).toBe(67);
    expect(finding!.description).toMatch(/latest today/);
    expect(out.facts).toMatchObject({
      incident_count: 3,
      open_incident_count: 2,
      by_severity: { critical: 1, high: 1, low: 1 },
      latest_incident_at: daysAgo(0),
    });
    expect(out.related).toEqual([
      { entity: alice, relationship: 'co_occurs_in_incident', evidence: ['inc_new_crit', 'inc_old_high'] },
      { entity: host, relationship: 'co_occurs_in_incident', evidence: ['inc_new_crit'] },
    ]);
  });

  it('scores one recent critical incident as suspicious-level, not proof', async () => {
    const out = await output('incident_history', domain, {
      incidents: [incident('i1', 'critical', 0, [domain])],
    });
    expect(out.findings[0]).toMatchObject({ score: 60, severity: 'high' });
  });
});

describe('prior_investigations', () => {
  const key = 'domain:paypa1-login.com';

  it('reports the strongest recent verdict as context, never as new evidence', async () => {
    const priors = {
      [key]: [
        { session_id: 's_1', verdict: 'malicious' as const, risk_score: 90, completed_at: daysAgo(0) },
        { session_id: 's_2', verdict: 'malicious' as const, risk_score: 88, completed_at: daysAgo(1) },
        { session_id: 's_3', verdict: 'benign' as const, risk_score: 5, completed_at: daysAgo(200) },
        { session_id: 's_4', verdict: null, risk_score: null, completed_at: daysAgo(0) },
      ],
    };
    const out = await output('prior_investigations', domain, { priors });
    expect(out.findings[0]).toMatchObject({
      finding_id: 'prior_investigations:prior_malicious',
      score: 0,
      category: 'prior_verdict',
      evidence: [],
      // What it would have counted, and why it does not.
      discounted: { score: 70, reason: expect.stringContaining('context, not new evidence') },
    });
    expect(out.facts).toMatchObject({
      prior_count: 4,
      judged_count: 3,
      verdicts: { malicious: 2, benign: 1 },
      latest: { verdict: 'malicious' },
    });
    // Earlier sessions may belong to other keys: counted, never named.
    expect(JSON.stringify(out)).not.toMatch(/s_[1-4]/);
  });

  it('ignores the running session itself', async () => {
    const priors = {
      [key]: [
        { session_id: 's_now', verdict: 'malicious' as const, risk_score: 90, completed_at: daysAgo(0) },
      ],
    };
    const out = await output('prior_investigations', domain, { priors }, { sessionId: 's_now' });
    expect(out.findings[0]).toMatchObject({ finding_id: 'prior_investigations:no_prior_verdicts', score: 0 });
  });

  it('reports an earlier benign verdict as context', async () => {
    const priors = {
      [key]: [{ session_id: 's_1', verdict: 'benign' as const, risk_score: 3, completed_at: daysAgo(10) }],
    };
    const out = await output('prior_investigations', domain, { priors });
    expect(out.findings[0]).toMatchObject({ finding_id: 'prior_investigations:prior_benign', score: 0 });
  });

  it('lets old malicious verdicts fade', async () => {
    const priors = {
      [key]: [
        { session_id: 's_1', verdict: 'malicious' as const, risk_score: 90, completed_at: daysAgo(180) },
      ],
    };
    const out = await output('prior_investigations', domain, { priors });
    expect(out.findings[0]!.score).toBe(0);
    expect(out.findings[0]!.discounted?.score).toBe(21);
  });
});

describe('graph_neighbourhood', () => {
  const key = 'domain:paypa1-login.com';

  it('flags links to entities judged malicious or suspicious', async () => {
    const neighbours = {
      [key]: [
        {
          entity: { type: 'ip', value: '203.0.113.9' } as Entity,
          relationship: 'resolves_to',
          risk_score: 85,
        },
        {
          entity: alice,
          relationship: 'co_occurs_in_incident',
          verdict: 'suspicious' as const,
          evidence: ['inc_1'],
        },
        { entity: host, relationship: 'co_occurs_in_incident', risk_score: 10 },
      ],
    };
    const out = await output('graph_neighbourhood', domain, { neighbours });
    expect(out.findings[0]).toMatchObject({
      finding_id: 'graph_neighbourhood:linked_to_high_risk',
      title: 'Linked to 1 malicious and 1 suspicious entities',
      score: 56,
      category: 'association',
      evidence: ['ip:203.0.113.9', 'user:corp\\alice'],
    });
    expect(out.facts).toMatchObject({
      neighbour_count: 3,
      by_relationship: { resolves_to: 1, co_occurs_in_incident: 2 },
      by_type: { ip: 1, user: 1, host: 1 },
    });
    expect(out.related.every((r) => r.known)).toBe(true);
    expect(out.related[1]).toEqual({
      entity: alice,
      relationship: 'co_occurs_in_incident',
      evidence: ['inc_1'],
      known: true,
    });
  });

  it('passes no risk from a look-alike to the brand it imitates, nor from a subdomain to its parent', async () => {
    const brand: Entity = { type: 'domain', value: 'paypal.com' };
    const lookalike = (value: string) => ({
      entity: { type: 'domain', value } as Entity,
      relationship: 'impersonates',
      direction: 'in' as const,
      risk_score: 88,
      risk_basis: [{ source: 'domain_analysis:brand_typosquat', score: 88, refs: [] }],
    });
    const neighbours = {
      'domain:paypal.com': [lookalike('paypa1-login.com'), lookalike('paypal-verify.xyz')],
      'domain:blogspot.com': [
        {
          entity: { type: 'domain', value: 'paypal-x.blogspot.com' } as Entity,
          relationship: 'subdomain_of',
          direction: 'in' as const,
          risk_score: 90,
        },
      ],
      'domain:login.evil-example.com': [
        {
          entity: { type: 'domain', value: 'evil-example.com' } as Entity,
          relationship: 'subdomain_of',
          direction: 'out' as const,
          risk_score: 90,
        },
      ],
    };
    const onBrand = await output('graph_neighbourhood', brand, { neighbours });
    expect(onBrand.findings[0]).toMatchObject({
      finding_id: 'graph_neighbourhood:no_high_risk_links',
      score: 0,
    });
    expect(onBrand.findings[0]!.description).toContain('Not counted, their link passes no risk');
    expect(onBrand.facts.links_passing_no_risk).toHaveLength(2);
    const parent = await output(
      'graph_neighbourhood',
      { type: 'domain', value: 'blogspot.com' },
      { neighbours },
    );
    expect(parent.findings[0]!.score).toBe(0);
    // The parent's risk does flow into its subdomain (shared control).
    const sub = await output(
      'graph_neighbourhood',
      { type: 'domain', value: 'login.evil-example.com' },
      { neighbours },
    );
    expect(sub.findings[0]).toMatchObject({
      finding_id: 'graph_neighbourhood:linked_to_high_risk',
      score: 45,
    });
  });

  it('counts a neighbour once however many edges lead to it', async () => {
    const ip = { type: 'ip', value: '203.0.113.9' } as Entity;
    const neighbours = {
      [key]: [
        { entity: ip, relationship: 'resolves_to', direction: 'out' as const, risk_score: 85 },
        { entity: ip, relationship: 'co_occurs_in_incident', risk_score: 85, evidence: ['inc_9'] },
      ],
    };
    const out = await output('graph_neighbourhood', domain, { neighbours });
    expect(out.findings[0]).toMatchObject({
      title: 'Linked to 1 malicious and 0 suspicious entities',
      score: 45,
    });
  });

  it('is context only when the entity is new to the graph', async () => {
    const out = await output('graph_neighbourhood', domain, {});
    expect(out.findings[0]).toMatchObject({ finding_id: 'graph_neighbourhood:not_in_graph', score: 0 });
  });
});
