import { createHash, randomUUID } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRepository } from '../../../shared/store/sessions/history-repository';
import type { IdempotencyRepository } from '../../../shared/store/sessions/idempotency-repository';
import { REPORT_DICTIONARY_V1 } from '../../../shared/store/sessions/report-packing';
import type { SessionsRepository } from '../../../shared/store/sessions/session-repository';
import { asReport, body, event, newSession, sessionsStore } from '../../support/sessions-store';

/**
 * The session records against DynamoDB Local: creation, status transitions, the report and its
 * packing, idempotency keys.
 */
let repo: SessionsRepository;
let historyRepo: HistoryRepository;
let idempotency: IdempotencyRepository;
let raw: DynamoDBDocumentClient;
let table: string;

beforeAll(async () => {
  ({ repo, historyRepo, idempotency, raw, table } = await sessionsStore());
});

describe('session records and status transitions', () => {
  it('creates a session and reads it back; a second create with the same ID is refused', async () => {
    const session = newSession();
    await repo.create(session, []);
    expect(await repo.get(session.session_id)).toEqual(session);
    await expect(repo.create(session, [])).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await repo.get('s_does_not_exist')).toBeUndefined();
  });

  it('moves initialized → active → completed and never out of a terminal status', async () => {
    const session = newSession();
    await repo.create(session, []);
    expect((await repo.transition(session.session_id, 'completed')).ok).toBe(false);
    const active = await repo.transition(session.session_id, 'active', {}, [event('status_changed')]);
    expect(active).toMatchObject({ ok: true, session: { status: 'active' } });
    const done = await repo.transition(session.session_id, 'completed', {
      report: asReport({ verdict: 'benign' }),
    });
    expect(done).toMatchObject({
      ok: true,
      session: { status: 'completed', report: asReport({ verdict: 'benign' }) },
    });
    for (const to of ['failed', 'canceled', 'active', 'completed'] as const) {
      const refused = await repo.transition(session.session_id, to, { failure_reason: 'late' }, [
        event('late'),
      ]);
      expect(refused).toMatchObject({ ok: false, session: { status: 'completed' } });
    }
    // The refused transitions wrote no history either.
    const page = await historyRepo.readPage(session.session_id, undefined, 50);
    expect(page.history.map((h) => body(h).type)).toEqual(['status_changed']);
    expect(page.session?.failure_reason).toBeUndefined();
    expect((await repo.transition('s_missing_session', 'active')).ok).toBe(false);
  });

  it('keeps the report out of the poll: get reads it, the poll page carries only its verdict and score', async () => {
    const session = newSession();
    await repo.create(session, [event('created')]);
    await repo.transition(session.session_id, 'active');
    const report = asReport({ verdict: 'suspicious', risk_score: 61, summary: 'x'.repeat(3000) });
    const done = await repo.transition(session.session_id, 'completed', { report }, [event('done')]);
    expect(done.ok && done.session.report).toEqual(report);
    expect((await repo.get(session.session_id))?.report).toEqual(report);
    const page = await historyRepo.readPage(session.session_id, undefined, 50);
    expect(page.session?.report).toBeUndefined();
    expect(page.session?.report_summary).toEqual({ verdict: 'suspicious', risk_score: 61 });
    expect(page.history.map((h) => body(h).type)).toEqual(['created', 'done']);
    // The 3 KB report is not read by the poll: the page costs what a page without it costs.
    expect(page.consumedReadUnits).toBeLessThanOrEqual(0.5);
  });

  it('packs a report under 1 KB with the report dictionary, and still reads reports packed without it', async () => {
    // A rules-engine report as the workflow writes it (2.7 KB of JSON; 1.1 KB deflated without a
    // dictionary, so its item took two write units, four in the completing transaction).
    const report = asReport(JSON.parse(REPORT_FIXTURE));
    const session = newSession();
    await repo.create(session, [event('created')]);
    await repo.transition(session.session_id, 'active');
    await repo.transition(session.session_id, 'completed', { report }, [event('done')]);
    const { Item } = await raw.send(
      new GetCommand({ TableName: table, Key: { pk: `SESSION#${session.session_id}`, sk: 'META#REPORT' } }),
    );
    // The report expires with its session (shared/store/retention/retention-ttl.ts).
    expect(Object.keys(Item ?? {}).sort()).toEqual(['expires_at_epoch', 'pk', 'report_zd1', 'sk']);
    // DynamoDB's item size: attribute names plus values.
    const size = Object.entries(Item ?? {}).reduce(
      (sum, [name, value]) =>
        sum + name.length + (value instanceof Uint8Array ? value.length : Buffer.byteLength(String(value))),
      0,
    );
    expect(size).toBeLessThan(1024);
    expect((await repo.get(session.session_id))?.report).toEqual(report);

    // A report stored before the dictionary (plain deflate) reads the same.
    const older = newSession({ status: 'completed' });
    await repo.create(older, []);
    await raw.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `SESSION#${older.session_id}`,
          sk: 'META#REPORT',
          report_z: deflateRawSync(JSON.stringify(report)),
        },
      }),
    );
    expect((await repo.get(older.session_id))?.report).toEqual(report);

    // Stored reports name this dictionary: its text must never change (add a new version instead).
    expect(createHash('sha256').update(REPORT_DICTIONARY_V1).digest('hex')).toBe(
      'fe182683c400d99d08cbc34dc7875bb188b885cc1a6fd4b3ed2eb69bf0fa7e64',
    );
  });

  it('records an idempotency key with the session and returns the first session on reuse', async () => {
    const first = newSession();
    const idem = {
      owner_key_id: first.owner_key_id,
      idempotency_key: `key-${randomUUID()}`,
      request_hash: 'h1',
      created_at: first.created_at,
      expires_at_epoch: Math.floor(Date.now() / 1000) + 3600,
    };
    expect(await repo.create(first, [], idem)).toEqual({ created: true });
    const second = newSession();
    const again = await repo.create(second, [], idem);
    expect(again).toMatchObject({
      created: false,
      existing: { session_id: first.session_id, request_hash: 'h1' },
    });
    expect(await repo.get(second.session_id)).toBeUndefined();

    // An expired record (TTL deletion lags) counts as absent.
    const stale = { ...idem, idempotency_key: `key-${randomUUID()}`, expires_at_epoch: 1 };
    const old = newSession();
    await repo.create(old, [], stale);
    const fresh = newSession();
    expect(await repo.create(fresh, [], { ...stale, expires_at_epoch: idem.expires_at_epoch })).toEqual({
      created: true,
    });
    expect((await idempotency.get(stale.owner_key_id, stale.idempotency_key))?.session_id).toBe(
      fresh.session_id,
    );
  });
});

