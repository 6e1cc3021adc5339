import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { inputsInOutput, LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * Lambda bundles take the Bedrock client's bearer tokens from the environment alone
 * (ServiceFunction's alias of @aws-sdk/token-providers to shared/platform/lambda-token-provider.ts).
 * A Bedrock client bundled as the construct bundles it must carry none of the SDK's SSO token chain,
 * and must still sign a Converse request with the environment's credentials, or send the Bedrock API
 * key as a bearer token when AWS_BEARER_TOKEN_BEDROCK is set: the bundle calls a local server that
 * records each request's Authorization header and answers as Converse does.
 */
const SSO_TOKEN_CHAIN = /node_modules\/@aws-sdk\/(token-providers|nested-clients)\//;
const ENTRY = `
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
export async function converse(endpoint) {
  const client = new BedrockRuntimeClient({ region: 'us-east-1', endpoint, requestHandler: new NodeHttpHandler() });
  const answer = await client.send(
    new ConverseCommand({ modelId: 'model', messages: [{ role: 'user', content: [{ text: 'hello' }] }] }),
  );
  return answer.stopReason;
}
`;
const CONVERSE_ANSWER = {
  output: { message: { role: 'assistant', content: [{ text: 'hi' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  metrics: { latencyMs: 1 },
};

describe('Bedrock bearer tokens in a Lambda bundle', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'sis-bedrock-token-'));
  const authorizations: (string | undefined)[] = [];
  let server: Server;
  let endpoint: string;
  let inputs: string[];
  let converse: (endpoint: string) => Promise<string>;

  beforeAll(async () => {
    const result = await build({
      ...LAMBDA_BUNDLE_OPTIONS,
      stdin: { contents: ENTRY, resolveDir: PROJECT_ROOT, loader: 'js' },
      outfile: join(outDir, 'index.mjs'),
    });
    inputs = inputsInOutput(Object.values(result.metafile.outputs)[0]);
    server = createServer((request, response) => {
      authorizations.push(request.headers.authorization);
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(CONVERSE_ANSWER));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ converse } = await import(pathToFileURL(join(outDir, 'index.mjs')).href));
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(outDir, { recursive: true, force: true });
  });
  afterEach(() => vi.unstubAllEnvs());

  it('carries the environment link in place of the SDK token providers and their SSO-OIDC client', () => {
    expect(inputs.filter((path) => SSO_TOKEN_CHAIN.test(path))).toEqual([]);
    expect(inputs).toContain('shared/platform/lambda-token-provider.ts');
  });

  it('signs with the environment credentials, or sends the Bedrock API key the environment holds', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDBUNDLEDROLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'bundled-role-secret');
    vi.stubEnv('AWS_BEARER_TOKEN_BEDROCK', undefined);
    expect(await converse(endpoint)).toBe('end_turn');
    expect(authorizations.at(-1)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDBUNDLEDROLE\//);

    vi.stubEnv('AWS_BEARER_TOKEN_BEDROCK', 'bedrock-api-key');
    expect(await converse(endpoint)).toBe('end_turn');
    expect(authorizations.at(-1)).toBe('Bearer bedrock-api-key');
  });
});
