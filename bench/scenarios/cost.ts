import { gzipSync } from 'node:zlib';
import { DEFAULT_MEMORY_MB } from '../../infra/constructs/service-function';
import { readWorkflowDefinitionText, toolMapItems, toolStepFunctions } from '../../infra/workflow/definition';
import { EXPRESS_BILLING } from '../../scripts/aws-prices';
import { countSuccessPath } from '../../scripts/cost/usage-model';
import { ROUTES } from '../../shared/api/routes';
import { config } from '../../shared/config';
import { createDocumentClient } from '../../shared/store/dynamo-client';
import { SessionReader } from '../../shared/store/sessions/session-reader';
import { tableName } from '../../shared/store/tables';
import { type DynamoMeter, meterTotals, type OperationUnits, startDynamoMeter } from '../lib/dynamo-meter';
import { handlerProbe } from '../lib/handler-timing';
import { type BenchService, startBenchService } from '../lib/harness';
import { logBytesByLabel } from '../lib/output';
import { ASSUMPTIONS } from '../pricing';
import type { ScenarioContext } from './context';
import { ENTITIES, withoutExpress } from './investigations';
import { MCP_HEADERS } from './mcp';
import { POLL_HISTORY_ITEMS, seedPolledSession } from './polling';

/**
 * What one call of each plugin skill (and the poll, and a whole investigation) consumes, measured on
 * a runtime whose DynamoDB traffic passes through the metering hop: DynamoDB requests and request
 * units (ReturnConsumedCapacity), Lambda invocations and their durations (handler timings), workflow
 * state transitions (the ASL's success path over the tools actually run), log bytes the handlers
 * wrote, and response bytes. Each operation is repeated and averaged.
 */
export interface LambdaUse {
  functionName: string;
  /** Invocations per operation. */
  invocations: number;
  /** Mean duration, ms. */
  meanMs: number;
  memoryMb: number;
}

export interface OperationUse {
  id: string;
  title: string;
  skill?: string;
  repetitions: number;
  httpRequests: number;
  /** Response body bytes, uncompressed. */
  responseBytes: number;
  /** Bytes sent: the gzip size of bodies API Gateway compresses (ASSUMPTIONS.minimumCompressionSizeBytes). */
  transferBytes: number;
  lambdas: LambdaUse[];
  dynamo: {
    requests: number;
    readUnits: number;
    writeUnits: number;
    byOperation: Record<string, OperationUnits>;
  };
  /** Standard state machine transitions per operation (Express runs bill none). */
  stateTransitions: number;
  /** Workflow runs per operation (both types). */
  workflowRuns: number;
  /** Of those, runs on the Express state machine, and their billed duration (100 ms steps), ms. */
  expressRuns: number;
  expressBilledMs: number;
  /** Execution history events along the runs' success path (what a log at level ALL receives). */
  executionLogEvents: number;
  logBytes: number;
}

export interface CostMeasurements {
  operations: OperationUse[];
  toolsPerInvestigation: number;
}

/**
 * Transitions and history events of a successful run whose tool steps were invoked this many times
 * (by function name; shared with scripts/cost/usage-model.ts).
 */
function successRun(toolInvocations: Readonly<Record<string, number>>) {
  return countSuccessPath(JSON.parse(readWorkflowDefinitionText()), toolMapItems(toolInvocations));
}

/** Body bytes on the wire when API Gateway compresses answers and the client accepts gzip. */
export function transferBytes(text: string): number {
  const bytes = Buffer.byteLength(text);
  return bytes >= ASSUMPTIONS.minimumCompressionSizeBytes ? gzipSync(text).length : bytes;
}

/** What one HTTP answer adds to an operation's use. */
const answered = (answer: { bytes: number; text: string }) => ({
  httpRequests: 1,
  responseBytes: answer.bytes,
  transferBytes: transferBytes(answer.text),
});

const memoryOf = (functionName: string) =>
  ROUTES.find((r) => r.functionName === functionName)?.memoryMb ?? DEFAULT_MEMORY_MB;