const REPORT_FIXTURE =
  '{"summary":"BENIGN · risk 10/100 · user svc-backup@contoso.example\\n1 indicator from 4/4 tools.\\nIndicators:\\n- [low 10] Service account by naming convention (account_analysis)","risk_score":10,"verdict":"benign","persona":"SOC Analyst","entities":[{"type":"user","value":"svc-backup@contoso.example","role":"investigated","attributes":{"account_kind":"service","mail_domain":"contoso.example","disposable_email":false,"free_email":false}}],"findings":[{"finding_id":"account_analysis:service_account","title":"Service account by naming convention","description":"Service accounts run applications and should never log on interactively; interactive or unusual-host use is a classic sign of credential theft (Kerberoasting targets them).","impact":"This account runs software rather than belonging to a person; it should not be used to sign in by hand.","severity":"low","score":10,"source_tool":"account_analysis","category":"privileged_identity","evidence":["svc-backup"],"attack":[{"id":"T1558.003","name":"Steal or Forge Kerberos Tickets: Kerberoasting"}]},{"finding_id":"graph_neighbourhood:not_in_graph","title":"No known relationships","description":"user svc-backup@contoso.example has no edges in the knowledge graph yet.","impact":"It is not connected to anything already assessed as risky.","severity":"info","score":0,"source_tool":"graph_neighbourhood","category":"context","evidence":[]},{"finding_id":"incident_history:no_incidents","title":"No incidents mention it","description":"No synced SIEM incident names user svc-backup@contoso.example.","impact":"It does not appear in any recorded security incident.","severity":"info","score":0,"source_tool":"incident_history","category":"context","evidence":[]},{"finding_id":"prior_investigations:prior_benign","title":"Previously judged benign","description":"The latest earlier verdict on user svc-backup@contoso.example was benign.","impact":"An earlier assessment found no threat.","severity":"info","score":0,"source_tool":"prior_investigations","category":"context","evidence":[]}],"recommendations":["No action needed: close as benign and keep this report as evidence."],"coverage":{"tools_run":4,"tools_succeeded":4,"tools_failed":[],"tools_timed_out":[]},"score_explanation":{"method":"noisy_or","formula":"risk = round(100 × (1 − Π (1 − score_i / 100)))","risk_score":10,"verdict":"benign","verdict_reason":"risk 10 < 30 and 4 of 4 tools succeeded → benign","contributions":[{"finding_id":"account_analysis:service_account","title":"Service account by naming convention","source_tool":"account_analysis","score":10,"points":10}],"sources":[{"source_tool":"account_analysis","findings":1,"alone":10,"points":10}]}}';
