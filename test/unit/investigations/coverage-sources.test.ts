import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import type {
  AnalystSection,
  CoverageSource,
  Finding,
  ToolCall,
  ToolName,
} from '../../../shared/domain/core/vocabulary';
import { buildReport } from '../../../shared/domain/investigation';
import {
  coverageSources,
  noOutsideSource,
  type SourceSetup,
  withAnalystCoverage,
} from '../../../shared/domain/investigation/coverage-sources';
import { makeFinding } from '../../../shared/domain/investigation/scoring';
import {
  type BuiltInToolName,
  builtInTool,
} from '../../../shared/domain/investigation/tools/built-in-tool-declarations';

const ip: Entity = { type: 'ip', value: '198.51.100.23' };
const nothingOn: SourceSetup = { feeds: [], connectors: [], analyst: 'rules' };
const NO_OUTSIDE = 'No outside source was consulted';

function call(name: ToolName, status: ToolCall['status'], extra: Partial<ToolCall> = {}): ToolCall {
  return {
    tool_call_id: `tc_${name}`,
    name,
    input: { entity: ip },
    output: status === 'succeeded' ? { facts: {}, findings: [], related: [] } : null,
    status,
    started_at: '2026-12-02T00:00:00.000Z',
    duration_ms: 1,
    ...extra,
  };
}

function succeeded(name: ToolName, findings: Finding[], facts: ToolCall['output'] = null): ToolCall {
  return call(name, 'succeeded', {
    output: { facts: facts?.facts ?? {}, findings, related: [] },
  });
}

const internalTools = [
  call('ip_classification', 'succeeded'),
  call('incident_history', 'succeeded'),
  call('prior_investigations', 'succeeded'),
  call('graph_neighbourhood', 'succeeded'),
];

const byName = (sources: CoverageSource[], name: string) => sources.find((s) => s.name === name);

describe('coverage.sources', () => {
  it('lists every source with nothing outside on: built-in consulted, feeds and connectors disabled with the setting to turn them on', () => {
    const sources = coverageSources('ip', internalTools, nothingOn);
    expect(
      sources.filter((s) => s.kind === 'built_in' && s.status === 'consulted').map((s) => s.name),
    ).toEqual(['ip_classification', 'incident_history', 'prior_investigations', 'graph_neighbourhood']);
    expect(byName(sources, 'domain_analysis')).toEqual({
      name: 'domain_analysis',
      kind: 'built_in',
      status: 'skipped',
      reason: 'Does not apply to an IP.',
    });
    expect(byName(sources, 'FEODO')).toMatchObject({
      kind: 'feed',
      status: 'disabled',
      reason: expect.stringContaining('Not enabled. Set SIS_FEED_FEODO_ENABLED=true'),
    });
    expect(byName(sources, 'internetdb')).toMatchObject({
      kind: 'connector',
      status: 'disabled',
      reason: expect.stringContaining('No key needed: set SIS_INTEL_INTERNETDB_ENABLED=true'),
    });
    expect(byName(sources, 'abuseipdb')?.reason).toContain('SIS_INTEL_ABUSEIPDB_API_KEY');
    expect(byName(sources, 'analyst')).toMatchObject({ kind: 'analyst', status: 'disabled' });
    expect(sources.filter((s) => s.kind === 'feed')).toHaveLength(9);
    expect(sources.filter((s) => s.kind === 'connector')).toHaveLength(9);
    expect(noOutsideSource(sources)).toBe(true);
  });

  it('reads each consulted feed and connector on its own, and says why the others did not answer', () => {
    const feodo = makeFinding({
      tool: 'feeds',
      code: 'listed_feodo',
      title: 'Listed by Feodo',
      description: '',
      impact: '',
      score: 85,
      category: 'suspicious_infrastructure',
      evidence_source: 'feed:FEODO',
    });
    const feeds = succeeded('feeds', [feodo], {
      facts: {
        feeds_checked: ['FEODO', 'TOR_EXITS'],
        matches: [],
        stale_feeds: ['TOR_EXITS'],
        unavailable_feeds: ['CINS'],
      },
      findings: [],
      related: [],
    });
    const greynoise = succeeded('intel_greynoise', [
      { ...feodo, score: 0, source_tool: 'intel_greynoise', source_verdict: 'benign' },
    ]);
    const sources = coverageSources(
      'ip',
      [
        ...internalTools,
        feeds,
        greynoise,
        call('intel_abuseipdb', 'skipped', { error: 'AbuseIPDB v2 is out of its daily quota.' }),
        call('intel_internetdb', 'failed', { error: 'connect ECONNREFUSED 127.0.0.1:9' }),
      ],
      {
        feeds: ['FEODO', 'TOR_EXITS', 'CINS', 'TRANCO'],
        connectors: ['greynoise', 'abuseipdb', 'internetdb', 'urlhaus'],
        analyst: 'rules',
      },
    );
    expect(byName(sources, 'FEODO')).toEqual({
      name: 'FEODO',
      kind: 'feed',
      status: 'consulted',
      reading: 'malicious',
    });
    expect(byName(sources, 'TOR_EXITS')).toMatchObject({
      status: 'consulted',
      reading: 'no_opinion',
      reason: expect.stringContaining('Stale'),
    });
    expect(byName(sources, 'CINS')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('never refreshed'),
    });
    expect(byName(sources, 'TRANCO')).toMatchObject({ status: 'skipped', reason: 'Lists no IPs.' });
    expect(byName(sources, 'greynoise')).toMatchObject({ status: 'consulted', reading: 'benign' });
    expect(byName(sources, 'abuseipdb')).toMatchObject({
      status: 'skipped',
      reason: 'AbuseIPDB v2 is out of its daily quota.',
    });
    expect(byName(sources, 'internetdb')).toMatchObject({
      status: 'failed',
      reason: 'connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(noOutsideSource(sources)).toBe(false);
  });

  it('says a configured connector that does not look up the entity type was skipped, not disabled', () => {
    const user: Entity = { type: 'user', value: 'alice@corp.example' };
    const sources = coverageSources('user', [], {
      feeds: ['FEODO'],
      connectors: ['abuseipdb'],
      analyst: 'rules',
    });
    expect(byName(sources, 'abuseipdb')).toMatchObject({
      status: 'skipped',
      reason: 'Does not look up a user.',
    });
    expect(byName(sources, 'FEODO')).toMatchObject({ status: 'skipped', reason: 'Lists no users.' });
    expect(user.type).toBe('user');
  });
});

describe('the built-in tools of the list', () => {
  it('apply to the entity types their declarations say', () => {
    for (const type of ['ip', 'domain', 'user', 'host'] as const) {
      for (const source of coverageSources(type, [], nothingOn).filter((s) => s.kind === 'built_in')) {
        const applies = builtInTool(source.name as BuiltInToolName).appliesTo({ type, value: 'x' });
        expect(source.reason, `${source.name} for ${type}`).toMatch(
          applies ? /^Not run\.$/ : /^Does not apply/,
        );
      }
    }
  });
});

describe('the "no outside source" line', () => {
  it('is in the summary of every persona exactly when no feed or connector was consulted', () => {
    for (const persona of ['SOC Analyst', 'CISO', 'Threat Hunter']) {
      const none = buildReport({ entity: ip, persona, toolCalls: internalTools, sources: nothingOn });
      expect(none.summary).toContain(`${NO_OUTSIDE}: 4 tenant-internal tools`);
      expect(none.coverage.sources).toHaveLength(7 + 9 + 9 + 1);
      const withFeed = buildReport({
        entity: ip,
        persona,
        toolCalls: [
          ...internalTools,
          succeeded('feeds', [], { facts: { feeds_checked: ['FEODO'] }, findings: [], related: [] }),
        ],
        sources: { ...nothingOn, feeds: ['FEODO'] },
      });
      expect(withFeed.summary).not.toContain(NO_OUTSIDE);
    }
  });

  it('is absent, with no list, when the caller does not say what the deployment turned on', () => {
    const report = buildReport({ entity: ip, toolCalls: internalTools });
    expect(report.coverage.sources).toBeUndefined();
    expect(report.summary).not.toContain(NO_OUTSIDE);
  });

  it('survives the analyst rewriting the summary, and the analyst entry says who wrote', () => {
    const report = buildReport({
      entity: ip,
      toolCalls: internalTools,
      sources: { ...nothingOn, analyst: 'bedrock' },
    });
    const analyst = { mode: 'rules', fallback_reason: 'model_timeout' } as AnalystSection;
    const rewritten = withAnalystCoverage({ ...report, summary: 'Narrative only.', analyst });
    expect(rewritten.summary).toContain(NO_OUTSIDE);
    expect(byName(rewritten.coverage.sources ?? [], 'analyst')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('model_timeout'),
    });
    const written = withAnalystCoverage({ ...report, analyst: { ...analyst, mode: 'bedrock' } });
    expect(byName(written.coverage.sources ?? [], 'analyst')).toMatchObject({ status: 'consulted' });
  });
});

