import { config } from '../../shared/config';
import { POLL_PAGE_SIZE } from '../../shared/services/investigations/investigation-reads';
import { createDocumentClient } from '../../shared/store/dynamo-client';
import { keysRepositoryFromConfig } from '../../shared/store/keys-repository';
import { HistoryRepository } from '../../shared/store/sessions/history-repository';
import type { HistoryEntry } from '../../shared/store/sessions/records';
import { tableName } from '../../shared/store/tables';
import { handlerProbe } from '../lib/handler-timing';
import type { BenchService } from '../lib/harness';
import { closedLoop, sequentialLatencies } from '../lib/http';
import { distribution, type Figure, figure, median } from '../lib/stats';
import { alternate, type ScenarioContext } from './context';

/**
 * The public poll (GET /api/v1/public/sessions/{id}) through the local gateway, authorizer included,
 * against its floor: the same DynamoDB requests (the authorizer's key read and the poll's Query)
 * issued directly with the SDK through the same store code, in the same process, in alternating
 * order. A full poll returns all 50 history items; an incremental poll (?after=<cursor>, nothing
 * new) is what a client polling every few seconds mostly sends.
 */
export const POLL_HISTORY_ITEMS = 50;

export interface PollVariantResult {
  service: { p50: Figure; p90: Figure; p99: Figure };
  floor: { p50: Figure; p90: Figure; p99: Figure };
  /** service p50 / floor p50, per round. */
  ratioP50: Figure;
  ratioP99: Figure;
}

export interface PollingResult {
  historyItems: number;
  samplesPerRound: number;
  full: PollVariantResult;
  incremental: PollVariantResult;
  throughput: {
    concurrency: number;
    serviceRps: Figure;
    floorRps: Figure;
    ratio: Figure;
    secondsPerRound: number;
  };
  /**
   * Where a full poll's time goes (p50 over all rounds, per request): the authorizer and the poll
   * handler as Lambda would run them, the rest being the gateway and HTTP; beside the floor's key
   * read and Query.
   */
  breakdown: {
    authorizerMs: number;
    handlerMs: number;
    gatewayAndHttpMs: number;
    floorKeyReadMs: number;
    floorQueryMs: number;
  };
}

export interface PollTarget {
  sessionId: string;
  /** Cursor after the last history item. */
  cursor: string;
  lastSeq: number;
}

/** A completed investigation, padded with copies of its own history entries to exactly `items` entries. */
export async function seedPolledSession(bench: BenchService, items: number): Promise<PollTarget> {
  const started = await bench.http.expect(202, 'POST', '/api/v1/investigations/start', {
    key: bench.apiKey,
    body: { entity: { type: 'ip', value: '198.51.100.23' }, background: true },
  });
  const sessionId = (started.body as { session_id: string }).session_id;
  await bench.service.stepFunctions.idle();
  const cfg = config();
  const history = new HistoryRepository(createDocumentClient(cfg), tableName(cfg, 'sessions'));
  const page = await history.readPage(sessionId, undefined, POLL_PAGE_SIZE);
  if (page.session?.status !== 'completed')
    throw new Error(`seed investigation ended ${page.session?.status}`);
  const existing = page.history;
  if (existing.length > items)
    throw new Error(`an investigation already has ${existing.length} history items`);
  const padding: HistoryEntry[] = [];
  for (let i = 0; padding.length < items - existing.length; i++) {
    const source = existing[i % existing.length]!;
    const { seq: _seq, ...entry } = source;
    padding.push({ ...entry, at: new Date().toISOString() });
  }
  for (let i = 0; i < padding.length; i += 25) await history.append(sessionId, padding.slice(i, i + 25));
  const poll = await bench.http.expect(200, 'GET', `/api/v1/public/sessions/${sessionId}`, {
    key: bench.apiKey,
  });
  const body = poll.body as {
    messages: unknown[];
    events: unknown[];
    tool_calls: unknown[];
    next_cursor: string;
  };
  const total = body.messages.length + body.events.length + body.tool_calls.length;
  if (total !== items) throw new Error(`the polled session has ${total} history items, expected ${items}`);
  return { sessionId, cursor: body.next_cursor, lastSeq: items };
}

function variant(serviceRounds: number[][], floorRounds: number[][]): PollVariantResult {
  const s = serviceRounds.map(distribution);
  const f = floorRounds.map(distribution);
  return {
    service: {
      p50: figure(s.map((d) => d.p50)),
      p90: figure(s.map((d) => d.p90)),
      p99: figure(s.map((d) => d.p99)),
    },
    floor: {
      p50: figure(f.map((d) => d.p50)),
      p90: figure(f.map((d) => d.p90)),
      p99: figure(f.map((d) => d.p99)),
    },
    ratioP50: figure(s.map((d, i) => d.p50 / f[i]!.p50)),
    ratioP99: figure(s.map((d, i) => d.p99 / f[i]!.p99)),
  };
}

