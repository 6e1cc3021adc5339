import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import type { NormalisedIncident } from '../../../shared/domain/incidents/incident';
import { assertIncident } from '../../../shared/domain/incidents/incident-input';
import { createSqsClient, encodeIncidentMessage } from '../../../shared/platform/incident-queue';
import {
  type ReliabilityService,
  ReliableClient,
  sessionCensus,
  startReliabilityService,
  statusTrail,
  TERMINAL,
} from '../../support/reliability-client';

/**
 * Faults injected through the documented test seams (SIS_FAULT_INJECTION, docs/workflow.md) into
 * the real workflow over HTTP, and an at-least-once queue fed duplicates, stale copies and poison:
 *
 * - a tool that throws inside (recorded failed) or hangs past the tool timeout (recorded timed_out):
 *   the investigation still completes, with the tool in the report's coverage;
 * - every tool's step crashing: the investigation completes with every tool failed;
 * - the MarkActive or Persist step crashing: the session ends failed with a safe reason, never
 *   stays active, and no report is published;
 * - the incident queue delivering every message twice, out of order, with poison among them:
 *   one incident per SIEM record at its newest version, graph counts not inflated, poison (and only
 *   poison) in the DLQ.
 *
 * Failures already covered by investigation-failures.test.ts (a failing Assess step, cancel, a run
 * stopped outside the API) are not repeated.
 */
const TOOL_THROWS = 'tool-throws.example.com';
const TOOL_HANGS = 'tool-hangs.example.com';
const ALL_TOOLS_CRASH = 'all-tools-crash.example.com';
const MARK_ACTIVE_CRASH = 'mark-active-crash.example.com';
const PERSIST_CRASH = 'persist-crash.example.com';
/** The engine's tool timeout (DEFAULT_TOOL_TIMEOUT_MS); the hang outlasts it. */
const TOOL_TIMEOUT_MS = 10_000;

let service: ReliabilityService;
let http: ReliableClient;
let key: string;
const sessions = new Map<string, string>();

beforeAll(async () => {
  service = await startReliabilityService({
    env: {
      SIS_FAULT_INJECTION: [
        `step-run-tool@${TOOL_THROWS}#incident_history=tool-throw`,
        `step-run-tool@${TOOL_HANGS}#incident_history=tool-delay:${TOOL_TIMEOUT_MS + 1_500}`,
        `step-run-tool@${ALL_TOOLS_CRASH}=throw`,
        `step-mark-active@${MARK_ACTIVE_CRASH}=throw`,
        `step-persist@${PERSIST_CRASH}=throw`,
      ].join(','),
    },
    incidentQueue: { visibilityTimeoutSeconds: 0.2, maxReceiveCount: 3, batchSize: 10 },
  });
  http = new ReliableClient(() => service.baseUrl);
  key = (await service.createKey({ name: 'faults', rate_limit: { rate_per_second: 1000, burst: 1000 } }))
    .apiKey;
  // All faulty investigations run at once, so the slow hang overlaps everything else.
  await Promise.all(
    [TOOL_THROWS, TOOL_HANGS, ALL_TOOLS_CRASH, MARK_ACTIVE_CRASH, PERSIST_CRASH].map(async (entity) => {
      const started = await http.call('POST', '/api/v1/investigations/start', {
        key,
        body: { entity: { type: 'domain', value: entity }, background: true },
      });
      expect(started.status, started.text).toBe(202);
      sessions.set(entity, started.json.session_id);
    }),
  );
});

afterAll(async () => {
  await service?.stop();
});

const ended = (entity: string) => http.pollUntilTerminal(key, sessions.get(entity)!, 60_000);
const report = (entity: string) => http.call('GET', `/api/v1/sessions/${sessions.get(entity)}`, { key });
const toolCall = (poll: Awaited<ReturnType<typeof ended>>, name: string) =>
  (poll.json.tool_calls as { name: string; status: string; error?: string }[]).find((c) => c.name === name);

describe('tool faults', () => {
  it('records a tool that throws as failed, and the investigation completes', async () => {
    const poll = await ended(TOOL_THROWS);
    expect(poll.json.session.status).toBe('completed');
    expect(toolCall(poll, 'incident_history')).toMatchObject({
      status: 'failed',
      error: 'The tool failed unexpectedly.',
    });
    expect((poll.json.tool_calls as { status: string }[]).some((c) => c.status === 'succeeded')).toBe(true);
    const answer = await report(TOOL_THROWS);
    expect(answer.json.report.coverage.tools_failed).toContain('incident_history');
    expect(answer.text).not.toMatch(/Injected|InjectedFault/);
  });

  it('records a tool that hangs past its timeout as timed_out, and the investigation completes', async () => {
    const poll = await ended(TOOL_HANGS);
    expect(poll.json.session.status).toBe('completed');
    expect(toolCall(poll, 'incident_history')).toMatchObject({ status: 'timed_out' });
    expect(poll.json.events).toContainEqual(
      expect.objectContaining({
        type: 'tool_timed_out',
        detail: expect.objectContaining({ tool: 'incident_history' }),
      }),
    );
    const answer = await report(TOOL_HANGS);
    expect(answer.json.status).toBe('completed');
    expect(answer.json.report).not.toBeNull();
  });

  it('completes with every tool failed when every tool step crashes', async () => {
    const poll = await ended(ALL_TOOLS_CRASH);
    expect(poll.json.session.status).toBe('completed');
    const calls = poll.json.tool_calls as { status: string }[];
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.map((c) => c.status)).toEqual(calls.map(() => 'failed'));
  });
});

