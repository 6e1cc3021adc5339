import { toolStepFunctions } from '../../infra/workflow/definition';
import { config, resetConfigForTests } from '../../shared/config';
import type { ConnectorName } from '../../shared/domain/intel/connectors';
import { intelEnvPrefix } from '../../shared/domain/intel/names';
import { createDocumentClient } from '../../shared/store/dynamo-client';
import { SessionsRepository } from '../../shared/store/sessions/session-repository';
import { tableName } from '../../shared/store/tables';
import { type IntelFakeServer, startIntelFakeServer } from '../../test/support/intel-fake-server';
import { handlerProbe, type Invocation } from '../lib/handler-timing';
import type { BenchService } from '../lib/harness';
import { type Distribution, distribution, type Figure, figure } from '../lib/stats';
import type { ScenarioContext } from './context';

/** run-tool and run-intel: one invocation per tool, whichever step the Map chose for it. */
const TOOL_STEPS = toolStepFunctions();

/**
 * Investigations through the local runtime: background start (202) → completed, split into the
 * start handler, the workflow's step handlers (the engine and its DynamoDB writes: the time Lambda
 * would bill) and the rest (the ASL interpreter's transitions, scheduling, HTTP hops: workflow
 * overhead); the synchronous start; and 50 investigations started at once. Completion is the end
 * of the Persist step (which writes `completed`), taken from the handler timings, so no client
 * polling interval blurs it.
 */
export const ENTITIES = [
  { type: 'ip', value: '203.0.113.7' },
  { type: 'domain', value: 'login.example.com' },
  { type: 'user', value: 'j.doe@contoso.example' },
  { type: 'host', value: 'ws-0042' },
  { type: 'ip', value: '198.51.100.77' },
  { type: 'domain', value: 'cdn.example.net' },
  { type: 'user', value: 'svc-backup@contoso.example' },
  { type: 'host', value: 'db-prod-03' },
] as const;

export interface RunTiming {
  sessionId: string;
  /** Client: request sent → 202 received. */
  startRequestMs: number;
  /** Request sent → Persist step returned (status completed). */
  totalMs: number;
  startHandlerMs: number;
  /** Time at least one step handler of this run was executing. */
  stepBusyMs: number;
  /** Sum of step handler durations (billed Lambda time, parallel tools counted each). */
  stepBilledMs: number;
  overheadMs: number;
  stepInvocations: number;
  toolInvocations: number;
  /** performance.now() when Persist returned. */
  completedAt: number;
}

export interface InvestigationsResult {
  background: {
    runs: number;
    totalMs: Distribution;
    startRequestMs: Distribution;
    stepBusyMs: Distribution;
    overheadMs: Distribution;
    startHandlerMs: Distribution;
    /** totalMs / stepBusyMs per run: how much longer a run takes than its handlers' work. */
    overheadRatio: Distribution;
    stepInvocations: number;
    toolInvocations: number;
  };
  /**
   * The same background runs on the Standard state machine (the deployment's choice for bedrock and
   * connector runs), measured right after with the Express state machine switched off.
   */
  backgroundStandard: {
    runs: number;
    totalMs: Distribution;
    stepBusyMs: Distribution;
    overheadMs: Distribution;
  };
  synchronous: {
    runs: number;
    latencyMs: Distribution /** sync latency − background total, p50. */;
    waitExtraMs: number;
  };
  concurrent: {
    investigations: number;
    rounds: number;
    perSecond: Figure;
    wallMs: Figure;
    totalP50Ms: Figure;
    totalP99Ms: Figure;
    failed: number;
  };
  intel?: IntelInvestigationsResult;
}

/** Investigations of one public IP without connectors, with a cold cache and with a warm one. */
export type IntelMode = 'off' | 'cold' | 'warm';

export interface IntelInvestigationsResult {
  connectors: ConnectorName[];
  rounds: number;
  modes: Record<
    IntelMode,
    {
      totalMs: Distribution;
      stepBusyMs: Distribution;
      stepBilledMs: Distribution;
      toolInvocations: number;
      /** Requests the fake provider server received per run (all connectors). */
      providerRequests: number;
      /**
       * CPU time of this process (runtime, handlers, fake providers; not DynamoDB Local) from the
       * start request to the run's end: the service's own work, insensitive to waiting for a core.
       */
      cpuMs: Distribution;
    }
  >;
  /** Start → completed of the mode ÷ that of the run without connectors in the same round. */
  coldRatio: Figure;
  warmRatio: Figure;
  /** Billed step time (sum of step handler durations) of the mode ÷ without connectors, per round. */
  coldBilledRatio: Figure;
  warmBilledRatio: Figure;
  /** Process CPU time of the mode ÷ without connectors, per round. */
  coldCpuRatio: Figure;
  warmCpuRatio: Figure;
}

