import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';
import { sis } from '../../support/sis-cli';

/**
 * `sis smoke --url URL`, the post-deploy check of docs/deploy.md, run as an operator runs it (the
 * project's `sis` in its own process, the admin key in SIS_API_KEY) against the local service.
 */
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

describe('sis smoke', () => {
  it('passes every check against a working service, and disables the key it created', async () => {
    const run = await sis(['smoke', '--url', service.baseUrl, '--json'], { SIS_API_KEY: service.adminKey });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout) as { ok: boolean; checks: { name: string; ok: boolean }[] };
    expect(result.ok).toBe(true);
    expect(result.checks.map((c) => c.name)).toEqual([
      'health',
      'plugin manifest (ai-plugin.json) and its URLs',
      'Security Copilot manifest and its URLs',
      'create an API key (admin)',
      'investigate synchronously',
      'investigate in the background and poll',
      'report and its console page',
      'STIX bundle',
      'knowledge graph',
      'search',
      'incidents list',
      'console configuration',
      'clean up: disable the key, which is then refused',
    ]);
    expect(result.checks.every((c) => c.ok)).toBe(true);
    const keys = await service.call('GET', '/api/v1/admin/keys', { key: service.adminKey });
    const smokeKeys = keys.body.keys.filter((k: { name: string }) => k.name.startsWith('sis smoke'));
    expect(smokeKeys).toHaveLength(1);
    expect(smokeKeys[0].status).toBe('disabled');
  }, 180_000);

  it('prints one line per check and fails (exit 1) when a check fails: a key that is not an admin key', async () => {
    const { apiKey } = await service.createKey({ name: 'not admin', scopes: ['investigations:read'] });
    const run = await sis(['smoke', '--url', service.baseUrl], { SIS_API_KEY: apiKey });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ok {4}health \(\d+ ms\)/m);
    expect(run.stdout).toMatch(
      /^FAIL {2}create an API key \(admin\) \(\d+ ms\): This API key is not an admin key/m,
    );
    expect(run.stdout).toMatch(/checks failed\.$/m);
  });

  it('fails every check that needs the service when nothing answers at the URL', async () => {
    const run = await sis(['smoke', '--url', 'http://127.0.0.1:9'], { SIS_API_KEY: service.adminKey });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}health .*Could not reach the service/m);
  });

  it('needs an admin key', async () => {
    const run = await sis(['smoke', '--url', service.baseUrl], {});
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/needs an admin key: set SIS_API_KEY/);
  });
});