describe('a verdict that overrides evidence (allowlist or review over risk ≥ 70)', () => {
  const allowlisted = makeFinding({
    tool: 'prior_investigations',
    code: 'allowlisted',
    title: 'Allowlisted by the tenant: vendor CDN',
    description: '',
    impact: '',
    score: 0,
    category: 'tenant_knowledge',
    benign: true,
    evidence_source: 'tenant:allowlist',
  });
  const critical = makeFinding({
    tool: 'incident_history',
    code: 'incidents',
    title: 'Mentioned in 1 critical incident (Cobalt Strike)',
    description: '',
    impact: '',
    score: 95,
    category: 'incident_history',
    evidence: ['inc_aaaaaaaaaaaaaaaaaaaaaaaaaa'],
  });

  it('names the conflict in a finding and the summary, keeps the evidence, and never says both review and close', () => {
    for (const persona of ['SOC Analyst', 'CISO', 'Threat Hunter']) {
      const report = buildReport({
        entity: ip,
        persona,
        toolCalls: internalTools,
        findings: [allowlisted, critical],
      });
      expect(report.verdict).toBe('benign');
      expect(report.risk_score).toBe(95);
      expect(report.summary).toContain(
        'Conflict: Allowlisted by the tenant: vendor CDN overrides evidence of risk 95/100',
      );
      expect(report.findings.map((f) => f.finding_id)).toEqual(
        expect.arrayContaining(['incident_history:incidents', 'prior_investigations:conflict']),
      );
      expect(report.recommendations.join(' ')).not.toMatch(
        /close as benign and keep|No decision needed|Baseline only/,
      );
      expect(report.recommendations[0]).toMatch(/^(Confirm|Decide)/);
    }
  });

  it('says nothing of a conflict when the overridden risk is below 70', () => {
    const report = buildReport({
      entity: ip,
      toolCalls: internalTools,
      findings: [allowlisted, { ...critical, score: 40, severity: 'medium' }],
    });
    expect(report.summary).not.toContain('Conflict');
    expect(report.recommendations).toContain(
      'No action needed: close as benign and keep this report as evidence.',
    );
  });
});