describe('step handler crashes', () => {
  it.each([
    ['MarkActive', MARK_ACTIVE_CRASH, ['initialized', 'failed']],
    ['Persist', PERSIST_CRASH, ['initialized', 'active', 'failed']],
  ])('a crashing %s step ends the session failed with a safe reason', async (_step, entity, trail) => {
    const poll = await ended(entity as string);
    expect(poll.status).toBe(200);
    expect(poll.json.session).toMatchObject({
      status: 'failed',
      failure_reason: 'The investigation engine failed.',
    });
    expect(statusTrail(poll)).toEqual(trail);
    const answer = await report(entity as string);
    expect(answer.json).toMatchObject({ status: 'failed', report: null });
    expect(poll.text + answer.text).not.toMatch(/Injected|InjectedFault|step-|Error:/);
  });

  it('leaves no session open once the workflow is idle', async () => {
    for (const entity of sessions.keys()) await ended(entity);
    await service.stepFunctions.idle();
    const census = await sessionCensus(service.env);
    const open = [...census.sessions.entries()].filter(([, s]) => !TERMINAL.has(s.status));
    expect(open).toEqual([]);
    console.info(
      `[faults] workflow: 5 faults injected (tool throw, tool hang ${TOOL_TIMEOUT_MS + 1_500} ms, all tool steps crash, MarkActive crash, Persist crash), 5 sessions terminal, 0 open`,
    );
  });
});

describe('the incident queue under duplicates, reordering and poison', () => {
  it('stores one incident per SIEM record at its newest version and dead-letters only the poison', async () => {
    const SHARED_IP = '203.0.113.99';
    const RECORDS = 40;
    const versions = (i: number): NormalisedIncident[] =>
      (['new', 'active', 'resolved'] as const).map((status, v) =>
        assertIncident({
          source: 'custom',
          source_id: `dup-${i}`,
          title: `Duplicate delivery ${i}`,
          severity: 'high',
          status,
          created_at: '2026-11-01T00:00:00Z',
          updated_at: `2026-11-01T0${v + 1}:00:00Z`,
          entities: [
            { type: 'ip', value: SHARED_IP },
            { type: 'host', value: `dup-host-${i}` },
          ],
        }),
      );
    // Every version of every record, each twice, shuffled: newer copies often arrive before older ones.
    const bodies = Array.from({ length: RECORDS }, (_, i) => versions(i))
      .flat()
      .flatMap((incident) => [encodeIncidentMessage(incident), encodeIncidentMessage(incident)]);
    const poison = [
      'not json at all',
      '{"v":2,"incident":{}}',
      '{"v":1,"incident":{"title":42}}',
      '{"v":1}',
      JSON.stringify({ v: 1, incident: { ...versions(999)[0], created_at: 'yesterday' } }),
      '[]',
    ];
    const all = [...bodies, ...poison].sort(() => Math.random() - 0.5);
    const sqs = createSqsClient(parseConfig(process.env));
    for (let i = 0; i < all.length; i += 10) {
      const sent = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: service.env.SIS_INCIDENT_QUEUE_URL,
          Entries: all.slice(i, i + 10).map((body, j) => ({ Id: `m${i + j}`, MessageBody: body })),
        }),
      );
      expect(sent.Failed ?? []).toEqual([]);
    }
    await service.incidentQueue.idle();

    const listed: { source_id: string; status: string; updated_at: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await http.call('GET', `/api/v1/incidents?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
        key,
      });
      expect(page.status).toBe(200);
      listed.push(...page.json.incidents);
      cursor = page.json.next_cursor;
    } while (cursor);
    const mine = listed.filter((i) => i.source_id.startsWith('dup-'));
    expect(mine).toHaveLength(RECORDS);
    expect(new Set(mine.map((i) => i.source_id)).size).toBe(RECORDS);
    expect(mine.map((i) => i.status)).toEqual(mine.map(() => 'resolved'));

    const graph = await http.call('GET', `/api/v1/graph/entity/${SHARED_IP}?limit=100`, { key });
    expect(graph.status).toBe(200);
    expect(graph.json.entity.incident_count).toBe(RECORDS);

    const dead = service.incidentQueue.dlq();
    expect(dead.map((d) => d.body).sort()).toEqual([...poison].sort());
    for (const letter of dead) expect(letter.receiveCount).toBe(3);
    console.info(
      `[faults] queue: ${bodies.length} deliveries of ${RECORDS * 3} versions of ${RECORDS} records (each twice, shuffled) + ${poison.length} poison → ${mine.length} incidents at newest version, graph count ${graph.json.entity.incident_count}, DLQ ${dead.length}`,
    );
  });
});
