import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';

/** The MCP Inspector CLI (a client we did not write) against the local POST /api/v1/mcp, both eras. */
const run = promisify(execFile);
let service: TestService;
let key: string;

function inspector(args: string[]) {
  return run(
    'timeout',
    [
      '60',
      'npx',
      '--no-install',
      'mcp-inspector',
      '--cli',
      `${service.baseUrl}/api/v1/mcp`,
      '--transport',
      'http',
      '--header',
      `X-API-Key: ${key}`,
      ...args,
    ],
    { env: { ...process.env, MCP_INSPECTOR_SECRET_STORE: 'memory' } },
  );
}

beforeAll(async () => {
  service = await startTestService();
  key = (await service.createKey({ name: 'inspector', scopes: ['graph:read', 'search:read'] })).apiKey;
}, 60_000);

afterAll(async () => {
  await service?.stop();
});

describe.each(['legacy', 'modern'])('the %s era', (era) => {
  it("tools/list shows the tools of the key's scopes", async () => {
    const { stdout } = await inspector(['--protocol-era', era, '--method', 'tools/list']);
    const names = (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toEqual(['query_knowledge_graph', 'search_investigations']);
  }, 90_000);

  it('tools/call search_investigations answers structuredContent', async () => {
    const { stdout } = await inspector([
      '--protocol-era',
      era,
      '--method',
      'tools/call',
      '--tool-name',
      'search_investigations',
      '--tool-args-json',
      '{"q":"203.0.113.66"}',
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ structuredContent: { results: [] } });
  }, 90_000);
});
