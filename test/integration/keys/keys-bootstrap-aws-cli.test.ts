import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { KeysRepository } from '../../../shared/store/keys-repository';
import { createIsolatedTables, dynamodbEndpoint, type IsolatedTables } from '../../support/dynamodb';
import { sis } from '../../support/sis-cli';

/**
 * `sis admin bootstrap --aws` as an operator runs it, against the key table in DynamoDB Local and an
 * API Gateway control plane on a local port, both reached through the SDK's standard endpoint variables
 * (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_API_GATEWAY), so the CLI code takes its real AWS path.
 * The control plane below answers the few REST calls the CLI makes, in API Gateway's wire format.
 */

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  signed: boolean;
}

interface ControlPlane {
  restApis: { id: string; name: string }[];
  stages: Record<string, string[]>;
  usagePlans: Record<string, unknown>[];
  seen: Seen[];
}

const json = (res: ServerResponse, status: number, body: unknown, errorType?: string) => {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(JSON.stringify(body));
};

/** Answers one page of at most `limit` items, with API Gateway's `item` and `position` members. */
function page(items: unknown[], query: Record<string, string>) {
  const start = Number(query.position ?? 0);
  const limit = Number(query.limit ?? 25);
  const next = start + limit;
  return { item: items.slice(start, next), ...(next < items.length ? { position: String(next) } : {}) };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
}