function union(intervals: Array<[number, number]>): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let current: [number, number] | undefined;
  for (const [start, end] of sorted) {
    if (!current || start > current[1]) {
      if (current) total += current[1] - current[0];
      current = [start, end];
    } else {
      current[1] = Math.max(current[1], end);
    }
  }
  if (current) total += current[1] - current[0];
  return total;
}

function timingOf(
  sessionId: string,
  sentAt: number,
  startRequestMs: number,
  invocations: readonly Invocation[],
): RunTiming {
  const steps = invocations.filter((i) => i.sessionId === sessionId);
  const persist = steps.filter((i) => i.functionName === 'step-persist').at(-1);
  if (!persist) throw new Error(`investigation ${sessionId} never reached Persist`);
  const start = invocations.find(
    (i) =>
      i.functionName === 'start-investigation' && i.startMs >= sentAt && i.endMs <= sentAt + startRequestMs,
  );
  const totalMs = persist.endMs - sentAt;
  const stepBusyMs = union(steps.map((s) => [s.startMs, s.endMs]));
  const startHandlerMs = start ? start.endMs - start.startMs : Number.NaN;
  return {
    sessionId,
    startRequestMs,
    totalMs,
    startHandlerMs,
    stepBusyMs,
    stepBilledMs: steps.reduce((sum, s) => sum + (s.endMs - s.startMs), 0),
    overheadMs: totalMs - stepBusyMs - (Number.isFinite(startHandlerMs) ? startHandlerMs : 0),
    stepInvocations: steps.length,
    toolInvocations: steps.filter((s) => TOOL_STEPS.includes(s.functionName)).length,
    completedAt: persist.endMs,
  };
}

async function startBackground(
  bench: BenchService,
  index: number,
  options: { entity?: { type: string; value: string }; refreshIntel?: boolean } = {},
) {
  const entity = options.entity ?? ENTITIES[index % ENTITIES.length]!;
  const sentAt = performance.now();
  const answer = await bench.http.expect(202, 'POST', '/api/v1/investigations/start', {
    key: bench.apiKey,
    body: { entity, background: true, ...(options.refreshIntel ? { refresh_intel: true } : {}) },
  });
  return { sessionId: (answer.body as { session_id: string }).session_id, sentAt, startRequestMs: answer.ms };
}

