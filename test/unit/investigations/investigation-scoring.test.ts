import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clampScore,
  combineScores,
  hasEnoughCoverage,
  INCIDENT_SCORE_CAP,
  incidentScore,
  makeFinding,
  neighbourhoodScore,
  priorVerdictScore,
  recencyWeight,
  riskLevel,
  riskScore,
  severityForScore,
  sortFindings,
  verdictFor,
} from '../../../shared/domain/investigation';
import { daysAgo, NOW } from './investigation-test-data';

describe('finding severity is derived from the score', () => {
  it.each([
    [0, 'info'],
    [1, 'low'],
    [24, 'low'],
    [25, 'medium'],
    [49, 'medium'],
    [50, 'high'],
    [79, 'high'],
    [80, 'critical'],
    [100, 'critical'],
    [150, 'critical'],
    [-5, 'info'],
    [Number.NaN, 'info'],
  ] as const)('score %s → %s', (score, severity) => {
    expect(severityForScore(score)).toBe(severity);
  });

  it('clamps and rounds scores into 0-100 integers', () => {
    expect(clampScore(49.6)).toBe(50);
    expect(clampScore(101)).toBe(100);
    expect(clampScore(-1)).toBe(0);
    expect(clampScore(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('makeFinding derives the severity and the ID', () => {
    const finding = makeFinding({
      tool: 'domain_analysis',
      code: 'typosquat:paypal.com',
      title: 't',
      description: 'd',
      impact: 'i',
      score: 65.4,
      category: 'impersonation',
    });
    expect(finding).toMatchObject({
      finding_id: 'domain_analysis:typosquat:paypal.com',
      score: 65,
      severity: 'high',
      evidence: [],
    });
  });
});

describe('risk score: noisy OR of finding scores', () => {
  it('has the documented values', () => {
    expect(combineScores([])).toBe(0);
    expect(combineScores([0, 0, 0])).toBe(0);
    expect(combineScores([80])).toBe(80);
    expect(combineScores([30, 30])).toBe(51);
    expect(combineScores([50, 50])).toBe(75);
    expect(combineScores([100, 10])).toBe(100);
    expect(riskScore([{ score: 90 }, { score: 45 }, { score: 43 }])).toBe(97);
  });

  const scores = fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 12 });

  it('stays within 0-100, is at least the strongest finding and ignores order', () => {
    fc.assert(
      fc.property(scores, (values) => {
        const risk = combineScores(values);
        expect(risk).toBeGreaterThanOrEqual(0);
        expect(risk).toBeLessThanOrEqual(100);
        expect(risk).toBeGreaterThanOrEqual(Math.max(0, ...values));
        expect(combineScores([...values].reverse())).toBe(risk);
      }),
    );
  });

  it('never decreases when a finding is added', () => {
    fc.assert(
      fc.property(scores, fc.integer({ min: 0, max: 100 }), (values, extra) => {
        expect(combineScores([...values, extra])).toBeGreaterThanOrEqual(combineScores(values));
      }),
    );
  });
});

describe('verdict thresholds and coverage', () => {
  const full = { tools_run: 4, tools_succeeded: 4 };

  it.each([
    [0, 'unknown'],
    [29, 'unknown'],
    [30, 'suspicious'],
    [69, 'suspicious'],
    [70, 'malicious'],
    [100, 'malicious'],
  ] as const)('risk %s with full coverage → %s', (risk, verdict) => {
    expect(verdictFor(risk, full)).toBe(verdict);
  });

  it('says benign only with positive evidence, and that evidence only with enough coverage', () => {
    const benign = [{ benign: true as const, evidence_source: 'offline:resolvers' }];
    expect(verdictFor(10, full)).toBe('unknown');
    expect(verdictFor(10, full, [{ evidence_source: 'offline:asn' }])).toBe('unknown');
    expect(verdictFor(10, full, benign)).toBe('benign');
    expect(verdictFor(10, { tools_run: 4, tools_succeeded: 1 }, benign)).toBe('unknown');
    expect(verdictFor(10, { tools_run: 5, tools_succeeded: 2 }, benign)).toBe('unknown');
    expect(verdictFor(10, { tools_run: 4, tools_succeeded: 2 }, benign)).toBe('benign');
    expect(verdictFor(0, { tools_run: 0, tools_succeeded: 0 }, benign)).toBe('unknown');
    expect(hasEnoughCoverage({ tools_run: 2, tools_succeeded: 2 })).toBe(true);
    // Weak benign evidence never outweighs evidence of a threat.
    expect(verdictFor(35, full, benign)).toBe('suspicious');
  });

  it("lets the tenant's own word (allowlist, false-positive feedback) set benign whatever the risk", () => {
    for (const source of ['tenant:allowlist', 'feedback']) {
      expect(
        verdictFor(95, { tools_run: 4, tools_succeeded: 1 }, [
          { benign: true as const, evidence_source: source },
        ]),
      ).toBe('benign');
    }
    // Not benign evidence, even from the same source: a confirmation is evidence of a threat.
    expect(verdictFor(75, full, [{ evidence_source: 'feedback' }])).toBe('malicious');
  });

  it('keeps evidence-based verdicts even with poor coverage', () => {
    expect(verdictFor(75, { tools_run: 4, tools_succeeded: 1 })).toBe('malicious');
    expect(verdictFor(35, { tools_run: 4, tools_succeeded: 1 })).toBe('suspicious');
  });

  it('bands risk for non-technical readers', () => {
    expect([riskLevel(29), riskLevel(30), riskLevel(70)]).toEqual(['low', 'elevated', 'high']);
  });
});

describe('history weighting', () => {
  it('halves recency weight every half-life and respects the floor', () => {
    expect(recencyWeight(daysAgo(0), NOW, 30, 0.25)).toBe(1);
    expect(recencyWeight(daysAgo(30), NOW, 30, 0.25)).toBeCloseTo(0.5);
    expect(recencyWeight(daysAgo(365), NOW, 30, 0.25)).toBe(0.25);
    expect(recencyWeight(daysAgo(-3), NOW, 30, 0.25)).toBe(1);
    expect(recencyWeight('not a date', NOW, 30, 0.25)).toBe(0.25);
  });

  it('weights incidents by severity, recency and status, capped', () => {
    const fresh = (severity: 'critical' | 'high' | 'low', status = 'active') => ({
      severity,
      status,
      created_at: daysAgo(0),
    });
    expect(incidentScore([fresh('critical')], NOW)).toBe(60);
    expect(incidentScore([fresh('critical'), fresh('critical')], NOW)).toBe(84);
    expect(incidentScore([fresh('high')], NOW)).toBe(45);
    expect(incidentScore([fresh('high', 'closed')], NOW)).toBe(36);
    expect(incidentScore([{ severity: 'critical', status: 'active', created_at: daysAgo(60) }], NOW)).toBe(
      15,
    );
    expect(incidentScore([{ severity: 'critical', status: 'active', created_at: daysAgo(400) }], NOW)).toBe(
      15,
    );
    expect(incidentScore(Array(20).fill(fresh('critical')), NOW)).toBe(INCIDENT_SCORE_CAP);
    expect(incidentScore([], NOW)).toBe(0);
  });

  it('decays prior verdicts and ignores benign ones', () => {
    expect(priorVerdictScore('malicious', daysAgo(0), NOW)).toBe(70);
    expect(priorVerdictScore('malicious', daysAgo(90), NOW)).toBe(35);
    expect(priorVerdictScore('malicious', daysAgo(3650), NOW)).toBe(21);
    expect(priorVerdictScore('suspicious', daysAgo(0), NOW)).toBe(35);
    expect(priorVerdictScore('benign', daysAgo(0), NOW)).toBe(0);
  });

  it('caps guilt by association', () => {
    expect(neighbourhoodScore({ malicious: 1, suspicious: 0 })).toBe(45);
    expect(neighbourhoodScore({ malicious: 0, suspicious: 1 })).toBe(20);
    expect(neighbourhoodScore({ malicious: 10, suspicious: 10 })).toBe(80);
    expect(neighbourhoodScore({ malicious: 0, suspicious: 0 })).toBe(0);
  });
});

describe('finding order', () => {
  it('sorts strongest first, ties by ID', () => {
    const f = (id: string, score: number) =>
      makeFinding({
        tool: 'incident_history',
        code: id,
        title: '',
        description: '',
        impact: '',
        score,
        category: 'context',
      });
    expect(sortFindings([f('b', 10), f('a', 10), f('c', 90)]).map((x) => x.finding_id)).toEqual([
      'incident_history:c',
      'incident_history:a',
      'incident_history:b',
    ]);
  });
});
