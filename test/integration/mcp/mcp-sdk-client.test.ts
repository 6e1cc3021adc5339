import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestService, type TestService } from '../../support/local-service';

/** The SDK's own Client over Streamable HTTP against the local gateway's POST /api/v1/mcp, both eras. */
let service: TestService;
let fullKey: string;
let graphOnlyKey: string;
let otherKey: string;
let sessionId: string;

const ERAS = { legacy: 'legacy', modern: { pin: '2026-07-28' } } as const;

async function connect(key: string, era: keyof typeof ERAS) {
  const client = new Client({ name: 'sis-test', version: '1' }, {
    versionNegotiation: { mode: ERAS[era] },
  } as never);
  const transport = new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/api/v1/mcp`), {
    requestInit: { headers: { 'X-API-Key': key } },
  });
  await client.connect(transport);
  return { client, transport };
}

async function postRpc(body: unknown, key?: string, method = 'POST', headers: Record<string, string> = {}) {
  const response = await fetch(`${service.baseUrl}/api/v1/mcp`, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key ? { 'x-api-key': key } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

beforeAll(async () => {
  service = await startTestService();
  fullKey = (await service.createKey({ name: 'assistant' })).apiKey;
  graphOnlyKey = (await service.createKey({ name: 'graph only', scopes: ['graph:read'] })).apiKey;
  otherKey = (await service.createKey({ name: 'other assistant' })).apiKey;
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key: fullKey,
    body: { entity: { type: 'ip', value: '203.0.113.66' }, background: true },
  });
  sessionId = started.body.session_id;
  // Ended before the tools read it, so each tool and its REST twin see the same persisted state.
  await service.stepFunctions.idle();
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

describe.each(['legacy', 'modern'] as const)('the %s era', (era) => {
  it('lists the five tools for a key with every scope, with schemas from the routes', async () => {
    const { client, transport } = await connect(fullKey, era);
    expect(client.getProtocolEra?.()).toBe(era);
    expect(transport.sessionId ?? undefined).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'investigate_entity',
      'get_investigation',
      'query_knowledge_graph',
      'list_recent_incidents',
      'search_investigations',
    ]);
    const get = tools.find((t) => t.name === 'get_investigation');
    expect(get?.inputSchema).toMatchObject({ type: 'object', required: ['session_id'] });
    expect(get?.outputSchema).toMatchObject({ type: 'object' });
    expect(get?.description).toContain('untrusted data');
    await client.close();
  });

  it('lists only the tools a key may call, and refuses another naming the scope', async () => {
    const { client } = await connect(graphOnlyKey, era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['query_knowledge_graph']);
    await expect(
      client.callTool({ name: 'get_investigation', arguments: { session_id: sessionId } }),
    ).rejects.toThrow(/investigations:read/);
    await client.close();
  });

  it("get_investigation's structuredContent equals the REST report for the same session", async () => {
    const { client } = await connect(fullKey, era);
    let result: Awaited<ReturnType<typeof client.callTool>> | undefined;
    for (let i = 0; i < 300; i += 1) {
      result = await client.callTool({ name: 'get_investigation', arguments: { session_id: sessionId } });
      if ((result.structuredContent as { status?: string }).status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const rest = await service.call('GET', `/api/v1/sessions/${sessionId}`, { key: fullKey });
    expect(result?.isError).toBeFalsy();
    expect(result?.structuredContent).toEqual(rest.body);
    const text = ((result?.content ?? []) as Array<{ type: string; text: string }>)[0]?.text ?? '';
    expect(text).toContain('untrusted data');
    expect(text).toContain(JSON.stringify('203.0.113.66'));
    await client.close();
  }, 60_000);

  it('the graph, incidents and search tools answer what their REST routes answer', async () => {
    const { client } = await connect(fullKey, era);
    const twins = [
      ['query_knowledge_graph', { value: '203.0.113.66' }, '/api/v1/graph/entity/203.0.113.66'],
      [
        'list_recent_incidents',
        { severity: ['high', 'critical'] },
        '/api/v1/incidents?severity=high,critical',
      ],
      ['search_investigations', { q: '203.0.113.66' }, '/api/v1/search?q=203.0.113.66'],
    ] as const;
    for (const [name, args, path] of twins) {
      const result = await client.callTool({ name, arguments: args });
      const rest = await service.call('GET', path, { key: fullKey });
      if (rest.status === 200) {
        expect(result.structuredContent, `${name}: ${JSON.stringify(result.content)}`).toEqual(rest.body);
        continue;
      }
      // A refusal (an entity not in the graph yet: 404) is the same error, as a tool error.
      expect(result.isError, name).toBe(true);
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? '{}';
      expect(JSON.parse(text).error.code, name).toBe((rest.body as { error: { code: string } }).error.code);
    }
    await client.close();
  });

  it('investigate_entity starts a session the REST poll shows as started over MCP', async () => {
    const { client } = await connect(fullKey, era);
    const value = era === 'legacy' ? '198.51.100.7' : '198.51.100.8';
    const result = await client.callTool({ name: 'investigate_entity', arguments: { type: 'ip', value } });
    expect(result.isError).toBeFalsy();
    const started = result.structuredContent as { session_id: string };
    const rest = await service.call('GET', `/api/v1/public/sessions/${started.session_id}`, { key: fullKey });
    expect(rest.body).toMatchObject({
      session: { entity: { value }, started_by: { kind: 'api_key', name: 'assistant', via: 'mcp' } },
    });
    await client.close();
  }, 60_000);

  it("another key's session is a tool error with the contract's code, not the session", async () => {
    const { client } = await connect(otherKey, era);
    const result = await client.callTool({ name: 'get_investigation', arguments: { session_id: sessionId } });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(JSON.parse(text)).toMatchObject({ error: { code: expect.stringMatching(/not_found|forbidden/) } });
    expect(text).not.toContain('203.0.113.66');
    await client.close();
  });

  it('bad arguments are a tool error, and nothing runs', async () => {
    const { client } = await connect(fullKey, era);
    const result = await client
      .callTool({ name: 'get_investigation', arguments: { session_id: 42 } })
      .catch((error: Error) => ({ isError: true, content: [{ text: error.message }] }));
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/session_id/);
    await client.close();
  });
});

describe('HTTP and JSON-RPC failures', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };

  it('no key, a wrong key and a disabled key are 401 before any JSON-RPC', async () => {
    expect((await postRpc(initialize)).status).toBe(401);
    expect((await postRpc(initialize, 'sis_wrong_key_000000000000000000')).status).toBe(401);
    const disabled = await service.createKey({ name: 'disabled assistant' });
    expect((await postRpc(initialize, disabled.apiKey)).status).toBe(200);
    const disabling = await service.call('POST', `/api/v1/admin/keys/${disabled.keyId}/disable`, {
      key: service.adminKey,
    });
    expect(disabling.status).toBe(200);
    const refused = await postRpc(initialize, disabled.apiKey);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('jsonrpc');
  });

  it('takes the key as Authorization: Bearer too', async () => {
    const answer = await postRpc(
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      undefined,
      'POST',
      { authorization: `Bearer ${graphOnlyKey}`, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(answer.status).toBe(200);
    expect(answer.json().result.tools.map((t: { name: string }) => t.name)).toEqual([
      'query_knowledge_graph',
    ]);
  });

  it("refuses a browser Origin other than the service's own (403), serves its own", async () => {
    const foreign = await postRpc(initialize, fullKey, 'POST', { origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ error: { code: -32000 }, id: null });
    const own = await postRpc(initialize, fullKey, 'POST', { origin: new URL(service.baseUrl).origin });
    expect(own.status).toBe(200);
  });

  it("a burst over the key's rate limit is 429 with the contract's error, and runs nothing", async () => {
    const slow = await service.createKey({
      name: 'slow assistant',
      rate_limit: { rate_per_second: 1, burst: 2 },
    });
    const list = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        postRpc(list, slow.apiKey, 'POST', { 'mcp-protocol-version': '2025-11-25' }),
      ),
    );
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]?.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(2);
  });

  it('initialize echoes a supported version, never issues a session id, answers JSON', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const answer = await postRpc(
        { ...initialize, params: { ...initialize.params, protocolVersion: version } },
        fullKey,
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/application\/json/);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
      expect(answer.json().result.protocolVersion).toBe(version);
    }
  });

  it('malformed JSON-RPC is a parse error', async () => {
    const answer = await postRpc('{"jsonrpc":"2.0",', fullKey);
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ error: { code: -32700 }, id: null });
  });

  it('subscriptions/listen is method-not-found (a JSON-only server holds no stream)', async () => {
    const answer = await postRpc(
      { jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: {} },
      fullKey,
    );
    expect(answer.json()).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('serves the Security Copilot MCP manifest without a key, pointing at this endpoint', async () => {
    const manifest = await service.call('GET', '/plugin/security-copilot-mcp.yaml');
    expect(manifest.status).toBe(200);
    expect(String(manifest.headers['content-type'])).toMatch(/yaml/);
    const settings = (
      parse(manifest.text) as { SkillGroups: Array<{ Format: string; Settings: { Endpoint: string } }> }
    ).SkillGroups[0];
    expect(settings).toMatchObject({
      Format: 'MCP',
      Settings: { Endpoint: `${service.baseUrl}/api/v1/mcp` },
    });
  });

  it('GET and DELETE are 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await postRpc(undefined, fullKey, method);
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    }
  });
});