export async function runInvestigations(
  ctx: ScenarioContext,
  bench: BenchService,
): Promise<InvestigationsResult> {
  const probe = handlerProbe();
  const cfg = config();
  const sessions = new SessionsRepository(createDocumentClient(cfg), tableName(cfg, 'sessions'));
  const sequentialRuns = ctx.quick ? 6 : 30;
  const syncRuns = ctx.quick ? 3 : 12;
  const concurrentRounds = ctx.quick ? 1 : 2;
  const concurrency = ctx.quick ? 25 : 50;

  // Warm-up: every step handler loaded once, every entity type's tools run.
  for (let i = 0; i < (ctx.quick ? 4 : ENTITIES.length); i++) {
    await startBackground(bench, i);
    await bench.service.stepFunctions.idle();
  }

  ctx.say(`  ${sequentialRuns} background investigations, one at a time`);
  const runs: RunTiming[] = [];
  for (let i = 0; i < sequentialRuns; i++) {
    const started = await startBackground(bench, i);
    await bench.service.stepFunctions.idle();
    const session = await sessions.get(started.sessionId);
    if (session?.status !== 'completed') throw new Error(`investigation ended ${session?.status}`);
    // The default deployment (rules analyst, no connector): every run on the Express state machine.
    if (session.workflow !== 'express') throw new Error(`investigation ran on ${session.workflow}`);
    runs.push(timingOf(started.sessionId, started.sentAt, started.startRequestMs, probe.invocations));
  }

  ctx.say(`  ${sequentialRuns} background investigations on the Standard state machine, one at a time`);
  const standardRuns = await withoutExpress(async () => {
    const timings: RunTiming[] = [];
    // Warm-up after the switch: the configuration and its clients are rebuilt once.
    await startBackground(bench, 0);
    await bench.service.stepFunctions.idle();
    for (let i = 0; i < sequentialRuns; i++) {
      const started = await startBackground(bench, i);
      await bench.service.stepFunctions.idle();
      const session = await sessions.get(started.sessionId);
      if (session?.status !== 'completed' || session.workflow !== 'standard') {
        throw new Error(`Standard investigation ended ${session?.status} on ${session?.workflow}`);
      }
      timings.push(timingOf(started.sessionId, started.sentAt, started.startRequestMs, probe.invocations));
    }
    return timings;
  });

  ctx.say(`  ${syncRuns} synchronous investigations`);
  const syncLatencies: number[] = [];
  for (let i = 0; i < syncRuns; i++) {
    const answer = await bench.http.expect(200, 'POST', '/api/v1/investigations/start', {
      key: bench.apiKey,
      body: { entity: ENTITIES[i % ENTITIES.length], background: false },
    });
    syncLatencies.push(answer.ms);
    await bench.service.stepFunctions.idle();
  }

  const concurrent = {
    perSecond: [] as number[],
    wallMs: [] as number[],
    p50: [] as number[],
    p99: [] as number[],
  };
  let failed = 0;
  for (let round = 0; round < concurrentRounds; round++) {
    ctx.say(`  ${concurrency} investigations at once, round ${round + 1}/${concurrentRounds}`);
    const roundStart = performance.now();
    const started = await Promise.all(
      Array.from({ length: concurrency }, (_, i) => startBackground(bench, i)),
    );
    await bench.service.stepFunctions.idle();
    const timings: RunTiming[] = [];
    for (const s of started) {
      const session = await sessions.get(s.sessionId);
      if (session?.status !== 'completed') {
        failed++;
        continue;
      }
      timings.push(timingOf(s.sessionId, s.sentAt, s.startRequestMs, probe.invocations));
    }
    const wall = Math.max(...timings.map((t) => t.completedAt)) - roundStart;
    const totals = distribution(timings.map((t) => t.totalMs));
    concurrent.wallMs.push(wall);
    concurrent.perSecond.push((timings.length / wall) * 1000);
    concurrent.p50.push(totals.p50);
    concurrent.p99.push(totals.p99);
  }

  const backgroundTotal = distribution(runs.map((r) => r.totalMs));
  const syncLatency = distribution(syncLatencies);
  return {
    background: {
      runs: runs.length,
      totalMs: backgroundTotal,
      startRequestMs: distribution(runs.map((r) => r.startRequestMs)),
      stepBusyMs: distribution(runs.map((r) => r.stepBusyMs)),
      overheadMs: distribution(runs.map((r) => r.overheadMs)),
      startHandlerMs: distribution(runs.map((r) => r.startHandlerMs)),
      overheadRatio: distribution(runs.map((r) => r.totalMs / r.stepBusyMs)),
      stepInvocations: distribution(runs.map((r) => r.stepInvocations)).p50,
      toolInvocations: distribution(runs.map((r) => r.toolInvocations)).p50,
    },
    backgroundStandard: {
      runs: standardRuns.length,
      totalMs: distribution(standardRuns.map((r) => r.totalMs)),
      stepBusyMs: distribution(standardRuns.map((r) => r.stepBusyMs)),
      overheadMs: distribution(standardRuns.map((r) => r.overheadMs)),
    },
    synchronous: {
      runs: syncRuns,
      latencyMs: syncLatency,
      waitExtraMs: syncLatency.p50 - backgroundTotal.p50,
    },
    concurrent: {
      investigations: concurrency,
      rounds: concurrentRounds,
      perSecond: figure(concurrent.perSecond),
      wallMs: figure(concurrent.wallMs),
      totalP50Ms: figure(concurrent.p50),
      totalP99Ms: figure(concurrent.p99),
      failed,
    },
  };
}

/**
 * Runs `work` with the Express state machine unknown to the handlers, so every run starts on the
 * Standard one (what a bedrock or connector run gets), then restores it.
 */
export async function withoutExpress<T>(work: () => Promise<T>): Promise<T> {
  const arn = process.env.SIS_EXPRESS_STATE_MACHINE_ARN;
  delete process.env.SIS_EXPRESS_STATE_MACHINE_ARN;
  resetConfigForTests();
  try {
    return await work();
  } finally {
    if (arn !== undefined) process.env.SIS_EXPRESS_STATE_MACHINE_ARN = arn;
    resetConfigForTests();
  }
}

// ---- Investigations with threat-intelligence connectors ----

/** Two keyed sources that answer about IPs, as in the acceptance scenario. */
const INTEL_CONNECTORS: ConnectorName[] = ['abuseipdb', 'crowdsec'];
/** Public addresses (never sent anywhere but the local fake server). */
const INTEL_IPS = ['185.220.101.1', '45.155.205.23', '194.26.29.102', '89.248.165.4'] as const;

function connectorEnv(fake: IntelFakeServer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INTEL_CONNECTORS) {
    const prefix = intelEnvPrefix(name);
    env[`${prefix}_API_KEY`] = `bench-${name}-key`;
    env[`${prefix}_URL`] = fake.urlFor(name);
    // Far above what the bench sends: no run is skipped or paced by a provider's daily quota.
    env[`${prefix}_DAILY_QUOTA`] = '1000000';
  }
  return env;
}

