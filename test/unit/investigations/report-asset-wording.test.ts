import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import type { Facts, Finding, ToolCall, ToolName } from '../../../shared/domain/core/vocabulary';
import { buildReport } from '../../../shared/domain/investigation';
import { makeFinding } from '../../../shared/domain/investigation/scoring';
import { tenantKnowledgeFindings } from '../../../shared/domain/investigation/tools/tool-tenant-knowledge';

/** Issue 35 items 4 and 5: the report's wording rules (report/asset-wording.ts, docs/verdicts.md). */

const AT = '2026-12-02T05:00:00.000Z';

function call(name: ToolName, entity: Entity, findings: Finding[], facts: Facts = {}): ToolCall {
  return {
    tool_call_id: `tc_${name}`,
    name,
    input: { entity },
    output: { facts, findings, related: [] },
    status: 'succeeded',
    started_at: AT,
    duration_ms: 5,
  };
}

const incidents = (tool: ToolName, score: number) =>
  makeFinding({
    tool,
    code: 'mentioned_in_incidents',
    title: 'Mentioned in 3 incidents',
    description: 'Three synced incidents name it.',
    impact: 'It keeps appearing in incidents.',
    score,
    category: 'incident_history',
    evidence: ['inc_1'],
  });

const svc: Entity = { type: 'user', value: 'svc-backup' };
const dc: Entity = { type: 'host', value: 'dc01' };
const ws: Entity = { type: 'host', value: 'ws-0142' };

describe('users and hosts are judged as what they are', () => {
  it('a user with malicious-level evidence is "likely compromised", never "hostile" or "malicious" in the text', () => {
    for (const persona of ['SOC Analyst', 'CISO', 'Threat Hunter']) {
      const report = buildReport({
        entity: svc,
        persona,
        toolCalls: [call('incident_history', svc, [incidents('incident_history', 90)])],
      });
      expect(report.verdict).toBe('malicious');
      expect(report.assessment).toBe('compromised');
      const text = `${report.summary}\n${report.recommendations.join('\n')}`;
      expect(text).toMatch(/likely compromised/i);
      expect(text).not.toMatch(/malicious|hostile/i);
    }
  });

  it('suspicious with incidents is "targeted"; suspicious on naming alone is "at risk"; an IP keeps "malicious"', () => {
    const targeted = buildReport({
      entity: svc,
      toolCalls: [call('incident_history', svc, [incidents('incident_history', 40)])],
    });
    expect(targeted.assessment).toBe('targeted');
    expect(targeted.summary.split('\n')[0]).toMatch(/^TARGETED · risk 40\/100/);
    const naming = makeFinding({
      tool: 'host_analysis',
      code: 'default_windows_name',
      title: 'Default Windows hostname',
      description: 'd',
      impact: 'i',
      score: 40,
      category: 'anomalous_naming',
    });
    expect(buildReport({ entity: ws, toolCalls: [call('host_analysis', ws, [naming])] }).assessment).toBe(
      'at_risk',
    );
    const ip: Entity = { type: 'ip', value: '198.51.100.23' };
    const report = buildReport({
      entity: ip,
      toolCalls: [call('incident_history', ip, [incidents('incident_history', 90)])],
    });
    expect(report.assessment).toBeUndefined();
    expect(report.summary).toMatch(/^MALICIOUS · risk 90/);
  });
});

