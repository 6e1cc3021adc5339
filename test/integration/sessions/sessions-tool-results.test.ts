import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRepository } from '../../../shared/store/sessions/history-repository';
import type { HistoryEntry } from '../../../shared/store/sessions/records';
import type { SessionsRepository } from '../../../shared/store/sessions/session-repository';
import type { ToolResultsRepository } from '../../../shared/store/sessions/tool-results-repository';
import {
  asCall,
  asEventBody,
  asReport,
  body,
  event,
  newSession,
  sessionsStore,
} from '../../support/sessions-store';

/**
 * Tool results against DynamoDB Local: recorded once while active, deferred ones published by the
 * terminal transition.
 */
let repo: SessionsRepository;
let historyRepo: HistoryRepository;
let toolResults: ToolResultsRepository;
let requests: string[];

beforeAll(async () => {
  ({ repo, historyRepo, toolResults, requests } = await sessionsStore());
});

describe('tool results', () => {
  it('records a tool result once, with its history, only while the session is active', async () => {
    const session = newSession();
    await repo.create(session, [event('session_created')]);
    const result = { tool: 'ip_classification', call: asCall({ status: 'succeeded' }), raw: { a: 1 } };
    expect(await toolResults.record(session.session_id, result, [event('tool_succeeded')])).toBe(
      'not_active',
    );
    await repo.transition(session.session_id, 'active');
    expect(await toolResults.record(session.session_id, result, [event('tool_succeeded')])).toBe('recorded');
    expect(await toolResults.record(session.session_id, result, [event('tool_succeeded')])).toBe('duplicate');
    const page = await historyRepo.readPage(session.session_id, undefined, 50);
    // Tool results are not history: the poll's key range skips them.
    expect(page.history.map((h) => [h.seq, body(h).type])).toEqual([
      [1, 'session_created'],
      [2, 'tool_succeeded'],
    ]);
    expect(await toolResults.list(session.session_id)).toEqual([result]);
    expect(await toolResults.get(session.session_id, 'ip_classification')).toEqual(result);
  });

  it('keeps a deferred tool result out of the history until a terminal transition publishes it', async () => {
    const session = newSession();
    await repo.create(session, [event('session_created')]);
    await repo.transition(session.session_id, 'active', {}, [event('status_changed')]);
    const at = (ms: number) => new Date(Date.parse(session.created_at) + ms).toISOString();
    const toolHistory = (tool: string, ms: number): HistoryEntry[] => [
      { kind: 'event', at: at(ms), body: asEventBody({ type: 'tool_started', tool }) },
      {
        kind: 'tool_call',
        at: at(ms),
        body: asCall({ name: tool, output: { findings: ['x'.repeat(600)] } }),
      },
      { kind: 'event', at: at(ms + 5), body: asEventBody({ type: 'tool_succeeded', tool }) },
    ];
    const result = (tool: string) => ({ tool, call: asCall({ name: tool, status: 'succeeded' }) });
    // Recorded in the opposite order of their starts: the history follows the starts.
    expect(
      await toolResults.recordDeferred(session.session_id, result('whois'), toolHistory('whois', 20)),
    ).toBe('recorded');
    expect(
      await toolResults.recordDeferred(
        session.session_id,
        result('ip_classification'),
        toolHistory('ip_classification', 10),
      ),
    ).toBe('recorded');
    requests.length = 0;
    expect(
      await toolResults.recordDeferred(session.session_id, result('whois'), toolHistory('whois', 30)),
    ).toBe('duplicate');
    // One conditional put, no transaction and no read of the history's last slot.
    expect(requests).toEqual(['PutItemCommand']);

    expect(
      (await historyRepo.readPage(session.session_id, undefined, 50)).history.map((h) => body(h).type),
    ).toEqual(['session_created', 'status_changed']);
    expect(await toolResults.get(session.session_id, 'whois')).toEqual(result('whois'));
    expect(await toolResults.list(session.session_id)).toEqual([
      result('ip_classification'),
      result('whois'),
    ]);

    const done = await repo.transition(
      session.session_id,
      'completed',
      { report: asReport({ verdict: 'benign' }) },
      [event('status_changed')],
    );
    expect(done.ok).toBe(true);
    const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
    expect(history.map((h) => [h.seq, h.kind, body(h).type ?? body(h).name])).toEqual([
      [1, 'event', 'session_created'],
      [2, 'event', 'status_changed'],
      [3, 'event', 'tool_started'],
      [4, 'tool_call', 'ip_classification'],
      [5, 'event', 'tool_succeeded'],
      [6, 'event', 'tool_started'],
      [7, 'tool_call', 'whois'],
      [8, 'event', 'tool_succeeded'],
      [9, 'event', 'status_changed'],
    ]);
    expect(history[6]?.body).toEqual(toolHistory('whois', 20)[1]?.body);
    // The first write of the same tool is the one kept, in the results and in the history.
    expect(history[5]?.at).toBe(at(20));
    // A result recorded after the end is never published.
    await toolResults.recordDeferred(session.session_id, result('late'), toolHistory('late', 40));
    expect((await historyRepo.readPage(session.session_id, undefined, 50)).history).toHaveLength(9);
  });

  it('publishes deferred tool results with every terminal outcome, and not with a refused one', async () => {
    for (const outcome of ['failed', 'canceled'] as const) {
      const session = newSession();
      await repo.create(session, []);
      await repo.transition(session.session_id, 'active');
      await toolResults.recordDeferred(
        session.session_id,
        { tool: 'whois', call: asCall({ name: 'whois' }) },
        [{ kind: 'tool_call', at: new Date().toISOString(), body: asCall({ name: 'whois' }) }],
      );
      expect((await repo.transition(session.session_id, outcome, {}, [event(outcome)])).ok).toBe(true);
      const refused = await repo.transition(session.session_id, 'completed', {}, [event('late')]);
      expect(refused.ok).toBe(false);
      const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
      expect(history.map((h) => body(h).type ?? body(h).name)).toEqual(['whois', outcome]);
    }
  });

  it('publishes deferred tool calls of hundreds of KB each: one item per tool keeps each under 400 KB', async () => {
    const session = newSession();
    await repo.create(session, []);
    await repo.transition(session.session_id, 'active');
    const tools = ['ip_classification', 'whois', 'incident_history'];
    const started = Date.parse(session.created_at);
    for (const [i, tool] of tools.entries()) {
      // About 250 KB that deflate cannot shrink much: the three together exceed DynamoDB's 400 KB item.
      const evidence = randomBytes(187_500).toString('base64');
      await toolResults.recordDeferred(session.session_id, { tool, call: asCall({ name: tool }) }, [
        {
          kind: 'tool_call',
          at: new Date(started + i).toISOString(),
          body: asCall({ name: tool, evidence }),
        },
      ]);
    }
    const ended = await repo.transition(session.session_id, 'failed', {}, [event('status_changed')]);
    expect(ended.ok).toBe(true);
    const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
    expect(history.map((h) => [h.seq, body(h).type ?? body(h).name])).toEqual([
      [1, 'ip_classification'],
      [2, 'whois'],
      [3, 'incident_history'],
      [4, 'status_changed'],
    ]);
  });

  it('publishes deferred tool calls gap-free and adjacent while other writers append', async () => {
    const session = newSession();
    await repo.create(session, [event('session_created')]);
    await repo.transition(session.session_id, 'active');
    const at = new Date().toISOString();
    for (const tool of ['ip_classification', 'whois']) {
      await toolResults.recordDeferred(session.session_id, { tool, call: asCall({ name: tool }) }, [
        { kind: 'event', at, body: asEventBody({ type: 'tool_started', tool }) },
        { kind: 'tool_call', at, body: asCall({ name: tool }) },
      ]);
    }
    const [ended] = await Promise.all([
      repo.transition(session.session_id, 'failed', {}, [event('status_changed')]),
      ...Array.from({ length: 6 }, (_, i) => historyRepo.append(session.session_id, [event(`w${i}`)])),
    ]);
    expect(ended.ok).toBe(true);
    const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
    expect(history.map((h) => h.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const first = history.findIndex((h) => body(h).type === 'tool_started');
    expect(history.slice(first, first + 5).map((h) => body(h).type ?? body(h).name)).toEqual([
      'tool_started',
      'ip_classification',
      'tool_started',
      'whois',
      'status_changed',
    ]);
  });

  it('publishes deferred tool calls exactly once when terminal transitions race', async () => {
    for (let round = 0; round < 5; round++) {
      const session = newSession();
      await repo.create(session, []);
      await repo.transition(session.session_id, 'active');
      for (const tool of ['ip_classification', 'whois']) {
        await toolResults.recordDeferred(session.session_id, { tool, call: asCall({ name: tool }) }, [
          { kind: 'tool_call', at: new Date().toISOString(), body: asCall({ name: tool }) },
        ]);
      }
      // Persist and a cancel (or the status-change function) at the same moment: one of them ends it.
      const moves = await Promise.all([
        repo.transition(session.session_id, 'completed', { report: asReport({ verdict: 'benign' }) }, [
          event('completed'),
        ]),
        repo.transition(session.session_id, 'canceled', {}, [event('canceled')]),
        repo.transition(session.session_id, 'failed', {}, [event('failed')]),
      ]);
      const winners = moves.filter((move) => move.ok);
      expect(winners).toHaveLength(1);
      const outcome = winners[0]!.session.status;
      const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
      expect(history.map((h) => [h.seq, body(h).type ?? body(h).name])).toEqual([
        [1, 'ip_classification'],
        [2, 'whois'],
        [3, outcome],
      ]);
    }
  });
});