export async function measure(
  meter: DynamoMeter,
  tablePrefix: string,
  id: string,
  repetitions: number,
  run: (rep: number) => Promise<ReturnType<typeof answered>>,
): Promise<Omit<OperationUse, 'title' | 'skill'>> {
  const probe = handlerProbe();
  const label = `cost:${id}`;
  let httpRequests = 0;
  let responseBytes = 0;
  let sentBytes = 0;
  meter.calls.length = 0;
  probe.invocations.length = 0;
  logBytesByLabel.delete(label);
  for (let rep = 0; rep < repetitions; rep++) {
    meter.label = label;
    probe.label = label;
    const done = await run(rep);
    httpRequests += done.httpRequests;
    responseBytes += done.responseBytes;
    sentBytes += done.transferBytes;
  }
  meter.label = undefined;
  probe.label = undefined;
  const invocations = probe.invocations.filter((i) => i.label === label);
  const byFunction = new Map<string, number[]>();
  for (const i of invocations) {
    const list = byFunction.get(i.functionName) ?? [];
    list.push(i.endMs - i.startMs);
    byFunction.set(i.functionName, list);
  }
  const totals = meterTotals(meter.calls.filter((c) => c.label === label));
  const runs = invocations.filter((i) => i.functionName === 'step-persist').length / repetitions;
  // Each run's state machine (recorded on its session) and, for Express, its billed duration: from
  // its first step's start to its last step's end, rounded up to Express's 100 ms steps.
  const bySession = new Map<string, { start: number; end: number }>();
  for (const i of invocations) {
    if (!i.sessionId) continue;
    const span = bySession.get(i.sessionId) ?? { start: i.startMs, end: i.endMs };
    bySession.set(i.sessionId, { start: Math.min(span.start, i.startMs), end: Math.max(span.end, i.endMs) });
  }
  const cfg = config();
  const sessions = new SessionReader(createDocumentClient(cfg), tableName(cfg, 'sessions'));
  let expressRuns = 0;
  let expressBilledMs = 0;
  for (const [sessionId, span] of bySession) {
    if ((await sessions.get(sessionId))?.workflow !== 'express') continue;
    expressRuns++;
    const step = EXPRESS_BILLING.durationStepMs;
    expressBilledMs += Math.max(1, Math.ceil((span.end - span.start) / step)) * step;
  }
  const standardRuns = runs - expressRuns / repetitions;
  // Tool-step invocations per run, by step function: each tool Map's item count.
  const perRun = Object.fromEntries(
    toolStepFunctions().map((name) => [
      name,
      invocations.filter((i) => i.functionName === name).length / repetitions / (runs || 1),
    ]),
  );
  return {
    id,
    repetitions,
    httpRequests: httpRequests / repetitions,
    responseBytes: responseBytes / repetitions,
    transferBytes: sentBytes / repetitions,
    lambdas: [...byFunction].map(([functionName, durations]) => ({
      functionName,
      invocations: durations.length / repetitions,
      meanMs: durations.reduce((a, b) => a + b, 0) / durations.length,
      memoryMb: memoryOf(functionName),
    })),
    dynamo: {
      requests: totals.requests / repetitions,
      readUnits: totals.readUnits / repetitions,
      writeUnits: totals.writeUnits / repetitions,
      byOperation: Object.fromEntries(
        Object.entries(totals.byOperation).map(([k, v]) => [
          k.replaceAll(`${tablePrefix}-`, ''),
          {
            requests: v.requests / repetitions,
            readUnits: v.readUnits / repetitions,
            writeUnits: v.writeUnits / repetitions,
          },
        ]),
      ),
    },
    stateTransitions: standardRuns > 0 ? standardRuns * successRun(perRun).transitions : 0,
    workflowRuns: runs,
    expressRuns: expressRuns / repetitions,
    expressBilledMs: expressBilledMs / repetitions,
    executionLogEvents: runs > 0 ? runs * successRun(perRun).events : 0,
    logBytes: (logBytesByLabel.get(label) ?? 0) / repetitions,
  };
}

async function seedIncidents(bench: BenchService, count: number): Promise<void> {
  const severities = ['low', 'medium', 'high', 'critical'];
  for (let batch = 0; batch < count; batch += 50) {
    const incidents = Array.from({ length: Math.min(50, count - batch) }, (_, i) => {
      const n = batch + i;
      return {
        source: 'bench',
        source_id: `cost-${n}`,
        title: `Cost model incident ${n}`,
        severity: severities[n % 4],
        status: 'new',
        created_at: new Date(Date.now() - n * 3_600_000).toISOString(),
        entities: [
          { type: 'ip', value: '203.0.113.7' },
          { type: 'host', value: `ws-${String(n % 20).padStart(4, '0')}` },
        ],
      };
    });
    await bench.http.expect(202, 'POST', '/api/v1/incidents/ingest', {
      key: bench.apiKey,
      body: { incidents },
    });
  }
  await bench.service.incidentQueue.idle();
}

