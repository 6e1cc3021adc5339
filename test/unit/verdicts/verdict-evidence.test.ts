import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import {
  buildReport,
  confidenceFor,
  countEvidence,
  explainScore,
  independentRisk,
  makeFinding,
  riskBasisOf,
  runTools,
} from '../../../shared/domain/investigation';
import { context, daysAgo, incident } from '../investigations/investigation-test-data';

const full = { tools_run: 4, tools_succeeded: 4 };
const finding = (
  code: string,
  score: number,
  extra: Parameters<typeof makeFinding>[0] extends infer I ? Partial<I> : never = {},
) =>
  makeFinding({
    tool: 'incident_history',
    code,
    title: code,
    description: '',
    impact: '',
    score,
    category: 'context',
    ...extra,
  });

describe('each evidence source counts once', () => {
  it('keeps the strongest finding of a source and lists the others as discounted', () => {
    const findings = [
      finding('a', 60, { evidence_source: 'feed:FEODO' }),
      finding('b', 40, { evidence_source: 'feed:FEODO' }),
      finding('c', 30, { evidence_source: 'intel:abuseipdb' }),
      finding('d', 20),
      finding('e', 20),
    ];
    const { counted, discounted } = countEvidence(findings);
    expect(counted.map((f) => f.finding_id)).toEqual([
      'incident_history:a',
      'incident_history:c',
      'incident_history:d',
      'incident_history:e',
    ]);
    expect(discounted).toEqual([
      {
        finding_id: 'incident_history:b',
        title: 'b',
        source_tool: 'incident_history',
        score: 40,
        counted: 0,
        reason: 'feed:FEODO is already counted by incident_history:a: each source counts once',
      },
    ]);
    const explanation = explainScore(findings, full);
    // 1 − 0.4 × 0.7 × 0.8 × 0.8 = 0.8208; with b it would be 89.
    expect(explanation.risk_score).toBe(82);
    expect(explanation.discounted).toHaveLength(1);
    expect(explanation.contributions.reduce((n, c) => n + c.points, 0)).toBe(82);
  });

  it('lists what a tool chose not to count, with the score it would have had', () => {
    const explanation = explainScore(
      [finding('prior', 0, { discounted: { score: 70, reason: 'context' } }), finding('x', 10)],
      full,
    );
    expect(explanation.risk_score).toBe(10);
    expect(explanation.discounted).toEqual([
      expect.objectContaining({
        finding_id: 'incident_history:prior',
        score: 70,
        counted: 0,
        reason: 'context',
      }),
    ]);
  });
});

describe('confidence', () => {
  it('grows with the number of independent sources behind the verdict', () => {
    const threat = (sources: string[]) => sources.map((s, i) => finding(`f${i}`, 40, { evidence_source: s }));
    expect(confidenceFor('malicious', threat(['feed:FEODO']))).toBe('low');
    expect(confidenceFor('malicious', threat(['feed:FEODO', 'feed:FEODO']))).toBe('low');
    expect(confidenceFor('malicious', threat(['feed:FEODO', 'intel:otx']))).toBe('medium');
    expect(confidenceFor('malicious', threat(['feed:FEODO', 'intel:otx', 'incidents']))).toBe('high');
    expect(confidenceFor('malicious', threat(['feedback']))).toBe('high');
    expect(confidenceFor('unknown', threat(['a', 'b', 'c']))).toBe('low');
    const benign = (source: string) => finding(`b_${source}`, 0, { benign: true, evidence_source: source });
    expect(confidenceFor('benign', [benign('offline:resolvers')])).toBe('low');
    expect(confidenceFor('benign', [benign('offline:resolvers'), benign('feed:TRANCO')])).toBe('medium');
    expect(confidenceFor('benign', [benign('tenant:allowlist')])).toBe('high');
  });
});

