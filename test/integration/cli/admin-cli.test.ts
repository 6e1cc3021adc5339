import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';
import { expectDocumented, sis } from '../../support/sis-cli';

/**
 * The admin-key commands against the local runtime, as processes: `sis allowlist add|list|remove`,
 * `sis sessions feedback`, `sis webhooks …` and `sis assets add|list|remove` (a receiver on 127.0.0.1 checks each delivery with
 * the secret the CLI printed, using standardwebhooks' own verify).
 */
let service: TestService;
let client: string;
let receiver: Server;
let receiverBase: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

const run = (args: string[], key = service.adminKey) =>
  sis(args, { SIS_API_URL: service.baseUrl, SIS_API_KEY: key, SIS_CONFIG_DIR: '/nonexistent-sis-config' });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  service = await startTestService({ env: { SIS_WEBHOOK_ALLOW_LOOPBACK: 'true' } });
  client = (await service.createKey({ name: 'cli client', rate_limit: { rate_per_second: 100, burst: 100 } }))
    .apiKey;
});

afterAll(async () => {
  await service?.stop();
  receiver?.closeAllConnections();
  await new Promise((done) => receiver?.close(done));
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

describe('sis feeds refresh with no feed enabled', () => {
  it('says nothing was refreshed and names the setting, on stderr (issue 35)', async () => {
    const refreshed = await run(['feeds', 'refresh']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toMatch(/^FEED\s+ENABLED\s+STATUS/);
    expect(refreshed.stderr).toContain('No feed is enabled, so nothing was refreshed.');
    expect(refreshed.stderr).toMatch(/SIS_FEED_<NAME>_ENABLED=true .*SIS_PUBLIC_SOURCES=on/);
  });
});

describe('sis webhooks', () => {
  it('creates, lists, delivers, rotates and removes; each secret is printed once', async () => {
    const { keyId, apiKey } = await service.createKey({ name: 'hooked playbook' });
    const created = await run([
      'webhooks',
      'create',
      '--url',
      `${receiverBase}/hooks/sis`,
      '--events',
      'investigation.completed',
      '--events',
      'investigation.failed',
      '--description',
      'XSOAR enrichment',
      '--key-id',
      keyId,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const webhookId = /Created webhook (wh_\w+): investigation\.completed, investigation\.failed to /.exec(
      created.stdout,
    )?.[1];
    expect(webhookId, created.stdout).toBeDefined();
    expect(created.stdout).toContain('shown only now');
    const secret = created.stdout.trim().split('\n').at(-1) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(created.stdout.split(secret)).toHaveLength(2);
    expect(created.stderr).not.toContain(secret);

    const listed = await run(['webhooks', 'list']);
    expect(listed.stdout).toMatch(
      new RegExp(`${webhookId}\\s+active\\s+investigation\\.completed,investigation\\.failed\\s+${keyId}\\s`),
    );
    const listedJson = expectDocumented(
      await run(['webhooks', 'list', '--json']),
      'GET',
      '/api/v1/admin/webhooks',
      200,
    );
    expect(JSON.stringify(listedJson)).not.toContain(secret);

    // A session of the key ends: the receiver gets it signed with the secret the CLI printed.
    expect((await run(['investigate', '203.0.113.81', '--no-progress'], apiKey)).code).toBe(0);
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((wake) => setTimeout(wake, 25));
    const [delivery] = received;
    expect(delivery, 'no delivery reached the receiver').toBeDefined();
    const event = new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>);
    expect(event).toMatchObject({ type: 'investigation.completed' });
    const log = await run(['webhooks', 'deliveries', webhookId!]);
    expect(log.stdout).toMatch(/^CREATED\s+EVENT\s+STATUS\s+ATTEMPTS\s+LAST CODE/);
    expect(log.stdout).toMatch(
      new RegExp(
        `investigation\\.completed\\s+delivered\\s+1\\s+204\\s+\\S+ \\S+\\s+${delivery!.headers['webhook-id']}`,
      ),
    );
    expectDocumented(
      await run(['webhooks', 'deliveries', webhookId!, '--json']),
      'GET',
      `/api/v1/admin/webhooks/${webhookId}/deliveries`,
      200,
    );

    const rotated = await run(['webhooks', 'rotate-secret', webhookId!]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = rotated.stdout.trim().split('\n').at(-1) ?? '';
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(rotated.stdout).toContain('only the new secret signs');
    const again = expectDocumented(
      await run(['webhooks', 'rotate', webhookId!, '--json']),
      'POST',
      `/api/v1/admin/webhooks/${webhookId}/rotate-secret`,
      200,
    );
    expect(again.secret).not.toBe(fresh);

    const removed = await run(['webhooks', 'remove', webhookId!]);
    expect(removed.stdout).toContain(`Removed webhook ${webhookId}`);
    expect((await run(['webhooks', 'list'])).stdout).toContain('No webhooks.');
    expect((await run(['webhooks', 'remove', webhookId!])).code).toBe(4);
  });

  it('refuses an unsafe URL in one line (exit 2) and a non-admin key (exit 3)', async () => {
    const unsafe = await run([
      'webhooks',
      'add',
      '--url',
      'https://10.1.2.3/hook',
      '--events',
      'investigation.completed',
      '--description',
      'private address',
    ]);
    expect(unsafe.code, unsafe.stderr).toBe(2);
    expect(unsafe.stderr.trim().split('\n')).toHaveLength(1);
    expect(unsafe.stderr).toMatch(/^sis: Invalid request: url: /);
    const created = await run(
      [
        'webhooks',
        'create',
        '--url',
        `${receiverBase}/x`,
        '--events',
        'incident.enriched',
        '--description',
        'x',
      ],
      client,
    );
    expect(created.code).toBe(3);
    expect(created.stdout).toBe('');
  });
});

describe('sis assets', () => {
  it('declares, lists and removes a critical asset, with exit codes for refusals', async () => {
    const declare = (value: string, owner: string) =>
      run([
        'assets',
        'add',
        'host',
        value,
        '--criticality',
        'critical',
        '--owner',
        owner,
        '--reason',
        'Domain controller',
      ]);
    const added = await declare('DC07.corp.contoso.example', 'Identity team');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(
      'Declared host dc07.corp.contoso.example critical, owner Identity team: Domain controller\n',
    );
    const listed = await run(['assets', 'list']);
    expect(listed.stdout).toMatch(/^TYPE\s+VALUE\s+CRITICALITY\s+OWNER\s+ADDED\s+BY\s+REASON\n/);
    expect(listed.stdout).toMatch(
      /host\s+dc07\.corp\.contoso\.example\s+critical\s+Identity team\s+\S+ \S+\s+key:\w+\s+Domain controller/,
    );
    const json = expectDocumented(
      await run(['assets', 'list', '--json']),
      'GET',
      '/api/v1/admin/critical-assets',
      200,
    );
    expect(json.assets).toMatchObject([{ value: 'dc07.corp.contoso.example', owner: 'Identity team' }]);

    const twice = await declare('dc07.corp.contoso.example', 'Someone else');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('already a critical asset; remove it first');
    const hidden = await declare('dc08.corp.contoso.example', 'Identity\u202e team');
    expect(hidden.code).toBe(2);
    expect(hidden.stderr).toContain('owner contains control or invisible formatting characters');
    const noOwner = await run(['assets', 'add', 'host', 'dc08', '--criticality', 'high', '--reason', 'x']);
    expect(noOwner.code).toBe(2);
    expect((await run(['assets', 'list'], client)).code).toBe(3);

    const removed = await run(['assets', 'remove', 'host', 'DC07.corp.contoso.example']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Removed host DC07.corp.contoso.example');
    expect((await run(['assets', 'list'])).stdout).toBe('No critical asset is declared.\n');
    expect((await run(['assets', 'remove', 'host', 'dc07.corp.contoso.example'])).code).toBe(4);
  });
});
