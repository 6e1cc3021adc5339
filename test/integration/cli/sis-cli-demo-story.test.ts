import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalService, startLocalService } from '../../../local/service';
import { SCOPES } from '../../../shared/domain/keys/scopes';
import { apiKeyService } from '../../../shared/services/auth/api-keys';
import { dynamodbEndpoint } from '../../support/dynamodb';
import { sis } from '../../support/sis-cli';

/**
 * The `sis` a new user meets on the demo tenant: live tool progress, the entity's facts, a summary
 * that is indented and does not repeat the findings, incident titles in the recommendations instead
 * of IDs, and search results one line each.
 */
let service: LocalService;
let env: Record<string, string>;

beforeAll(async () => {
  service = await startLocalService({
    port: 0,
    dynamodb: { endpoint: dynamodbEndpoint() },
    tablePrefix: `sis-t${randomBytes(5).toString('hex')}`,
    demoData: true,
    env: { SIS_DEMO_DATA: '1' },
    staleSessionSweep: false,
  });
  const issued = await apiKeyService().create({ name: 'analyst', scopes: [...SCOPES] }, 'test');
  env = { SIS_API_URL: service.baseUrl, SIS_API_KEY: issued.apiKey };
}, 180_000);

afterAll(async () => {
  await service?.stop();
});

describe('sis investigate on the demo tenant', () => {
  it('shows tool progress live with --progress, then a report that reads well', async () => {
    const run = await sis(['investigate', '203.0.113.66', '--progress'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^ {2}started {3}incident_history$/m);
    expect(run.stderr).toMatch(/^ {2}finished {2}incident_history in \d+ ms, 1 finding\(s\)$/m);
    // Status changes say from what to what, never a bare event name.
    expect(run.stderr).toMatch(/^ {2}status {4}initialized → active, \d+ tools to run$/m);
    expect(run.stderr).toMatch(/^ {2}report {4}ready: verdict \w+, risk \d+\/100$/m);
    expect(run.stderr).toMatch(/^ {2}status {4}active → completed$/m);
    expect(run.stderr).not.toMatch(/status_changed|report_ready/);

    const out = run.stdout;
    const summary = out.slice(out.indexOf('Summary:\n') + 9, out.indexOf('\n\nFindings'));
    expect(summary.split('\n').every((line) => line.startsWith('  '))).toBe(true);
    expect(summary).not.toMatch(/Indicators:|\[critical 90\]/);
    expect(out.match(/Mentioned in 5 incidents/g)).toHaveLength(1);

    expect(out).toMatch(/^ {2}- Review the linked incidents:$/m);
    expect(out).toMatch(/^ {6}Password spray against Entra ID accounts from 203\.0\.113\.66 \(high\)$/m);
    expect(out).not.toMatch(/inc_[a-z2-7]{26}/);
  }, 120_000);

  it("names a user's many incidents by title, with no empty list left behind (issue 35)", async () => {
    const run = await sis(['investigate', 'j.doe@contoso.example', '--no-progress'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}- Review the linked incidents:\n( {6}\S.* \((low|medium|high|critical)\)\n)+/m,
    );
    expect(run.stdout).not.toMatch(/: ,|, ,|\.:|inc_[a-z2-7]{26}/);
  }, 120_000);

  it('refuses a blank entity in one line, exit 2, before calling the service', async () => {
    for (const blank of ['', '   ']) {
      const run = await sis(['investigate', blank], env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^sis: Give the entity to investigate/),
      ]);
    }
  });

  it("prints the investigated entity's facts (ASN, organisation, country)", async () => {
    const run = await sis(['investigate', '8.8.8.8', '--no-progress'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Entity: AS15169 \S.* · country US/m);
  }, 120_000);

  it('lists search results one line each', async () => {
    const run = await sis(['search', 'incidents'], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CREATED\s+SESSION/);
    expect(lines.slice(1).length).toBeGreaterThan(0);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+s_\w+\s/);
  });
});
