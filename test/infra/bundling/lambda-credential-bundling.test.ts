import { execFile, execSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  besideBundleCommands,
  functionEntry,
  PROJECT_ROOT,
} from '../../../infra/constructs/service-function';
import { lambdaContext, proxyEvent } from '../../support/api-key-events';
import { inputsInOutput, LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * Lambda bundles take their AWS credentials from the environment Lambda sets and from nothing else
 * (ServiceFunction's alias of @aws-sdk/credential-provider-node to
 * shared/platform/lambda-credential-provider.ts). A function that reads DynamoDB, bundled as the
 * construct bundles it, must carry none of the rest of the SDK's chain, and must still sign its
 * DynamoDB requests with the environment's key and session token when it runs: the bundle is imported
 * in a child Node process whose DynamoDB endpoint (AWS_ENDPOINT_URL_DYNAMODB, read by the SDK) is a
 * local server that records each request's signature and answers as an empty table does.
 */
const FULL_CHAIN =
  /node_modules\/@aws-sdk\/(nested-clients|credential-provider-(node|sso|ini|process|web-identity|login|http)|token-providers)\/|node_modules\/@smithy\/credential-provider-imds\//;
const FUNCTION = 'get-session-history';
const LAMBDA_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'AKIDBUNDLEDROLE',
  AWS_SECRET_ACCESS_KEY: 'bundled-role-secret',
  AWS_SESSION_TOKEN: 'bundled-role-session-token',
};

interface SeenRequest {
  target: string | undefined;
  authorization: string | undefined;
  securityToken: string | undefined;
}

const header = (headers: IncomingHttpHeaders, name: string) => headers[name] as string | undefined;

describe('credentials in a Lambda bundle', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'sis-credentials-'));
  const bundle = join(outDir, 'index.mjs');
  const seen: SeenRequest[] = [];
  let server: Server;
  let endpoint: string;
  let inputs: string[];

  beforeAll(async () => {
    const result = await build({
      entryPoints: [functionEntry(FUNCTION)],
      outfile: bundle,
      ...LAMBDA_BUNDLE_OPTIONS,
    });
    inputs = inputsInOutput(Object.values(result.metafile.outputs).find((output) => output.entryPoint));
    for (const command of besideBundleCommands(PROJECT_ROOT, outDir)) execSync(command);
    server = createServer((request, response) => {
      seen.push({
        target: header(request.headers, 'x-amz-target'),
        authorization: header(request.headers, 'authorization'),
        securityToken: header(request.headers, 'x-amz-security-token'),
      });
      request.resume().on('end', () => {
        // No item, no page: the session does not exist.
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify({ Items: [], Count: 0, ScannedCount: 0 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(outDir, { recursive: true, force: true });
  });

  /** Imports the bundle in a fresh Node process and calls its handler once with an unknown session's poll. */
  async function invoke(
    credentials: Record<string, string>,
  ): Promise<{ statusCode: number; output: string }> {
    const event = proxyEvent({
      method: 'GET',
      resource: '/api/v1/public/sessions/{session_id}',
      pathParameters: { session_id: 's_credentialsbundletest0' },
      caller: { keyId: 'k_credentialsbundle', role: 'client', scopes: ['investigations:read'] },
    });
    const runner = join(outDir, 'invoke.mjs');
    writeFileSync(
      runner,
      [
        `const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});`,
        `const result = await handler(${JSON.stringify(event)}, ${JSON.stringify(lambdaContext(FUNCTION))});`,
        "process.stdout.write('\\nRESULT ' + JSON.stringify(result));",
      ].join('\n'),
    );
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [runner], {
      // Nothing of this machine's AWS setup: an empty home (no ~/.aws) and no variables but these.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: outDir,
        AWS_REGION: 'eu-west-1',
        AWS_LAMBDA_FUNCTION_NAME: FUNCTION,
        AWS_ENDPOINT_URL_DYNAMODB: endpoint,
        SIS_TENANT: 'test',
        ...credentials,
      },
    });
    const result = JSON.parse(stdout.slice(stdout.lastIndexOf('\nRESULT ') + 8)) as { statusCode: number };
    return { statusCode: result.statusCode, output: stdout + stderr };
  }

  it('carries the environment link of the SDK credential chain and none of the rest', () => {
    expect(inputs).toContain('shared/platform/lambda-credential-provider.ts');
    expect(inputs.some((path) => path.includes('node_modules/@aws-sdk/credential-provider-env/'))).toBe(true);
    expect(inputs.some((path) => path.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
    expect(inputs.filter((path) => FULL_CHAIN.test(path))).toEqual([]);
  });

  it('signs its DynamoDB requests with the key and session token Lambda sets in the environment', async () => {
    seen.length = 0;
    const { statusCode, output } = await invoke(LAMBDA_CREDENTIALS);
    expect(statusCode, output).toBe(404);
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) {
      expect(request.target).toMatch(/^DynamoDB_20120810\./);
      expect(request.authorization).toContain(`Credential=${LAMBDA_CREDENTIALS.AWS_ACCESS_KEY_ID}/`);
      expect(request.securityToken).toBe(LAMBDA_CREDENTIALS.AWS_SESSION_TOKEN);
    }
  });

  it('without credentials in the environment, sends nothing and says where a Lambda bundle reads them', async () => {
    seen.length = 0;
    const { statusCode, output } = await invoke({});
    expect(statusCode, output).toBe(500);
    expect(seen).toEqual([]);
    expect(output).toMatch(
      /Lambda bundles of this service read the credentials Lambda sets in the environment/,
    );
  });
});
