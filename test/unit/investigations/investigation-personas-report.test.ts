import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  buildReport,
  closingMessage,
  type Finding,
  openingMessage,
  PERSONA_NAMES,
  type Report,
  type ReportView,
  rawResultsFrom,
  relationshipsFrom,
  resolvePersona,
  runTools,
  type ToolCall,
  type ToolName,
  toolsFor,
  unfinishedMessage,
} from '../../../shared/domain/investigation';
import { VERDICT_SUMMARY_WORDS } from '../../../shared/domain/search/search-phrases';
import { wordsOf } from '../../../shared/domain/search/search-terms';
import { context, domainContext, incident } from './investigation-test-data';

const phish = normaliseEntity('раypal.com');
const alice: Entity = { type: 'user', value: 'alice@corp.example' };
const c2: Entity = { type: 'ip', value: '198.51.100.23' };

async function investigate(entity: Entity): Promise<ToolCall[]> {
  return runTools(
    entity,
    (entity.type === 'domain' ? domainContext : context)({
      incidents: [
        incident('inc_1', 'high', 2, [phish, alice]),
        incident('inc_2', 'critical', 5, [phish, c2]),
      ],
      neighbours: {
        [`domain:${phish.value}`]: [{ entity: c2, relationship: 'resolves_to', risk_score: 90 }],
      },
    }),
  );
}

describe('persona resolution', () => {
  it.each([
    [undefined, 'SOC Analyst'],
    [null, 'SOC Analyst'],
    ['', 'SOC Analyst'],
    ['SOC Analyst', 'SOC Analyst'],
    ['soc', 'SOC Analyst'],
    ['  soc_analyst ', 'SOC Analyst'],
    ['SOC-ANALYST', 'SOC Analyst'],
    ['ciso', 'CISO'],
    ['CISO', 'CISO'],
    ['Executive', 'CISO'],
    ['threat hunter', 'Threat Hunter'],
    ['Threat_Hunter', 'Threat Hunter'],
    ['hunter', 'Threat Hunter'],
  ])('%j → %s', (input, name) => {
    expect(resolvePersona(input).name).toBe(name);
  });

  it('rejects an unknown persona, listing the valid ones', () => {
    try {
      resolvePersona('CTO');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details).toEqual([
        {
          path: 'persona',
          message: 'unknown persona "CTO"; valid personas: SOC Analyst (default), CISO, Threat Hunter',
        },
      ]);
    }
  });
});