function startControlPlane(state: ControlPlane): Promise<Server> {
  let created = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    const body = await readBody(req);
    const path = decodeURIComponent(url.pathname);
    const signed = String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ');
    state.seen.push({ method: req.method ?? '', path, query, body, signed });
    const stageMatch = path.match(/^\/restapis\/([^/]+)\/stages\/([^/]+)$/);
    const planKeysMatch = path.match(/^\/usageplans\/([^/]+)\/keys$/);
    if (req.method === 'GET' && path === '/restapis') return json(res, 200, page(state.restApis, query));
    if (req.method === 'GET' && path === '/usageplans') return json(res, 200, page(state.usagePlans, query));
    if (req.method === 'GET' && stageMatch) {
      const [, apiId = '', stage = ''] = stageMatch;
      return state.stages[apiId]?.includes(stage)
        ? json(res, 200, { stageName: stage, deploymentId: 'd1' })
        : json(res, 404, { message: 'Invalid stage identifier specified' }, 'NotFoundException');
    }
    if (req.method === 'POST' && path === '/apikeys') {
      return json(res, 201, {
        id: `apigw-key-${++created}`,
        value: body?.value,
        name: body?.name,
        enabled: true,
      });
    }
    if (req.method === 'POST' && planKeysMatch) {
      return json(res, 201, { id: body?.keyId, type: body?.keyType });
    }
    return json(res, 404, { message: `no route ${req.method} ${path}` }, 'NotFoundException');
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

let tables: IsolatedTables;
let tenant: string;
let server: Server;
const state: ControlPlane = { restApis: [], stages: {}, usagePlans: [], seen: [] };

function awsEnv(extra: Record<string, string> = {}): Record<string, string> {
  const { port } = server.address() as AddressInfo;
  return {
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDLOCALTEST',
    AWS_SECRET_ACCESS_KEY: 'local-test-secret',
    AWS_ENDPOINT_URL_DYNAMODB: dynamodbEndpoint(),
    AWS_ENDPOINT_URL_API_GATEWAY: `http://127.0.0.1:${port}`,
    ...extra,
  };
}

function repository(): KeysRepository {
  const cfg = parseConfig({ ...tables.env });
  return new KeysRepository(createDocumentClient(cfg), tables.names.keys);
}

beforeAll(async () => {
  tables = await createIsolatedTables();
  // The isolated tables are sis-<tenant>-*, the names `--tenant` selects.
  tenant = tables.prefix.replace(/^sis-/, '');
  server = await startControlPlane(state);
  // Enough REST APIs and plans that the CLI must page (API Gateway pages hold at most 500).
  state.restApis = [
    ...Array.from({ length: 520 }, (_, i) => ({ id: `other${i}`, name: `sis-other-${i}` })),
    { id: 'api-tenant', name: `sis-${tenant}` },
  ];
  state.stages = { 'api-tenant': ['prod'] };
  state.usagePlans = [
    { id: 'plan-other', name: 'sis-other-default', tags: { 'sis:tenant': 'other' }, apiStages: [] },
    ...Array.from({ length: 505 }, (_, i) => ({ id: `per-key-${i}`, name: `sis-${tenant}-k${i}` })),
    {
      id: 'plan-tenant',
      name: `sis-${tenant}-default`,
      tags: { 'sis:tenant': tenant },
      apiStages: [{ apiId: 'api-tenant', stage: 'prod' }],
      throttle: { rateLimit: 50, burstLimit: 100 },
      quota: { limit: 5000, offset: 0, period: 'DAY' },
    },
  ];
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
});

describe('sis admin bootstrap --aws --tenant <t>', () => {
  it('refuses with the tenant and region named when the stack is not found, writing nothing', async () => {
    state.seen.length = 0;
    const run = await sis(['admin', 'bootstrap', '--json', '--aws', '--tenant', 'absent'], awsEnv());
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /No REST API named "sis-absent" found in eu-west-1\. Is the stack of tenant absent deployed in eu-west-1\?/,
    );
    expect(state.seen.every((s) => s.method === 'GET')).toBe(true);
    expect(await repository().list()).toEqual([]);
  });

  it("finds the tenant's API, stage and default plan, and registers the key in that plan", async () => {
    state.seen.length = 0;
    const run = await sis(['admin', 'bootstrap', '--json', '--aws', '--tenant', tenant], awsEnv());
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { key_id: string; api_key: string };
    expect(run.stderr).toContain(
      `API Gateway of tenant ${tenant} in eu-west-1: REST API api-tenant, stage prod, usage plan plan-tenant (50/s, burst 100, 5000 per day)`,
    );
    expect(run.stderr).not.toContain(printed.api_key);

    const calls = state.seen.map((s) =>
      `${s.method} ${s.path} ${new URLSearchParams(Object.entries(s.query).sort())}`.trim(),
    );
    expect(calls).toEqual([
      'GET /restapis limit=500',
      'GET /restapis limit=500&position=500',
      'GET /restapis/api-tenant/stages/prod',
      'GET /usageplans limit=500',
      'GET /usageplans limit=500&position=500',
      'POST /apikeys',
      'POST /usageplans/plan-tenant/keys',
    ]);
    expect(state.seen.every((s) => s.signed)).toBe(true);
    const apiKey = state.seen[5]?.body ?? {};
    expect(apiKey).toMatchObject({
      name: `sis-${tenant}-${printed.key_id}`,
      enabled: true,
      tags: { 'sis:tenant': tenant, 'sis:key_id': printed.key_id },
    });
    expect(state.seen[6]?.body).toEqual({ keyId: 'apigw-key-1', keyType: 'API_KEY' });

    const record = await repository().get(printed.key_id);
    expect(record).toMatchObject({
      role: 'admin',
      apigw_key_id: 'apigw-key-1',
      usage_plan_id: 'plan-tenant',
      usage_identifier_key: apiKey.value,
      // Stored with the limits the plan enforces, so listings tell the truth.
      rate_limit: { rate_per_second: 50, burst: 100, daily_quota: 5000 },
    });
  });

  it('uses explicit SIS_* identifiers and limits without looking anything up', async () => {
    state.seen.length = 0;
    const run = await sis(
      ['admin', 'bootstrap', '--json', '--aws', '--tenant', tenant, '--force', '--name', 'second'],
      awsEnv({
        SIS_REST_API_ID: 'api-tenant',
        SIS_STAGE_NAME: 'prod',
        SIS_USAGE_PLAN_ID: 'plan-tenant',
        SIS_DEFAULT_RATE_PER_SECOND: '50',
        SIS_DEFAULT_BURST: '100',
        SIS_DEFAULT_DAILY_QUOTA: '5000',
      }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(state.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /apikeys',
      'POST /usageplans/plan-tenant/keys',
    ]);
    const { key_id: keyId } = JSON.parse(run.stdout) as { key_id: string };
    expect(await repository().get(keyId)).toMatchObject({ usage_plan_id: 'plan-tenant', name: 'second' });
  });
});