export async function runCostMeasurements(ctx: ScenarioContext): Promise<CostMeasurements> {
  const meter = await startDynamoMeter(ctx.dynamodbEndpoint);
  const bench = await startBenchService({ dynamodbEndpoint: meter.endpoint, name: 'cost' });
  try {
    const reps = ctx.quick ? 2 : 6;
    const key = bench.apiKey;
    await seedIncidents(bench, 60);
    const target = await seedPolledSession(bench, POLL_HISTORY_ITEMS);
    // Earlier investigations, so the tools, the graph and search have data to read.
    for (const entity of ENTITIES.slice(0, ctx.quick ? 4 : ENTITIES.length)) {
      await bench.http.expect(202, 'POST', '/api/v1/investigations/start', {
        key,
        body: { entity, background: true },
      });
      await bench.service.stepFunctions.idle();
    }
    const get = async (path: string) => {
      return answered(await bench.http.expect(200, 'GET', path, { key }));
    };
    const pollPath = `/api/v1/public/sessions/${target.sessionId}`;
    const operations: OperationUse[] = [];
    const add = async (
      id: string,
      title: string,
      skill: string | undefined,
      run: (rep: number) => Promise<ReturnType<typeof answered>>,
    ) => {
      ctx.say(`  metering ${title}`);
      operations.push({
        ...(await measure(meter, bench.tablePrefix, id, reps, run)),
        title,
        ...(skill ? { skill } : {}),
      });
    };
    const skill = (operationId: string) => ROUTES.find((r) => r.operationId === operationId)?.pluginSkill;

    await add(
      'investigate-sync',
      'Investigate an entity (synchronous, the default)',
      skill('startInvestigation'),
      async (rep) => {
        const answer = await bench.http.expect(200, 'POST', '/api/v1/investigations/start', {
          key,
          body: { entity: ENTITIES[rep % ENTITIES.length], background: false },
        });
        await bench.service.stepFunctions.idle();
        return answered(answer);
      },
    );
    await add(
      'investigate-background',
      'Investigation start (background) and its workflow run',
      undefined,
      async (rep) => {
        const answer = await bench.http.expect(202, 'POST', '/api/v1/investigations/start', {
          key,
          body: { entity: ENTITIES[rep % ENTITIES.length], background: true },
        });
        await bench.service.stepFunctions.idle();
        return answered(answer);
      },
    );
    await withoutExpress(() =>
      add(
        'investigate-background-standard',
        'Investigation start (background) and its workflow run on the Standard state machine (bedrock and connector runs)',
        undefined,
        async (rep) => {
          const answer = await bench.http.expect(202, 'POST', '/api/v1/investigations/start', {
            key,
            body: { entity: ENTITIES[rep % ENTITIES.length], background: true },
          });
          await bench.service.stepFunctions.idle();
          return answered(answer);
        },
      ),
    );
    await add('poll-full', `Poll a session (all ${POLL_HISTORY_ITEMS} history items)`, undefined, () =>
      get(pollPath),
    );
    await add('poll-incremental', 'Poll a session with ?after= (nothing new)', undefined, () =>
      get(`${pollPath}?after=${encodeURIComponent(target.cursor)}`),
    );
    await add('report', 'Get an investigation report', skill('getInvestigationReport'), () =>
      get(`/api/v1/sessions/${target.sessionId}`),
    );
    await add('graph', 'Query the knowledge graph (depth 1, limit 20)', skill('queryKnowledgeGraph'), () =>
      get('/api/v1/graph/entity/203.0.113.7?limit=20'),
    );
    await add(
      'incidents',
      'List recent incidents (high and critical, limit 20)',
      skill('listIncidents'),
      () => get('/api/v1/incidents?severity=high,critical&limit=20'),
    );
    await add('search', 'Search investigations ("type:ip", limit 20)', skill('searchInvestigations'), () =>
      get('/api/v1/search?q=type%3Aip&limit=20'),
    );
    // The MCP endpoint's calls beside their REST twins (issue #37: within $1 per million of them).
    const mcp = (method: string, params: unknown) => async () =>
      answered(
        await bench.http.expect(200, 'POST', '/api/v1/mcp', {
          key,
          headers: MCP_HEADERS,
          body: { jsonrpc: '2.0', id: 1, method, params },
        }),
      );
    await add('plugin-document', 'Fetch the plugin OpenAPI document (the skills, public)', undefined, () =>
      get('/plugin/openapi.json'),
    );
    await add('mcp-tools-list', 'MCP tools/list (the five tools)', undefined, mcp('tools/list', {}));
    await add(
      'mcp-get-investigation',
      'MCP get_investigation (tools/call)',
      undefined,
      mcp('tools/call', { name: 'get_investigation', arguments: { session_id: target.sessionId } }),
    );
    const background = operations.find((o) => o.id === 'investigate-background')!;
    const tools = background.lambdas
      .filter((l) => toolStepFunctions().includes(l.functionName))
      .reduce((sum, l) => sum + l.invocations, 0);
    return { operations, toolsPerInvestigation: tools };
  } finally {
    await bench.stop();
    await meter.stop();
  }
}