describe('verdicts', () => {
  it('says UNKNOWN, never BENIGN, for an entity nothing is known about', async () => {
    for (const value of ['not-an-ip-999', '203.0.113.200', 'quiet-user@corp.example']) {
      const entity = (await import('../../../shared/domain/core/entity-normalisation')).normaliseEntity(
        value,
      );
      const report = buildReport({ entity, toolCalls: await runTools(entity, context()) });
      if (report.risk_score === 0) {
        expect(report.verdict).toBe('unknown');
        expect(report.summary.split('\n')[0]).toMatch(/^UNKNOWN · no evidence in 4 sources · /);
      } else {
        expect(report.verdict).not.toBe('benign');
      }
      expect(report.confidence).toBe('low');
    }
  });

  it('says benign for a public resolver, naming the evidence', async () => {
    const entity: Entity = { type: 'ip', value: '8.8.8.8' };
    const report = buildReport({ entity, toolCalls: await runTools(entity, context()) });
    expect(report).toMatchObject({ verdict: 'benign', confidence: 'low', risk_score: 0 });
    expect(report.findings.find((f) => f.benign)).toMatchObject({
      finding_id: 'ip_classification:public_resolver',
      evidence_source: 'offline:resolvers',
    });
    expect(report.summary).toContain('Benign because: Public DNS resolver (Google Public DNS).');
  });

  it('an allowlisted entity is benign with a finding quoting the entry, and keeps its other findings', async () => {
    const entity: Entity = { type: 'domain', value: 'login.paypa1.com' };
    const knowledge = {
      'domain:login.paypa1.com': {
        allowlist: [
          {
            entry_id: 'al_x',
            type: 'domain',
            value: 'paypa1.com',
            reason: 'Our red team phishing-simulation domain',
            created_by: 'user:admin',
            created_at: '2026-11-02T08:00:00.000Z',
            expires_at: '2027-01-01T00:00:00.000Z',
          },
        ],
      },
    };
    const incidents = [incident('inc_9', 'critical', 1, [entity])];
    const report = buildReport({
      entity,
      toolCalls: await runTools(entity, context({ knowledge, incidents })),
    });
    expect(report.verdict).toBe('benign');
    expect(report.confidence).toBe('high');
    const allow = report.findings.find((f) => f.finding_id === 'prior_investigations:allowlisted');
    expect(allow).toMatchObject({ benign: true, evidence_source: 'tenant:allowlist', score: 0 });
    expect(allow?.title).toBe('Allowlisted by the tenant: Our red team phishing-simulation domain');
    expect(allow?.description).toContain('domain paypa1.com and its subdomains');
    expect(allow?.description).toContain('added by user:admin on 2026-11-02, until 2027-01-01');
    // The evidence is not hidden: the incident still scores (suspicious on its own).
    expect(report.risk_score).toBeGreaterThanOrEqual(50);
    expect(report.findings.some((f) => f.finding_id === 'incident_history:mentioned_in_incidents')).toBe(
      true,
    );
    expect(report.score_explanation?.verdict_reason).toContain("the tenant's word sets benign");
  });

  it("cites an admin's feedback: a false positive sets benign, a true positive counts as evidence", async () => {
    const entity: Entity = { type: 'ip', value: '198.51.100.77' };
    const fp = {
      session_id: 's_1',
      verdict: 'false_positive' as const,
      comment: 'Our vulnerability scanner',
      by: 'user:lead',
      by_role: 'admin' as const,
      at: daysAgo(2),
      session_verdict: 'suspicious' as const,
      session_risk_score: 45,
    };
    const benign = buildReport({
      entity,
      toolCalls: await runTools(entity, context({ knowledge: { 'ip:198.51.100.77': { feedback: [fp] } } })),
    });
    expect(benign.verdict).toBe('benign');
    const cited = benign.findings.find(
      (f) => f.finding_id === 'prior_investigations:feedback_false_positive',
    );
    expect(cited?.description).toContain('user:lead reviewed an earlier investigation');
    expect(cited?.description).toContain('"Our vulnerability scanner"');
    expect(cited?.description).toContain('judged it suspicious (risk 45/100)');

    const tp = { ...fp, verdict: 'true_positive' as const, comment: 'C2 confirmed', at: daysAgo(0) };
    const confirmed = buildReport({
      entity,
      toolCalls: await runTools(
        entity,
        context({ knowledge: { 'ip:198.51.100.77': { feedback: [fp, tp] } } }),
      ),
    });
    expect(confirmed).toMatchObject({ verdict: 'malicious', confidence: 'high' });
    const finding = confirmed.findings.find(
      (f) => f.finding_id === 'prior_investigations:feedback_true_positive',
    );
    expect(finding).toMatchObject({ score: 75, evidence_source: 'feedback' });
    expect(finding?.description).toContain('1 earlier feedback entry');
  });
});

describe('a neighbour counts only for its evidence independent of the investigated entity', () => {
  const ip = 'ip:203.0.113.66';

  it('leaves out what rests on the entity itself and the incidents the two share', () => {
    const basis = riskBasisOf([
      finding('mentioned', 60, { category: 'incident_history', evidence: ['inc_1'] }),
      makeFinding({
        tool: 'graph_neighbourhood',
        code: 'linked',
        title: '',
        description: '',
        impact: '',
        score: 45,
        category: 'association',
        evidence: [ip],
      }),
    ]);
    expect(basis).toEqual([
      { source: 'incident_history:mentioned', score: 60, refs: ['inc_1'] },
      { source: 'graph_neighbourhood:linked', score: 45, refs: [ip] },
    ]);
    const neighbour = { risk_score: 78, risk_basis: basis, evidence: ['inc_1'] };
    expect(independentRisk(neighbour, ip)).toEqual({ risk: 0, left_out: basis });
    // Another entity sharing no incident with it sees the whole risk.
    expect(independentRisk({ ...neighbour, evidence: [] }, 'host:other').risk).toBe(78);
    // Half of an incident entry's incidents shared: half its points.
    const half = riskBasisOf([
      finding('two', 60, { category: 'incident_history', evidence: ['inc_1', 'inc_2'] }),
    ]);
    expect(independentRisk({ risk_score: 60, risk_basis: half, evidence: ['inc_1'] }, ip).risk).toBe(30);
    // A node scored before the basis existed counts as it stands.
    expect(independentRisk({ risk_score: 78 }, ip).risk).toBe(78);
  });

  it('explains the discount on the graph finding', async () => {
    const entity: Entity = { type: 'ip', value: '203.0.113.66' };
    const neighbours = {
      [ip]: [
        {
          entity: { type: 'user', value: 'j.doe@corp.example' } as Entity,
          relationship: 'co_occurs_in_incident',
          evidence: ['inc_1'],
          risk_score: 78,
          risk_basis: [
            { source: 'incident_history:mentioned_in_incidents', score: 60, refs: ['inc_1'] },
            { source: 'graph_neighbourhood:linked_to_high_risk', score: 45, refs: [ip] },
          ],
        },
      ],
    };
    const calls = await runTools(entity, context({ neighbours }), { tools: ['graph_neighbourhood'] });
    const [graph] = calls[0]!.output!.findings;
    expect(graph).toMatchObject({ finding_id: 'graph_neighbourhood:no_high_risk_links', score: 0 });
    expect(graph?.discounted?.score).toBe(45);
    expect(graph?.discounted?.reason).toContain('user:j.doe@corp.example');
    expect(graph?.description).toContain('Left out, resting on IP address 203.0.113.66 itself');
  });
});
