import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCP_CLIENTS, mcpClientConfig } from '../../../packages/cli/src/commands/mcp';
import { run } from '../../../packages/cli/src/program';

const API_URL = 'https://sis.example/prod';
// The clients' own variable syntax, expanded by VS Code and Cursor, not by us.
const VSCODE_PROMPT = ['$', '{input:sis-api-key}'].join('');
const CURSOR_ENV = ['$', '{env:SIS_API_KEY}'].join('');
const KEY = 'sis_aaaaaaaaaaaaaaaa_notarealsecretnotarealsecretnotarealsecret0000000';

/** `sis mcp config --client …`: a snippet per platform, for the profile's URL, never the key itself. */
describe('sis mcp config', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it.each(MCP_CLIENTS)('%s: prints the endpoint of the current profile without the key', async (client) => {
    vi.stubEnv('SIS_API_URL', API_URL);
    vi.stubEnv('SIS_API_KEY', KEY);
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    expect(await run(['node', 'sis', 'mcp', 'config', '--client', client])).toBe(0);
    expect(out).toContain(`${API_URL}/api/v1/mcp`);
    expect(out).toContain('X-API-Key');
    expect(out).not.toContain(KEY);
  });

  it('writes the files each client reads, with its own secret syntax', () => {
    expect(mcpClientConfig('vscode', `${API_URL}/`).json).toMatchObject({
      servers: {
        'security-investigations': {
          type: 'http',
          url: `${API_URL}/api/v1/mcp`,
          headers: { 'X-API-Key': VSCODE_PROMPT },
        },
      },
      inputs: [{ id: 'sis-api-key', password: true }],
    });
    expect(mcpClientConfig('cursor', API_URL).json).toMatchObject({
      mcpServers: { 'security-investigations': { headers: { 'X-API-Key': CURSOR_ENV } } },
    });
    expect(mcpClientConfig('claude-code', API_URL).text).toBe(
      `claude mcp add --transport http security-investigations ${API_URL}/api/v1/mcp --header "X-API-Key: $SIS_API_KEY"`,
    );
    expect(mcpClientConfig('openai', API_URL).json).toMatchObject({
      type: 'mcp',
      server_url: `${API_URL}/api/v1/mcp`,
    });
  });

  it('refuses an unknown client as a usage error', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await run(['node', 'sis', 'mcp', 'config', '--client', 'notepad'])).toBe(2);
  });
});
