import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';
import { sis } from '../../support/sis-cli';

/** `sis allowlist add|list|remove` and `sis sessions feedback` against the local runtime, as processes. */
let service: TestService;
let client: string;

const run = (args: string[], key = service.adminKey) =>
  sis(args, { SIS_API_URL: service.baseUrl, SIS_API_KEY: key, SIS_CONFIG_DIR: '/nonexistent-sis-config' });

beforeAll(async () => {
  service = await startTestService();
  client = (await service.createKey({ name: 'cli client', rate_limit: { rate_per_second: 100, burst: 100 } }))
    .apiKey;
});

afterAll(async () => {
  await service?.stop();
});

describe('sis allowlist and sis sessions feedback', () => {
  it('adds, lists and removes an entry, with exit codes for refusals', async () => {
    const added = await run([
      'allowlist',
      'add',
      'cidr',
      '198.51.100.0/24',
      '--reason',
      'Branch office',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const entry = JSON.parse(added.stdout);
    expect(entry).toMatchObject({ type: 'cidr', value: '198.51.100.0/24', reason: 'Branch office' });

    const listed = await run(['allowlist', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${entry.entry_id}\\s+cidr\\s+198\\.51\\.100\\.0/24\\s+never`));

    const duplicate = await run(['allowlist', 'add', 'cidr', '198.51.100.7/24', '--reason', 'again']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already on the allowlist');
    const wide = await run(['allowlist', 'add', 'cidr', '10.0.0.0/6', '--reason', 'too wide']);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain('/6 is wider than /8');
    const notAdmin = await run(['allowlist', 'list'], client);
    expect(notAdmin.code).toBe(3);

    const removed = await run(['allowlist', 'remove', entry.entry_id]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Removed ${entry.entry_id}`);
    expect((await run(['allowlist', 'remove', entry.entry_id])).code).toBe(4);
  });

  it('records feedback on a completed session', async () => {
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: client,
      body: { entity: '203.0.113.80', background: true },
    });
    await service.stepFunctions.idle();
    const id = started.body.session_id as string;
    const given = await run([
      'sessions',
      'feedback',
      id,
      '--verdict',
      'false_positive',
      '--comment',
      'Our scanner',
      '--expires-in-days',
      '30',
    ]);
    expect(given.code, given.stderr).toBe(0);
    // The admin key may not read the client's session: its verdict is withheld, and said so.
    expect(given.stdout).toMatch(
      new RegExp(
        `Recorded false positive rv_[0-9a-f]{25} on ${id} \\(verdict withheld: not your key, until \\d{4}-`,
      ),
    );
    expect(given.stdout).toContain('later investigations cite it');
    const noReason = await run(['sessions', 'feedback', id, '--verdict', 'true_positive']);
    expect(noReason.code).toBe(2);
    const unknown = await run([
      'sessions',
      'feedback',
      's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
      '--verdict',
      'true_positive',
      '--comment',
      'C2',
    ]);
    expect(unknown.code).toBe(4);
    const report = await run(['investigate', '203.0.113.80'], client);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/Verdict: benign {4}Risk: 15\/100 {4}Confidence: high/);
    expect(report.stdout).toContain('Marked a false positive by key:');
  });
});