describe('critical assets', () => {
  const knowledge = tenantKnowledgeFindings(
    svc,
    {
      allowlist: [],
      feedback: [],
      critical_asset: { criticality: 'critical', owner: 'Identity team', reason: 'Runs the nightly backups' },
    },
    new Date(AT),
  );
  const calls = [
    call('incident_history', svc, [incidents('incident_history', 90)]),
    call('prior_investigations', svc, knowledge.findings, knowledge.facts),
  ];

  it('names its criticality and owner in a finding, and coordinates containment with the owner instead of disabling it', () => {
    const report = buildReport({ entity: svc, toolCalls: calls });
    expect(report.findings.find((f) => f.finding_id === 'prior_investigations:critical_asset')?.title).toBe(
      'Critical asset (critical), owner Identity team: Runs the nightly backups',
    );
    expect(report.recommendations[0]).toMatch(
      /^Coordinate containment of svc-backup with its owner Identity team \(critical asset/,
    );
    expect(report.recommendations.join('\n')).not.toMatch(/^Disable /m);
    expect(report.recommendations).toContain(
      'Escalate to the on-call incident manager now: svc-backup is a critical asset.',
    );
    // A declaration changes the wording only: the same evidence without it gives the same verdict and risk.
    const undeclared = buildReport({ entity: svc, toolCalls: calls.slice(0, 1) });
    expect([report.verdict, report.risk_score]).toEqual([undeclared.verdict, undeclared.risk_score]);
    expect(knowledge.findings.map((f) => f.score)).toEqual([0]);
    const ciso = buildReport({ entity: svc, persona: 'CISO', toolCalls: calls });
    expect(ciso.recommendations[0]).toMatch(
      /^Ask Identity team, the owner of this critical-criticality account/,
    );
  });

  it('a high-criticality asset is coordinated without the critical escalation; a host named like a domain controller is never "isolated"', () => {
    const high = tenantKnowledgeFindings(
      svc,
      { allowlist: [], feedback: [], critical_asset: { criticality: 'high', owner: 'Ops', reason: 'r' } },
      new Date(AT),
    );
    const report = buildReport({
      entity: svc,
      toolCalls: [calls[0]!, call('prior_investigations', svc, high.findings, high.facts)],
    });
    expect(report.recommendations[0]).toMatch(
      /with its owner Ops \(high asset: disabling it has a business cost\)/,
    );
    expect(report.recommendations.join('\n')).not.toMatch(/Escalate to the on-call/);
    const dcName = makeFinding({
      tool: 'host_analysis',
      code: 'domain_controller',
      title: 'Domain controller by naming convention',
      description: 'd',
      impact: 'i',
      score: 20,
      category: 'critical_asset',
    });
    const dcReport = buildReport({
      entity: dc,
      toolCalls: [
        call('host_analysis', dc, [dcName]),
        call('incident_history', dc, [incidents('incident_history', 90)]),
      ],
    });
    const steps = dcReport.recommendations.join('\n');
    expect(steps).not.toMatch(/Isolate dc01/);
    expect(steps).toMatch(
      /Coordinate containment of dc01 with its owner \(none recorded: add it under Admin > Critical assets\)/,
    );
  });
});

describe('takedowns only where registration is known', () => {
  const domain: Entity = { type: 'domain', value: 'paypa1-login.com' };
  const lookalike = makeFinding({
    tool: 'domain_analysis',
    code: 'typosquat',
    title: 'Look-alike of PayPal',
    description: 'd',
    impact: 'i',
    score: 75,
    category: 'impersonation',
  });

  it('is conditional without registration evidence and direct with a feed listing the domain', () => {
    const unknown = buildReport({
      entity: domain,
      toolCalls: [call('domain_analysis', domain, [lookalike])],
    });
    expect(unknown.recommendations.join('\n')).toMatch(
      /If paypa1-login\.com is registered \(check RDAP or WHOIS first\), request a takedown/,
    );
    expect(unknown.recommendations.join('\n')).not.toMatch(/^Request a takedown/m);
    const listed = makeFinding({
      tool: 'feeds',
      code: 'listed',
      title: 'Listed by a phishing feed',
      description: 'd',
      impact: 'i',
      score: 80,
      category: 'suspicious_infrastructure',
    });
    const known = buildReport({
      entity: domain,
      toolCalls: [call('domain_analysis', domain, [lookalike]), call('feeds', domain, [listed])],
    });
    expect(known.recommendations).toContain(
      'Request a takedown of paypa1-login.com from its registrar and hosting provider, and warn users who may have received links to it.',
    );
    const rdap = buildReport({
      entity: domain,
      persona: 'CISO',
      toolCalls: [call('domain_analysis', domain, [lookalike], { registrar: 'Example Registrar' })],
    });
    expect(rdap.recommendations).toContain(
      'Authorise a takedown request for the fake site and a warning to staff, and to customers if they are targeted.',
    );
  });
});

describe('time made explicit', () => {
  it('graph and incident findings say "As of the run" and carry as_of; other findings do not', () => {
    const naming = makeFinding({
      tool: 'host_analysis',
      code: 'server',
      title: 'Server',
      description: 'A server.',
      impact: 'i',
      score: 0,
      category: 'context',
    });
    const report = buildReport({
      entity: ws,
      toolCalls: [
        call('host_analysis', ws, [naming]),
        call('incident_history', ws, [incidents('incident_history', 40)]),
      ],
    });
    const history = report.findings.find((f) => f.source_tool === 'incident_history')!;
    expect(history.as_of).toBe(AT);
    expect(history.description).toBe('As of the run: Three synced incidents name it.');
    const server = report.findings.find((f) => f.source_tool === 'host_analysis')!;
    expect(server.as_of).toBeUndefined();
    expect(server.description).toBe('A server.');
  });
});
