import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { parseApiKey } from '../../../shared/domain/keys/api-key';
import { apiKeyServiceFromConfig } from '../../../shared/services/auth/api-keys';
import { createIsolatedTables, type IsolatedTables } from '../../support/dynamodb';
import { sis } from '../../support/sis-cli';

let tables: IsolatedTables;

beforeAll(async () => {
  tables = await createIsolatedTables();
});

describe('sis admin bootstrap against a running DynamoDB (SIS_DYNAMODB_ENDPOINT)', () => {
  it('creates an admin key, prints {key_id, api_key}, then refuses a second one unless forced', async () => {
    const first = await sis(['admin', 'bootstrap', '--json'], tables.env);
    expect(first.code, first.stderr).toBe(0);
    const printed = JSON.parse(first.stdout);
    expect(Object.keys(printed).sort()).toEqual(['api_key', 'key_id']);
    expect(parseApiKey(printed.api_key)?.keyId).toBe(printed.key_id);
    expect(first.stderr).not.toContain(printed.api_key);

    const service = apiKeyServiceFromConfig(parseConfig(tables.env));
    const verified = await service.authenticate(printed.api_key);
    expect(verified).toMatchObject({ ok: true, record: { role: 'admin', name: 'bootstrap admin' } });

    const second = await sis(['admin', 'bootstrap', '--json'], tables.env);
    expect(second.code).not.toBe(0);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(/active admin API key already exists.*--force/);

    const forced = await sis(
      [
        'admin',
        'bootstrap',
        '--json',
        '--force',
        '--name',
        'break-glass',
        '--expires-in-days',
        '7',
        '--scopes',
        'none',
      ],
      tables.env,
    );
    expect(forced.code, forced.stderr).toBe(0);
    const other = JSON.parse(forced.stdout);
    expect(other.key_id).not.toBe(printed.key_id);
    const [listed] = await service.list(other.key_id);
    expect(listed).toMatchObject({
      name: 'break-glass',
      role: 'admin',
      scopes: [],
      created_by: expect.stringMatching(/^cli/),
    });
    expect(Date.parse(listed?.expires_at ?? '') - Date.parse(listed?.created_at ?? '')).toBe(7 * 86_400_000);
  });

  it('bootstraps again once every admin key is disabled', async () => {
    const isolated = await createIsolatedTables();
    const service = apiKeyServiceFromConfig(parseConfig(isolated.env));
    const first = JSON.parse((await sis(['admin', 'bootstrap', '--json'], isolated.env)).stdout);
    await service.disable(first.key_id, 'test');
    const again = await sis(['admin', 'bootstrap'], isolated.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Admin API key created/);
    expect(again.stdout).toMatch(/^sis_[a-z2-7]{16}_/m);
  });

  it('rejects invalid options with a clear message and a non-zero exit', async () => {
    const run = await sis(['admin', 'bootstrap', '--expires-in-days', '400'], tables.env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/expires-in-days must be an integer from 1 to 365/);
    const scopes = await sis(['admin', 'bootstrap', '--scopes', 'admin'], tables.env);
    expect(scopes.code).not.toBe(0);
    expect(scopes.stderr).toMatch(/Unknown scope\(s\): admin/);
  });
});

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('sis admin bootstrap with nothing running (local runtime data directory)', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sis-bootstrap-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses with a clear message when nothing answers where it looks, and starts nothing', async () => {
    const port = await freePort();
    const env = { SIS_DATA_DIR: dataDir, SIS_DYNAMODB_PORT: String(port) };
    const run = await sis(['admin', 'bootstrap', '--json'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`Nothing answers on http://127.0.0.1:${port}`);
    expect(run.stderr).toMatch(/npm start/);
    expect(run.stderr).toMatch(/--start-db/);
    expect(run.stderr).not.toMatch(/starting DynamoDB Local|\n\s+at /);
    // It started no DynamoDB Local of its own: the port is still free.
    expect(await portIsFree(port)).toBe(true);
  });

  it('refuses a DynamoDB that answers but holds no key table of the service', async () => {
    const absent = `sis-t${Date.now().toString(36)}-keys`;
    const run = await sis(['admin', 'bootstrap', '--json'], {
      SIS_DYNAMODB_PORT: new URL(tables.env.SIS_DYNAMODB_ENDPOINT ?? '').port,
      SIS_KEYS_TABLE: absent,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`has no table ${absent}`);
  });

  it('with --start-db starts DynamoDB Local on SIS_DATA_DIR itself, persists the key and stops again', async () => {
    const env = { SIS_DATA_DIR: dataDir, SIS_DYNAMODB_PORT: String(await freePort()) };
    const first = await sis(['admin', 'bootstrap', '--json', '--start-db'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/starting DynamoDB Local/);
    const { key_id: keyId } = JSON.parse(first.stdout);
    expect(keyId).toMatch(/^[a-z2-7]{16}$/);

    // A second run starts it again on the same data and sees the persisted admin key.
    const second = await sis(['admin', 'bootstrap', '--json', '--start-db'], env);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/active admin API key already exists/);
  }, 240_000);
});

function portIsFree(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const probe = createServer();
    probe.once('error', () => answer(false));
    probe.listen({ port, exclusive: true }, () => probe.close(() => answer(true)));
  });
}