describe('buildReport', () => {
  it('reports risk, verdict, findings strongest first and the entities discovered', async () => {
    const calls = await investigate(phish);
    const report = buildReport({ entity: phish, toolCalls: calls });
    expect(report.persona).toBe('SOC Analyst');
    expect(report.verdict).toBe('malicious');
    expect(report.risk_score).toBeGreaterThanOrEqual(90);
    expect(report.findings[0]!.finding_id).toBe('domain_analysis:homograph:paypal.com');
    const scores = report.findings.map((f) => f.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(report.entities[0]).toEqual({
      type: 'domain',
      value: 'xn--ypal-43d9g.com',
      role: 'investigated',
      // The offline mail-provider lists answer for a domain too.
      attributes: { mail_domain: 'xn--ypal-43d9g.com', disposable_email: false, free_email: false },
    });
    expect(report.entities.slice(1)).toEqual([
      { type: 'domain', value: 'paypal.com', role: 'related', relationship: 'impersonates', evidence: [] },
      // Found by incident_history and again in the graph: first mention wins, evidence merged.
      {
        type: 'ip',
        value: '198.51.100.23',
        role: 'related',
        relationship: 'co_occurs_in_incident',
        evidence: ['inc_2'],
      },
      {
        type: 'user',
        value: 'alice@corp.example',
        role: 'related',
        relationship: 'co_occurs_in_incident',
        evidence: ['inc_1'],
      },
    ]);
    expect(report.coverage).toEqual({
      tools_run: 4,
      tools_succeeded: 4,
      tools_failed: [],
      tools_timed_out: [],
    });
  });

  it('is deterministic and accepts findings given explicitly', async () => {
    const calls = await investigate(phish);
    expect(buildReport({ entity: phish, toolCalls: calls })).toEqual(
      buildReport({ entity: phish, toolCalls: calls }),
    );
    const onlyInfo = buildReport({ entity: phish, toolCalls: calls, findings: [] });
    expect(onlyInfo).toMatchObject({ risk_score: 0, verdict: 'unknown', confidence: 'low', findings: [] });
  });

  it('gives a benign verdict for a clean entity with full coverage', async () => {
    const entity: Entity = { type: 'ip', value: '8.8.8.8' };
    const report = buildReport({ entity, toolCalls: await runTools(entity, context()) });
    expect(report).toMatchObject({ risk_score: 0, verdict: 'benign' });
    expect(report.recommendations).toContain(
      'No action needed: close as benign and keep this report as evidence.',
    );
  });
});

describe('personas shape the words, never the numbers', () => {
  let reports: Record<string, Report>;

  async function all(): Promise<Record<string, Report>> {
    if (reports) return reports;
    const calls = await investigate(phish);
    reports = Object.fromEntries(
      PERSONA_NAMES.map((persona) => [persona, buildReport({ entity: phish, persona, toolCalls: calls })]),
    );
    return reports;
  }

  it('keeps score, verdict, findings and entities identical across personas', async () => {
    const r = await all();
    for (const name of PERSONA_NAMES) {
      expect(r[name]!.risk_score).toBe(r['SOC Analyst']!.risk_score);
      expect(r[name]!.verdict).toBe(r['SOC Analyst']!.verdict);
      expect(r[name]!.findings).toEqual(r['SOC Analyst']!.findings);
      expect(r[name]!.entities).toEqual(r['SOC Analyst']!.entities);
    }
    expect(new Set(PERSONA_NAMES.map((n) => r[n]!.summary)).size).toBe(3);
  });

  it('SOC Analyst: technical indicators with scores, tools and related entities, plus containment steps', async () => {
    const soc = (await all())['SOC Analyst']!;
    expect(soc.summary).toMatch(
      /^MALICIOUS · risk \d+\/100 · domain xn--ypal-43d9g\.com\n\d indicators from 4\/4 tools; (medium|high) confidence\./,
    );
    expect(soc.summary).toMatch(/\[critical 90\] Homograph of PayPal \(paypal\.com\) \(domain_analysis\)/);
    expect(soc.summary).toMatch(/Related entities: .*ip:198\.51\.100\.23/);
    expect(soc.recommendations[0]).toMatch(/^Block xn--ypal-43d9g\.com in DNS filtering/);
    expect(soc.recommendations.join('\n')).toMatch(/takedown/);
    expect(soc.recommendations.join('\n')).toMatch(/inc_1, inc_2/);
  });

  it('SOC Analyst: counts indicators and tools, with the context when none is an indicator', () => {
    const soc = resolvePersona('SOC Analyst');
    const finding = (title: string, score: number) =>
      ({ title, score, severity: score > 0 ? 'low' : 'info', source_tool: 'ip_classification' }) as Finding;
    const view = (findings: Finding[], failed: ToolName[] = []): ReportView => ({
      entity: c2,
      riskScore: 15,
      verdict: 'benign',
      findings,
      related: [],
      coverage: {
        tools_run: 4,
        tools_succeeded: 4 - failed.length,
        tools_failed: failed,
        tools_timed_out: [],
      },
    });
    const head = 'BENIGN · risk 15/100 · IP address 198.51.100.23';
    expect(soc.summary(view([finding('Quiet', 0), finding('Known', 0)]))).toBe(
      `${head}\n0 indicators from 4/4 tools; low confidence.\nNo risk indicators. Context: Quiet; Known.`,
    );
    expect(soc.summary(view([], ['graph_neighbourhood']))).toBe(
      `${head}\n0 indicators from 3/4 tools (did not complete: graph_neighbourhood); low confidence.\nNo risk indicators.`,
    );
    expect(soc.summary(view([finding('Odd', 15), finding('Quiet', 0)]))).toBe(
      `${head}\n1 indicator from 4/4 tools; low confidence.\nIndicators:\n- [low 15] Odd (ip_classification)`,
    );
    expect(soc.summary(view([finding('Odd', 15), finding('Odder', 20)], ['incident_history']))).toBe(
      `${head}\n2 indicators from 3/4 tools (did not complete: incident_history); low confidence.\nIndicators:\n` +
        '- [low 15] Odd (ip_classification)\n- [low 20] Odder (ip_classification)',
    );
  });

  it('SOC Analyst: every summary of an unknown verdict has the words its verdict posting stands in for', () => {
    // The search index posts such a session under `vd:unknown` instead of these words (VERDICT_SUMMARY_WORDS).
    const soc = resolvePersona('SOC Analyst');
    const finding = (title: string, score: number) =>
      ({ title, score, severity: score > 0 ? 'low' : 'info', source_tool: 'ip_classification' }) as Finding;
    const cases: Array<[Finding[], number]> = [
      [[], 0],
      [[finding('Quiet', 0)], 0],
      [[finding('Odd', 15)], 15],
      [[finding('Odd', 15), finding('Odder', 20)], 32],
    ];
    for (const [findings, riskScore] of cases) {
      const words = new Set(
        wordsOf(
          soc.summary({
            entity: c2,
            riskScore,
            verdict: 'unknown',
            findings,
            related: [],
            coverage: { tools_run: 4, tools_succeeded: 4, tools_failed: [], tools_timed_out: [] },
          }),
        ),
      );
      // "no evidence in 4 sources" only when nothing was found ("risk 15/100" otherwise).
      const expected = riskScore === 0 ? VERDICT_SUMMARY_WORDS.unknown! : ['risk', 'indicators'];
      for (const word of expected) expect(words.has(word), `${word} in ${[...words].join(' ')}`).toBe(true);
    }
  });

  it('CISO: business impact and a decision, in plain words without jargon', async () => {
    const ciso = (await all()).CISO!;
    expect(ciso.summary).toMatch(
      /^The website address раypal\.com is very likely hostile\. Overall risk: high/,
    );
    expect(ciso.summary).toMatch(/imitates PayPal/);
    expect(ciso.summary).toMatch(/Decision: Approve immediate containment/);
    const text = `${ciso.summary}\n${ciso.recommendations.join('\n')}`;
    for (const jargon of [
      /punycode/i,
      /homograph/i,
      /xn--/,
      /\bIOCs?\b/,
      /\bTTPs?\b/,
      /\bC2\b/,
      /\bDNS\b/,
      /\bEDR\b/,
      /entropy/i,
      /_analysis|_history|_neighbourhood|prior_investigations/,
      /\[\w+ \d+\]/,
    ]) {
      expect(text).not.toMatch(jargon);
    }
  });

  it('Threat Hunter: hypotheses and pivots', async () => {
    const hunter = (await all())['Threat Hunter']!;
    expect(hunter.summary).toMatch(/^Hunt brief: domain xn--ypal-43d9g\.com · malicious/);
    expect(hunter.summary).toMatch(/Hypotheses: phishing or credential-harvesting infrastructure/);
    expect(hunter.summary).toMatch(/Pivots \(3\): .*user:alice@corp\.example via co_occurs_in_incident/);
    expect(hunter.recommendations.join('\n')).toMatch(/look-alikes of paypal\.com/);
    expect(hunter.recommendations.join('\n')).toMatch(
      /Pivot on co-occurring entities: ip:198\.51\.100\.23, user:alice@corp\.example\./,
    );
  });

  it('CISO: nothing known is not "safe", and no decision is asked for', async () => {
    const entity: Entity = { type: 'host', value: 'ws-0042' };
    const report = buildReport({ entity, persona: 'ciso', toolCalls: await runTools(entity, context()) });
    expect(report.verdict).toBe('unknown');
    expect(report.summary).toMatch(
      /^The computer ws-0042 is not known to be either safe or hostile\. Overall risk: low \(0 out of 100\)/,
    );
    expect(report.recommendations).toEqual([
      'No decision yet: nothing is known about it either way, which is not the same as safe.',
    ]);
  });

  it('CISO recommends no decision for a benign (allowlisted) result', async () => {
    const entity: Entity = { type: 'host', value: 'ws-0042' };
    const knowledge = {
      'host:ws-0042': {
        allowlist: [
          {
            entry_id: 'al_1',
            type: 'host',
            value: 'ws-0042',
            reason: 'Build server of the payments team',
            created_by: 'user:admin',
            created_at: '2026-11-01T09:00:00.000Z',
            expires_at: null,
          },
        ],
      },
    };
    const report = buildReport({
      entity,
      persona: 'ciso',
      toolCalls: await runTools(entity, context({ knowledge })),
    });
    expect(report).toMatchObject({ verdict: 'benign', confidence: 'high' });
    expect(report.summary).toMatch(/^The computer ws-0042 is known to be legitimate\./);
    expect(report.recommendations).toEqual(['No decision needed.']);
  });
});

describe('messages persisted in the session history', () => {
  it('opens with the plan, in the persona voice', () => {
    expect(openingMessage(undefined, phish, toolsFor(phish))).toBe(
      'Investigating domain xn--ypal-43d9g.com with 4 tools: domain_analysis, incident_history, prior_investigations, graph_neighbourhood.',
    );
    const ciso = openingMessage('CISO', phish, toolsFor(phish));
    expect(ciso).toMatch(/business risk of the website address раypal\.com/);
    expect(ciso).not.toMatch(/domain_analysis/);
  });

  it('closes with the summary and the recommendations', async () => {
    const report = buildReport({ entity: phish, persona: 'ciso', toolCalls: await investigate(phish) });
    const message = closingMessage(report);
    expect(message.startsWith(report.summary)).toBe(true);
    expect(message).toMatch(/\n\nRecommended decisions:\n- Approve immediate containment/);
  });

  it('explains failed and canceled runs', () => {
    expect(unfinishedMessage('soc', alice, 'failed', 'The workflow timed out')).toBe(
      'Investigation of user alice@corp.example failed before a verdict: The workflow timed out. Re-run it; tool results recorded so far are kept.',
    );
    expect(unfinishedMessage('ciso', alice, 'canceled')).toBe(
      'The assessment of the user account alice was stopped before it finished; no conclusion was reached.',
    );
    expect(unfinishedMessage('hunter', alice, 'failed')).toMatch(/^Hunt on user alice@corp\.example failed;/);
  });
});

describe('graph edges and raw results', () => {
  it('returns only links found by analysis, as related_in_investigation with the session as evidence', async () => {
    const calls = await investigate(phish);
    expect(relationshipsFrom({ entity: phish, toolCalls: calls, sessionId: 's_1234567890' })).toEqual([
      {
        from: phish,
        to: { type: 'domain', value: 'paypal.com' },
        relationship: 'related_in_investigation',
        link: 'impersonates',
        evidence: ['s_1234567890'],
      },
    ]);
  });

  it('includes subdomain and alias links, never links from failed tools', async () => {
    const sub = normaliseEntity('login.evil-example.com');
    const calls = await runTools(sub, domainContext());
    expect(relationshipsFrom({ entity: sub, toolCalls: calls }).map((e) => [e.to.value, e.link])).toEqual([
      ['evil-example.com', 'subdomain_of'],
    ]);
    const failed = calls.map((c) => ({ ...c, status: 'failed' as const, output: null }));
    expect(relationshipsFrom({ entity: sub, toolCalls: failed })).toEqual([]);
  });

  it('keys raw results by tool name', async () => {
    const entity: Entity = { type: 'ip', value: '100.64.1.1' };
    const raw = rawResultsFrom(await runTools(entity, context()));
    expect(Object.keys(raw)).toEqual(toolsFor(entity));
    expect(raw.ip_classification).toMatchObject({
      status: 'succeeded',
      facts: { range: 'carrier_grade_nat' },
    });
  });
});