/**
 * The handlers read the connectors from the process's configuration, parsed once and cached, and
 * every service keeps its clients per configuration object; switching sets or clears the
 * connectors' variables and drops the parsed configuration. It is switched before every run, in
 * every mode, so each run pays the same rebuild (the configuration, the SDK clients, the
 * authorizer's key cache) and the ratios compare like with like.
 */
function switchConnectors(env: Record<string, string>, on: boolean): void {
  for (const [name, value] of Object.entries(env)) {
    if (on) process.env[name] = value;
    else delete process.env[name];
  }
  resetConfigForTests();
}

interface IntelSources {
  answered: string[];
  cached: string[];
}

export async function runIntelInvestigations(
  ctx: ScenarioContext,
  bench: BenchService,
): Promise<IntelInvestigationsResult> {
  const probe = handlerProbe();
  const rounds = ctx.quick ? 6 : 15;
  const fake = await startIntelFakeServer(
    Object.fromEntries(INTEL_CONNECTORS.map((name) => [name, `bench-${name}-key`])),
  );
  const env = connectorEnv(fake);
  const sessionsOf = () => {
    const cfg = config();
    return new SessionsRepository(createDocumentClient(cfg), tableName(cfg, 'sessions'));
  };
  type IntelRun = RunTiming & { requests: number; cpuMs: number };
  const run = async (mode: IntelMode, value: string): Promise<IntelRun> => {
    switchConnectors(env, mode !== 'off');
    const before = fake.requests.length;
    const cpuStart = process.cpuUsage();
    const started = await startBackground(bench, 0, {
      entity: { type: 'ip', value },
      refreshIntel: mode === 'cold',
    });
    await bench.service.stepFunctions.idle();
    const cpu = process.cpuUsage(cpuStart);
    const session = await sessionsOf().get(started.sessionId);
    if (session?.status !== 'completed') throw new Error(`investigation ended ${session?.status}`);
    // The run measured what its mode says: every source asked afresh, every answer cached, or none.
    const sources = (session.report as { coverage?: { intel_sources?: IntelSources } } | undefined)?.coverage
      ?.intel_sources;
    const requests = fake.requests.length - before;
    const expected = {
      off: sources === undefined && requests === 0,
      cold: sources?.answered.length === INTEL_CONNECTORS.length && requests === INTEL_CONNECTORS.length,
      warm: sources?.cached.length === INTEL_CONNECTORS.length && requests === 0,
    }[mode];
    if (!expected)
      throw new Error(
        `${mode} investigation of ${value}: sources ${JSON.stringify(sources)}, ${requests} requests`,
      );
    return {
      ...timingOf(started.sessionId, started.sentAt, started.startRequestMs, probe.invocations),
      requests,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  };

  const samples: Record<IntelMode, IntelRun[]> = { off: [], cold: [], warm: [] };
  try {
    // Warm-up: each address asked once, so the warm mode finds it in the cache.
    for (const value of INTEL_IPS) await run('cold', value);
    await run('off', INTEL_IPS[0]);
    ctx.say(`  ${rounds} rounds of one IP investigation without connectors, cache cold and cache warm`);
    const modes: IntelMode[] = ['off', 'cold', 'warm'];
    for (let round = 0; round < rounds; round++) {
      const value = INTEL_IPS[round % INTEL_IPS.length]!;
      // Rotate so no mode always runs first (or right after a cache write).
      const order = [...modes.slice(round % 3), ...modes.slice(0, round % 3)];
      for (const mode of order) samples[mode].push(await run(mode, value));
    }
  } finally {
    switchConnectors(env, false);
    await fake.close();
  }
  const summary = (runs: IntelRun[]) => ({
    totalMs: distribution(runs.map((r) => r.totalMs)),
    stepBusyMs: distribution(runs.map((r) => r.stepBusyMs)),
    stepBilledMs: distribution(runs.map((r) => r.stepBilledMs)),
    toolInvocations: distribution(runs.map((r) => r.toolInvocations)).p50,
    providerRequests: distribution(runs.map((r) => r.requests)).p50,
    cpuMs: distribution(runs.map((r) => r.cpuMs)),
  });
  const ratio = (mode: IntelMode, field: 'totalMs' | 'stepBilledMs' | 'cpuMs') =>
    figure(samples[mode].map((r, i) => r[field] / samples.off[i]![field]));
  return {
    connectors: INTEL_CONNECTORS,
    rounds,
    modes: { off: summary(samples.off), cold: summary(samples.cold), warm: summary(samples.warm) },
    coldRatio: ratio('cold', 'totalMs'),
    warmRatio: ratio('warm', 'totalMs'),
    coldBilledRatio: ratio('cold', 'stepBilledMs'),
    warmBilledRatio: ratio('warm', 'stepBilledMs'),
    coldCpuRatio: ratio('cold', 'cpuMs'),
    warmCpuRatio: ratio('warm', 'cpuMs'),
  };
}
