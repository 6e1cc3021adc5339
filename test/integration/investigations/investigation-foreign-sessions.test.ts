import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Sessions are confidential per key: a report, its history and the plugin answer of one key never
 * name another key's session, while the tenant-wide knowledge (an earlier verdict counts) remains.
 */
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

describe("another key's sessions in a report", () => {
  it('counts the earlier verdict of another key without naming its session anywhere', async () => {
    const alice = (await service.createKey({ name: 'alice' })).apiKey;
    const bob = (await service.createKey({ name: 'bob' })).apiKey;
    const entity = 'secure-login.paypa1.com';
    const first = await service.call('POST', '/api/v1/investigations/start', {
      key: alice,
      body: { entity },
    });
    expect(first.status).toBe(200);
    const foreign: string = first.body.session_id;
    const second = await service.call('POST', '/api/v1/investigations/start', {
      key: bob,
      body: { entity, include_tool_calls: true },
    });
    expect(second.status).toBe(200);
    const own: string = second.body.session_id;
    expect(JSON.stringify(second.body)).not.toContain(foreign);
    const prior = second.body.report.findings.find(
      (f: { source_tool: string }) => f.source_tool === 'prior_investigations',
    );
    expect(prior?.title).toMatch(/Previously judged/);
    for (const path of [`/api/v1/sessions/${own}`, `/api/v1/public/sessions/${own}`]) {
      const answer = await service.call('GET', path, { key: bob });
      expect(answer.status).toBe(200);
      expect(answer.text, path).not.toContain(foreign);
    }
  });
});
