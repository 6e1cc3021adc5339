import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sis } from '../../support/sis-cli';

/**
 * Issue #27 item 7: the CLI never lets what a server sends drive the terminal. A stand-in API on
 * 127.0.0.1 answers `GET /api/v1/incidents` in the documented shape with fields holding terminal
 * escapes (ESC sequences, a window-title OSC, a bell), a bidi override and zero-width characters, as
 * a compromised or spoofed server could; the text output carries none of them, the JSON output
 * carries the same values escaped. A plain-http URL to another machine is warned about, and an
 * existing config directory is tightened to 0700.
 */
const NASTY_TITLE =
  'Login \u001b[2J\u001b[31mfrom\u001b[0m \u001b]0;pwned\u0007admin \u202eexe.txt\u202c \u200bwork\u0085station';

let server: Server;
let apiUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.startsWith('/api/v1/incidents')) {
      res.end(
        JSON.stringify({
          incidents: [
            {
              incident_id: 'inc_aaaaaaaaaaaaaaaaaaaaaaaaaa',
              title: NASTY_TITLE,
              severity: 'high',
              status: 'new',
              link: 'http://127.0.0.1/incidents/inc_aaaaaaaaaaaaaaaaaaaaaaaaaa',
              created_at: '2026-11-01T10:00:00.000Z',
              updated_at: '2026-11-01T10:00:00.000Z',
              source: 'custom\u001b[8m',
              source_id: 'x-1',
              entities: [{ type: 'ip', value: '203.0.113.5' }],
            },
          ],
          next_cursor: null,
        }),
      );
      return;
    }
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const UNSAFE = /[\p{Cc}\p{Cf}]/u;
const env = () => ({
  SIS_API_URL: apiUrl,
  SIS_API_KEY: 'sis_test_key',
  SIS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sis-')),
});

describe('sis on a terminal', () => {
  it('prints incident fields without control or format characters', async () => {
    const run = await sis(['incidents', 'list'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('admin');
    expect(run.stdout.replace(/[\n\t]/g, '')).not.toMatch(UNSAFE);
    expect(run.stderr.replace(/[\n\t]/g, '')).not.toMatch(UNSAFE);
  });

  it('keeps the values in --json, escaped', async () => {
    const run = await sis(['incidents', 'list', '--json'], env());
    expect(run.code).toBe(0);
    expect(run.stdout.replace(/\n/g, '')).not.toMatch(UNSAFE);
    expect(JSON.parse(run.stdout).incidents[0].title).toBe(NASTY_TITLE);
  });

  it('warns about plain http to another machine, not to this one', async () => {
    const local = await sis(['incidents', 'list'], env());
    expect(local.stderr).not.toMatch(/plain http/);
    // Port 9 on a documentation address: nothing answers, the warning comes first.
    const remote = await sis(['incidents', 'list'], { ...env(), SIS_API_URL: 'http://192.0.2.10:9' });
    expect(remote.stderr).toMatch(/warning: http:\/\/192\.0\.2\.10:9 is plain http/);
  });

  it('tightens an existing config directory to 0700 when it saves a profile', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sis-')), 'config');
    mkdirSync(dir, { mode: 0o755 });
    const run = await sis(
      ['configure', '--api-url', 'https://sis.example.com', '--api-key-stdin'],
      {
        SIS_CONFIG_DIR: dir,
      },
      { input: 'sis_test_key\n' },
    );
    expect(run.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