export async function runPolling(
  ctx: ScenarioContext,
  bench: BenchService,
  target: PollTarget,
): Promise<PollingResult> {
  const rounds = ctx.quick ? 3 : 5;
  const samples = ctx.quick ? 80 : 300;
  const concurrency = 8;
  const throughputMs = ctx.quick ? 1_000 : 2_000;
  const cfg = config();
  const doc = createDocumentClient(cfg);
  const keys = keysRepositoryFromConfig(cfg, doc);
  const history = new HistoryRepository(doc, tableName(cfg, 'sessions'));
  const path = `/api/v1/public/sessions/${target.sessionId}`;
  const incrementalPath = `${path}?after=${encodeURIComponent(target.cursor)}`;

  const servicePoll = (p: string) => async () => {
    const answer = await bench.http.call('GET', p, { key: bench.apiKey });
    if (answer.status !== 200) throw new Error(`poll answered ${answer.status}`);
  };
  const floorParts = { keyRead: [] as number[], query: [] as number[] };
  const floorPoll =
    (afterSeq: number | undefined, timed = false) =>
    async () => {
      const start = performance.now();
      const record = await keys.get(bench.keyId);
      const read = performance.now();
      const page = await history.readPage(target.sessionId, afterSeq, POLL_PAGE_SIZE);
      if (timed) {
        floorParts.keyRead.push(read - start);
        floorParts.query.push(performance.now() - read);
      }
      if (!record || !page.session) throw new Error('floor read found nothing');
    };
  // Sequential requests: each has exactly one authorizer and one handler invocation, in order.
  const probe = handlerProbe();
  const parts = { authorizer: [] as number[], handler: [] as number[], rest: [] as number[] };
  const servicePollTimed = async () => {
    const from = probe.invocations.length;
    const latencies = await sequentialLatencies(servicePoll(path), samples);
    const invocations = probe.invocations.slice(from);
    const durations = (name: string) =>
      invocations.filter((i) => i.functionName === name).map((i) => i.endMs - i.startMs);
    const authorizer = durations('authorizer');
    const handler = durations('get-session-history');
    if (authorizer.length === latencies.length && handler.length === latencies.length) {
      latencies.forEach((latency, i) => {
        parts.authorizer.push(authorizer[i]!);
        parts.handler.push(handler[i]!);
        parts.rest.push(latency - authorizer[i]! - handler[i]!);
      });
    }
    return latencies;
  };

  // Warm both paths: handler modules loaded, connections open, JIT settled.
  await sequentialLatencies(servicePoll(path), 50);
  await sequentialLatencies(floorPoll(undefined), 50);
  await sequentialLatencies(servicePoll(incrementalPath), 20);
  await sequentialLatencies(floorPoll(target.lastSeq), 20);

  const full = { service: [] as number[][], floor: [] as number[][] };
  const incremental = { service: [] as number[][], floor: [] as number[][] };
  const rps = { service: [] as number[], floor: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    ctx.say(`  polling round ${round + 1}/${rounds}`);
    const [sf, ff] = await alternate(round, servicePollTimed, () =>
      sequentialLatencies(floorPoll(undefined, true), samples),
    );
    full.service.push(sf);
    full.floor.push(ff);
    const [si, fi] = await alternate(
      round,
      () => sequentialLatencies(servicePoll(incrementalPath), Math.round(samples / 2)),
      () => sequentialLatencies(floorPoll(target.lastSeq), Math.round(samples / 2)),
    );
    incremental.service.push(si);
    incremental.floor.push(fi);
    const load = { concurrency, count: Number.POSITIVE_INFINITY, durationMs: throughputMs };
    const [st, ft] = await alternate(
      round,
      () => closedLoop(servicePoll(path), load),
      () => closedLoop(floorPoll(undefined), load),
    );
    rps.service.push(st.perSecond);
    rps.floor.push(ft.perSecond);
  }
  doc.destroy();
  return {
    historyItems: target.lastSeq,
    samplesPerRound: samples,
    full: variant(full.service, full.floor),
    incremental: variant(incremental.service, incremental.floor),
    throughput: {
      concurrency,
      serviceRps: figure(rps.service),
      floorRps: figure(rps.floor),
      ratio: figure(rps.floor.map((f, i) => f / rps.service[i]!)),
      secondsPerRound: throughputMs / 1000,
    },
    breakdown: {
      authorizerMs: median(parts.authorizer),
      handlerMs: median(parts.handler),
      gatewayAndHttpMs: median(parts.rest),
      floorKeyReadMs: median(floorParts.keyRead),
      floorQueryMs: median(floorParts.query),
    },
  };
}
