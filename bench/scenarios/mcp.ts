import type { CostLine } from '../lib/cost-model';
import type { BenchService } from '../lib/harness';
import { sequentialLatencies } from '../lib/http';
import { distribution, type Figure, figure } from '../lib/stats';
import type { ScenarioContext } from './context';
import type { PollTarget } from './polling';

/**
 * The MCP endpoint (issue #37) against the REST poll, through the same local gateway and authorizer
 * in the same run, round by round: `tools/list` and `tools/call get_investigation` (the poll's MCP
 * twin, the same seeded session) as a 2025-era client sends them (stateless, no initialize), and
 * GET /api/v1/public/sessions/{id}.
 */
export const MCP_LATENCY_RATIO_TARGET = 1.3;

export interface McpLatencyResult {
  samplesPerRound: number;
  restPollP50: Figure;
  toolsListP50: Figure;
  getInvestigationP50: Figure;
  /** Per round: the MCP call's p50 / the REST poll's p50. */
  toolsListRatio: Figure;
  getInvestigationRatio: Figure;
}

export const MCP_HEADERS = {
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

export async function runMcpLatency(
  ctx: ScenarioContext,
  bench: BenchService,
  target: PollTarget,
): Promise<McpLatencyResult> {
  const rounds = ctx.quick ? 3 : 5;
  const samples = ctx.quick ? 60 : 200;
  const restPoll = async () => {
    const answer = await bench.http.call('GET', `/api/v1/public/sessions/${target.sessionId}`, {
      key: bench.apiKey,
    });
    if (answer.status !== 200) throw new Error(`poll answered ${answer.status}`);
  };
  const mcpCall = (method: string, params: unknown) => async () => {
    const answer = await bench.http.call('POST', '/api/v1/mcp', {
      key: bench.apiKey,
      headers: MCP_HEADERS,
      body: { jsonrpc: '2.0', id: 1, method, params },
    });
    const body = answer.body as { result?: { isError?: boolean } };
    if (answer.status !== 200 || !body.result || body.result.isError) {
      throw new Error(`MCP ${method} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
  };
  const toolsList = mcpCall('tools/list', {});
  const getInvestigation = mcpCall('tools/call', {
    name: 'get_investigation',
    arguments: { session_id: target.sessionId },
  });
  const p50Of = async (op: () => Promise<void>, count: number) =>
    distribution(await sequentialLatencies(op, count)).p50;

  for (const op of [restPoll, toolsList, getInvestigation]) await p50Of(op, 30);
  const rest: number[] = [];
  const list: number[] = [];
  const get: number[] = [];
  for (let round = 0; round < rounds; round++) {
    ctx.say(`  MCP vs REST poll round ${round + 1}/${rounds}`);
    // Rotate the order so drift on the shared machine hits all three alike.
    const order = [
      () => p50Of(restPoll, samples).then((v) => rest.push(v)),
      () => p50Of(toolsList, samples).then((v) => list.push(v)),
      () => p50Of(getInvestigation, samples).then((v) => get.push(v)),
    ];
    for (let i = 0; i < order.length; i++) await order[(i + round) % order.length]!();
  }
  return {
    samplesPerRound: samples,
    restPollP50: figure(rest),
    toolsListP50: figure(list),
    getInvestigationP50: figure(get),
    toolsListRatio: figure(list.map((v, i) => v / rest[i]!)),
    getInvestigationRatio: figure(get.map((v, i) => v / rest[i]!)),
  };
}

/** The bench target of this scenario, as evaluateTargets lists them. */
export function mcpLatencyTarget(result: McpLatencyResult) {
  const worst = Math.max(result.toolsListRatio.median, result.getInvestigationRatio.median);
  const ms = (figure: Figure) => figure.median.toFixed(2);
  return {
    id: 'mcp-latency',
    description: `MCP tools/list and get_investigation p50 ≤ ${MCP_LATENCY_RATIO_TARGET}× the REST poll's, same run`,
    target: `≤ ${MCP_LATENCY_RATIO_TARGET}×`,
    measured: `tools/list ${result.toolsListRatio.median.toFixed(2)}× (${ms(result.toolsListP50)} ms), get_investigation ${result.getInvestigationRatio.median.toFixed(2)}× (${ms(result.getInvestigationP50)} ms) vs poll ${ms(result.restPollP50)} ms`,
    met: worst <= MCP_LATENCY_RATIO_TARGET,
  };
}

/** Issue #37: an MCP call costs within this much per million calls of its REST twin. */
export const MCP_COST_DELTA_USD = 1;

/** Each MCP call metered by the cost scenario, and the REST operation it stands in for. */
const MCP_COST_TWINS = { 'mcp-tools-list': 'plugin-document', 'mcp-get-investigation': 'report' } as const;

export function mcpCostTarget(lines: readonly CostLine[]) {
  const pairs = Object.entries(MCP_COST_TWINS).map(([mcpId, restId]) => {
    const mcp = lines.find((l) => l.id === mcpId);
    const rest = lines.find((l) => l.id === restId);
    return {
      mcpId,
      restId,
      delta: (mcp?.perMillion.total ?? Number.NaN) - (rest?.perMillion.total ?? Number.NaN),
    };
  });
  return {
    id: 'mcp-cost',
    description: `Per 1M calls, MCP tools/list and get_investigation within $${MCP_COST_DELTA_USD} of their REST twins (the plugin document, the report)`,
    target: `≤ +$${MCP_COST_DELTA_USD}`,
    measured: pairs
      .map((p) => `${p.mcpId} ${p.delta >= 0 ? '+' : ''}$${p.delta.toFixed(2)} vs ${p.restId}`)
      .join(', '),
    met: pairs.every((p) => p.delta <= MCP_COST_DELTA_USD),
  };
}
