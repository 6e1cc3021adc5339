import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  buildReport,
  type InvestigationEvent,
  isToolName,
  runTool,
  runToolByName,
  runTools,
  TOOL_NAMES,
  TOOLS,
  type Tool,
  toolOrder,
  toolsFor,
} from '../../../shared/domain/investigation';
import { context, incident, memoryData, NOW } from './investigation-test-data';

const ip = { type: 'ip', value: '203.0.113.7' } as const;

function tool(name: Tool['name'], run: Tool['run']): Tool {
  return { name, description: 'test double', appliesTo: () => true, run };
}

describe('toolsFor', () => {
  it('plans the type-specific tool first, then the history tools', () => {
    const history = ['incident_history', 'prior_investigations', 'graph_neighbourhood'];
    expect(toolsFor({ type: 'ip', value: '8.8.8.8' })).toEqual(['ip_classification', ...history]);
    expect(toolsFor({ type: 'domain', value: 'example.com' })).toEqual(['domain_analysis', ...history]);
    expect(toolsFor({ type: 'user', value: 'corp\\alice' })).toEqual(['account_analysis', ...history]);
    expect(toolsFor({ type: 'host', value: 'dc01' })).toEqual(['host_analysis', ...history]);
  });

  it('knows every tool by a stable name', () => {
    expect(TOOL_NAMES).toEqual([
      'ip_classification',
      'domain_analysis',
      'account_analysis',
      'host_analysis',
      'incident_history',
      'prior_investigations',
      'graph_neighbourhood',
      'feeds',
      'intel_abuseipdb',
      'intel_greynoise',
      'intel_internetdb',
      'intel_urlhaus',
      'intel_threatfox',
      'intel_otx',
      'intel_crowdsec',
      'intel_virustotal',
      'intel_misp',
    ]);
  });

  it('lists the tools in report order, the order of their names (Assess orders by the names alone)', () => {
    expect(TOOLS.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(toolOrder('domain_analysis')).toBe(1);
    expect(toolOrder('intel_misp')).toBe(TOOL_NAMES.length - 1);
    expect(toolOrder('not_a_tool')).toBe(-1);
    expect(TOOL_NAMES.every(isToolName)).toBe(true);
    expect(isToolName('not_a_tool')).toBe(false);
  });
});

describe('runTool', () => {
  it('records a succeeded call and emits started then succeeded', async () => {
    const events: InvestigationEvent[] = [];
    const call = await runToolByName('ip_classification', ip, context(), {
      toolCallId: 'tc_fixed',
      onEvent: (e) => events.push(e),
    });
    expect(call).toMatchObject({
      tool_call_id: 'tc_fixed',
      name: 'ip_classification',
      input: { entity: ip },
      status: 'succeeded',
      started_at: NOW.toISOString(),
    });
    expect(call.error).toBeUndefined();
    expect(call.duration_ms).toBeGreaterThanOrEqual(0);
    expect(events.map((e) => e.type)).toEqual(['tool_started', 'tool_succeeded']);
    expect(events[1]!.detail).toMatchObject({
      tool: 'ip_classification',
      tool_call_id: 'tc_fixed',
      findings: 1,
    });
  });

  it('generates distinct tool call IDs', async () => {
    const [a, b] = await Promise.all([
      runToolByName('ip_classification', ip, context()),
      runToolByName('ip_classification', ip, context()),
    ]);
    expect(a!.tool_call_id).toMatch(/^tc_[0-9a-f]{32}$/);
    expect(a!.tool_call_id).not.toBe(b!.tool_call_id);
  });

  it('records a throwing tool as failed with a safe message and hands the raw error to onError', async () => {
    const events: InvestigationEvent[] = [];
    const raw: unknown[] = [];
    const secret = new Error('ResourceNotFoundException: table sis-acme-incidents at 10.0.0.12');
    const call = await runTool(
      tool('incident_history', async () => {
        throw secret;
      }),
      ip,
      context(),
      { onEvent: (e) => events.push(e), onError: (e) => raw.push(e) },
    );
    expect(call).toMatchObject({ status: 'failed', output: null, error: 'The tool failed unexpectedly.' });
    expect(JSON.stringify(call)).not.toContain('sis-acme');
    expect(raw).toEqual([secret]);
    expect(events.map((e) => e.type)).toEqual(['tool_started', 'tool_failed']);
    expect(JSON.stringify(events)).not.toContain('sis-acme');
  });

  it('passes a domain error message through, since those are written to be shown', async () => {
    const call = await runTool(
      tool('incident_history', async () => {
        throw new ValidationError('The incident store returned an invalid page.');
      }),
      ip,
      context(),
    );
    expect(call.error).toBe('The incident store returned an invalid page.');
  });

  it('records a synchronously throwing tool as failed too', async () => {
    const call = await runTool(
      tool('incident_history', (() => {
        throw new Error('sync');
      }) as Tool['run']),
      ip,
      context(),
    );
    expect(call.status).toBe('failed');
  });

  it('records a hanging tool as timed_out, aborts its signal and returns on time', async () => {
    let signal: AbortSignal | undefined;
    const events: InvestigationEvent[] = [];
    const started = Date.now();
    const call = await runTool(
      tool('graph_neighbourhood', (_entity, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      }),
      ip,
      context(),
      { timeoutMs: 50, onEvent: (e) => events.push(e) },
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(call).toMatchObject({
      status: 'timed_out',
      output: null,
      error: 'The tool did not finish within 50 ms.',
    });
    expect(call.duration_ms).toBeGreaterThanOrEqual(45);
    expect(signal?.aborted).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['tool_started', 'tool_timed_out']);
    expect(events[1]!.detail).toMatchObject({ timeout_ms: 50 });
  });

  it('treats malformed output as a failure', async () => {
    const call = await runTool(
      tool('incident_history', async () => ({}) as never),
      ip,
      context(),
    );
    expect(call.status).toBe('failed');
  });

  it('sanitises what a tool returns: clamps scores, derives severity, owns the IDs, drops bad entities', async () => {
    const call = await runTool(
      tool('incident_history', async () => ({
        facts: { n: 1 },
        findings: [
          {
            finding_id: 'x',
            title: 'A',
            description: 'd',
            impact: 'i',
            severity: 'info',
            score: 250,
            source_tool: 'domain_analysis',
            category: 'impersonation',
            evidence: ['e'],
          },
          {
            finding_id: 'x',
            title: 'B',
            description: 'd',
            impact: 'i',
            severity: 'critical',
            score: -3,
            source_tool: 'incident_history',
            category: 'context',
            evidence: [],
          },
        ],
        related: [
          {
            entity: { type: 'ip', value: '::ffff:198.51.100.1' },
            relationship: 'co_occurs_in_incident',
            evidence: [],
          },
          { entity: { type: 'ip', value: 'not an ip' }, relationship: 'co_occurs_in_incident', evidence: [] },
        ],
      })),
      ip,
      context(),
    );
    expect(call.status).toBe('succeeded');
    expect(call.output!.findings.map((f) => [f.finding_id, f.score, f.severity, f.source_tool])).toEqual([
      ['incident_history:x', 100, 'critical', 'incident_history'],
      ['incident_history:x:2', 0, 'info', 'incident_history'],
    ]);
    expect(call.output!.related).toEqual([
      { entity: { type: 'ip', value: '198.51.100.1' }, relationship: 'co_occurs_in_incident', evidence: [] },
    ]);
  });

  it('normalises the entity before the tool sees it', async () => {
    const call = await runToolByName('domain_analysis', { type: 'domain', value: 'PayPa1.COM.' }, context());
    expect(call.input.entity).toEqual({ type: 'domain', value: 'paypa1.com' });
  });

  it('rejects unknown and inapplicable tool names as caller bugs', async () => {
    await expect(runToolByName('whois', ip, context())).rejects.toBeInstanceOf(ValidationError);
    await expect(runToolByName('domain_analysis', ip, context())).rejects.toThrow(/does not apply to a ip/);
  });

  it('passes limits and the session to the tools', async () => {
    const data = memoryData();
    await runToolByName('incident_history', ip, { data, now: () => NOW, limits: { incidents: 7 } });
    expect(data.calls).toEqual(['incidents ip:203.0.113.7 7']);
  });
});

describe('an investigation with a failing and a hanging tool', () => {
  it('still produces a report, with the gaps in its coverage and recommendations', async () => {
    const data = memoryData({
      incidents: [incident('inc_1', 'critical', 1, [ip]), incident('inc_2', 'high', 3, [ip])],
    });
    const broken: typeof data = {
      ...data,
      async priorInvestigations() {
        throw new Error('connection reset');
      },
      neighbourhood: () => new Promise(() => {}),
    };
    const calls = await runTools(ip, { data: broken, now: () => NOW }, { timeoutMs: 50 });
    expect(calls.map((c) => [c.name, c.status])).toEqual([
      ['ip_classification', 'succeeded'],
      ['incident_history', 'succeeded'],
      ['prior_investigations', 'failed'],
      ['graph_neighbourhood', 'timed_out'],
    ]);
    const report = buildReport({ entity: ip, toolCalls: calls });
    expect(report.coverage).toEqual({
      tools_run: 4,
      tools_succeeded: 2,
      tools_failed: ['prior_investigations'],
      tools_timed_out: ['graph_neighbourhood'],
    });
    expect(report.risk_score).toBeGreaterThanOrEqual(70);
    expect(report.verdict).toBe('malicious');
    expect(report.summary).toMatch(/did not complete: prior_investigations, graph_neighbourhood/);
    expect(report.recommendations.join('\n')).toMatch(/Re-run the investigation/);
  });

  it('reports unknown, never benign, when nothing was found, whatever the coverage', async () => {
    const data = memoryData();
    const failing = {
      ...data,
      incidentsMentioning: async () => {
        throw new Error('down');
      },
      priorInvestigations: async () => {
        throw new Error('down');
      },
    };
    const calls = await runTools(ip, { data: failing, now: () => NOW });
    const report = buildReport({ entity: ip, toolCalls: calls });
    expect(report.coverage.tools_succeeded).toBe(2);
    expect(report.verdict).toBe('unknown');
    expect(report.score_explanation?.verdict_reason).toContain('no positive evidence of benignness');

    const worse = { ...failing, neighbourhood: failing.priorInvestigations };
    const fewer = buildReport({ entity: ip, toolCalls: await runTools(ip, { data: worse, now: () => NOW }) });
    expect(fewer.verdict).toBe('unknown');
    expect(fewer.risk_score).toBe(15);
  });
});
