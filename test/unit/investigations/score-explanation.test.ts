import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import { buildReport, explainScore, makeFinding, runTools } from '../../../shared/domain/investigation';
import { domainContext, incident } from './investigation-test-data';

const finding = (tool: 'domain_analysis' | 'incident_history', code: string, score: number) =>
  makeFinding({ tool, code, title: code, description: '', impact: '', score, category: 'context' });

describe('score explanation', () => {
  it('attributes the noisy-OR risk to findings strongest first, points summing to the risk', () => {
    const explanation = explainScore(
      [
        finding('incident_history', 'b', 45),
        finding('domain_analysis', 'a', 75),
        finding('domain_analysis', 'z', 0),
      ],
      { tools_run: 4, tools_succeeded: 4 },
    );
    expect(explanation.risk_score).toBe(86);
    expect(explanation.contributions.map((c) => [c.finding_id, c.points])).toEqual([
      ['domain_analysis:a', 75],
      ['incident_history:b', 11],
    ]);
    expect(explanation.sources).toEqual([
      { source_tool: 'domain_analysis', findings: 1, alone: 75, points: 75 },
      { source_tool: 'incident_history', findings: 1, alone: 45, points: 11 },
    ]);
    expect(explanation).toMatchObject({ verdict: 'malicious', verdict_reason: 'risk 86 ≥ 70 → malicious' });
  });

  it('explains an unknown verdict by the coverage', () => {
    const explanation = explainScore([], { tools_run: 4, tools_succeeded: 1 });
    expect(explanation.verdict).toBe('unknown');
    expect(explanation.verdict_reason).toBe('no evidence either way (1 of 4 tools succeeded) → unknown');
    expect(explanation.confidence).toBe('low');
  });

  it('always sums the points to the risk score, for any findings', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 12 }), (scores) => {
        const explanation = explainScore(
          scores.map((s, i) => finding(i % 2 ? 'domain_analysis' : 'incident_history', `f${i}`, s)),
          { tools_run: 2, tools_succeeded: 2 },
        );
        const points = explanation.contributions.reduce((n, c) => n + c.points, 0);
        expect(points).toBe(explanation.risk_score);
        expect(explanation.sources.reduce((n, s) => n + s.points, 0)).toBe(explanation.risk_score);
        expect(explanation.contributions.every((c) => c.points >= 0)).toBe(true);
      }),
    );
  });

  it('is part of every report and agrees with its risk score and verdict', async () => {
    const entity = normaliseEntity('paypa1.com');
    const toolCalls = await runTools(
      entity,
      domainContext({ incidents: [incident('i1', 'high', 1, [entity])] }),
    );
    const report = buildReport({ entity, toolCalls });
    expect(report.score_explanation?.risk_score).toBe(report.risk_score);
    expect(report.score_explanation?.verdict).toBe(report.verdict);
    expect(report.score_explanation?.sources.map((s) => s.source_tool)).toContain('domain_analysis');
  });
});
