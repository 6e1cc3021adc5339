import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoMeter, meterTotals, startDynamoMeter } from '../../../bench/lib/dynamo-meter';
import { dynamodbEndpoint } from '../../support/dynamodb';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * What one investigation (rules analyst, no connectors) writes, metered the way the bench's cost
 * scenario meters it: every DynamoDB call of the runtime passes a hop that asks for the consumed
 * capacity (DynamoDB Local's figures, see docs/performance.md for how they differ from AWS's bill).
 */
let meter: DynamoMeter;
let service: TestService;
let key: string;

beforeAll(async () => {
  meter = await startDynamoMeter(dynamodbEndpoint());
  service = await startTestService({ dynamodbEndpoint: meter.endpoint });
  key = (await service.createKey({ name: 'write units', rate_limit: { rate_per_second: 100, burst: 100 } }))
    .apiKey;
  // An earlier investigation of the same entity, so the tools and the graph have data to read (as in the bench).
  await investigate();
});

afterAll(async () => {
  await service?.stop();
  await meter?.stop();
});

async function investigate(): Promise<string> {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity: { type: 'ip', value: '203.0.113.7' }, background: true },
  });
  expect(started.status).toBe(202);
  await service.stepFunctions.idle();
  return started.body.session_id;
}

describe('write units of one investigation', () => {
  it('writes no search posting per term before the session ends, and stays within its budget', async () => {
    meter.label = 'investigation';
    const sessionId = await investigate();
    meter.label = undefined;
    const poll = await service.call('GET', `/api/v1/public/sessions/${sessionId}`, { key });
    expect(poll.body.session.status).toBe('completed');

    const totals = meterTotals(meter.calls.filter((c) => c.label === 'investigation'));
    const byOperation = Object.fromEntries(
      Object.entries(totals.byOperation).map(([k, v]) => [k.replace(/ .*-sessions$/, ' sessions'), v]),
    );
    // The start lists the session (tenant posting) and files ONE open posting; the end writes one
    // posting per posting term (18 for this report's findable terms: phrases of the engine's text, a
    // finding's title and description together, stand for most of its words, and the verdict and
    // type terms for "unknown", "risk", "indicators", "ip" and "address") and the tenant posting: 21
    // units of BatchWriteItem (58 with a posting per term). Before session 5 the start also wrote a posting
    // per start term and the document; the end rewrote those postings and deleted the stale status
    // posting. 25 since issue 35 (report coverage): the summary's intended line "No outside source was
    // consulted: ..." adds the words "outside", "source", "consulted" and one phrase (4 postings).
    expect(byOperation['BatchWriteItem sessions']?.writeUnits).toBeLessThanOrEqual(25);
    // The open posting (1) and the session's open marker (2: it carries the gsi1 entry).
    expect(byOperation['DeleteItem sessions']?.writeUnits).toBe(3);
    // The creation's marker (2), history and META (1 each), the verdict, the term document and the
    // four tool results (1 each: a rules run's tool keeps its history entries in
    // its result item until the completing transition publishes them; each was a 4-unit transaction
    // with the session's status check and its own history item).
    expect(byOperation['PutItem sessions']?.writeUnits).toBeLessThanOrEqual(10);
    // The two status transitions, neither of which writes an index entry: 4 units each, the
    // completing one with the four tools' history items in it. With gsi1 on META (before the open
    // marker) each metered 12. The completing one meters 12 since issue 35: the report's
    // coverage.sources names every built-in tool, feed, connector and the analyst with its status and,
    // when off, how to turn it on (about 5 KB of JSON), so the packed report item is 1.7 KB instead of
    // 580-790 bytes.
    const sessionTransactions = meter.calls.filter(
      (c) =>
        c.label === 'investigation' &&
        c.operation === 'TransactWriteItems' &&
        c.table.endsWith('-sessions') &&
        c.writeUnits > 0,
    );
    expect(sessionTransactions.map((c) => c.writeUnits)).toEqual([4, 12]);
    // 121, then 116, 95 (the sessions' open marker: -13; the graph's value item: -8), 65 (phrase
    // postings: -30), 60 (whole findings as phrases, verdict and type words: -5), 59 (the summary's
    // "1 indicator from 4/4 tools" as a phrase: -1), 47 now (the tools' history published with the
    // end: -12), 48 (+1: the per-key daily investigation quota's counter, one conditional write at
    // the start, issue 27), 47 (-1: an unknown verdict's posting stands in for "risk" and "indicators",
    // which its summary always writes). An investigation with related entities posts each of them and their
    // words on top (see docs/performance.md). 59 (+12) with issue 35's coverage: +4 postings of the
    // outside-sources line and +8 in the completing transaction for the larger report (above).
    expect(totals.writeUnits).toBeLessThanOrEqual(59);
  });
});
