import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as consume } from '../../../functions/incident-sync-consumer/handler';
import { type LocalQueue, startLocalQueue } from '../../../local/sqs';
import { parseConfig, resetConfigForTests } from '../../../shared/config';
import { demoIncidents } from '../../../shared/domain/data/demo-tenant';
import type { NormalisedIncident } from '../../../shared/domain/incidents/incident';
import { assertIncident } from '../../../shared/domain/incidents/incident-input';
import {
  createSqsClient,
  encodeIncidentMessage,
  SqsIncidentQueue,
} from '../../../shared/platform/incident-queue';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { GraphRepository } from '../../../shared/store/graph-repository';
import { IncidentsRepository } from '../../../shared/store/incidents-repository';
import { createIsolatedTables } from '../../support/dynamodb';

/**
 * The sync path end to end on this machine: the SQS adapter (real @aws-sdk/client-sqs) sends to the
 * local queue over HTTP, which invokes the real consumer handler with SQS events; the consumer writes
 * to DynamoDB Local.
 */
let queue: LocalQueue;
let sender: SqsIncidentQueue;
let incidents: IncidentsRepository;
let graph: GraphRepository;
const now = new Date('2026-11-10T12:00:00.000Z');

function incident(overrides: Record<string, unknown> = {}): NormalisedIncident {
  return assertIncident({
    source: 'custom',
    source_id: 'edr-1',
    title: 'Credential dumping on ws-0142',
    severity: 'high',
    status: 'new',
    created_at: '2026-11-09T10:00:00Z',
    entities: [
      { type: 'host', value: 'ws-0142' },
      { type: 'user', value: 'j.doe@contoso.example' },
    ],
    ...overrides,
  });
}

beforeAll(async () => {
  const tables = await createIsolatedTables();
  queue = await startLocalQueue({ consumer: consume, visibilityTimeoutSeconds: 0.2, batchingWindowMs: 10 });
  Object.assign(process.env, tables.env, {
    SIS_SQS_ENDPOINT: queue.endpoint,
    SIS_INCIDENT_QUEUE_URL: queue.queueUrl,
  });
  resetConfigForTests();
  const cfg = parseConfig(process.env);
  const doc = createDocumentClient(cfg);
  incidents = new IncidentsRepository(doc, tables.names.incidents);
  graph = new GraphRepository(doc, tables.names.graph);
  sender = new SqsIncidentQueue(createSqsClient(cfg), queue.queueUrl);
});

afterAll(async () => {
  await queue?.stop();
});

describe('incident sync through the local queue', () => {
  it('stores the demo tenant and links its entities in the graph', async () => {
    const demo = demoIncidents(now);
    await sender.enqueue(demo);
    await queue.idle();
    expect(queue.dlq()).toEqual([]);
    const stored = await incidents.list({ limit: 100 });
    expect(stored.incidents).toHaveLength(demo.length);
    const node = await graph.getNode({ type: 'ip', value: '203.0.113.66' });
    const expected = demo.filter((i) => i.entities.some((e) => e.value === '203.0.113.66')).length;
    expect(node?.incident_count).toBe(expected);
  });

  it('keeps one incident per SIEM record and never lets an older copy win', async () => {
    const first = incident({ updated_at: '2026-11-09T11:00:00Z', status: 'active' });
    const older = incident({ updated_at: '2026-11-09T10:30:00Z', status: 'new' });
    await sender.enqueue([first]);
    await sender.enqueue([first, older]);
    await queue.idle();
    const stored = await incidents.get(first.incident_id);
    expect(stored).toMatchObject({ status: 'active', updated_at: '2026-11-09T11:00:00.000Z' });
    const host = await graph.getNode({ type: 'host', value: 'ws-0142' });
    const user = await graph.neighbours({ type: 'host', value: 'ws-0142' }, { limit: 50 });
    const edge = user.sides.find((s) => s.other.value === 'j.doe@contoso.example');
    expect(edge?.evidence.filter((e) => e === first.incident_id)).toHaveLength(1);
    expect(host).toBeDefined();
    const countBefore = host?.incident_count;
    await sender.enqueue([first]);
    await queue.idle();
    expect((await graph.getNode({ type: 'host', value: 'ws-0142' }))?.incident_count).toBe(countBefore);
  });

  it('dead-letters a malformed message after three receives while the rest of its batch is stored', async () => {
    const sqs = createSqsClient(parseConfig(process.env));
    const good = incident({ source_id: 'edr-2', title: 'Good neighbour of a poison message' });
    const poison = '{"v":1,"incident":{"title":42}}';
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.queueUrl,
        Entries: [
          { Id: 'poison', MessageBody: poison },
          { Id: 'good', MessageBody: encodeIncidentMessage(good) },
        ],
      }),
    );
    expect(sent.Successful).toHaveLength(2);
    await queue.idle();
    expect(await incidents.get(good.incident_id)).toMatchObject({
      title: 'Good neighbour of a poison message',
    });
    const dead = queue.dlq();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ body: poison, receiveCount: 3 });
  });
});
