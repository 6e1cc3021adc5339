import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEEDS_REFRESH_FUNCTION } from '../../../infra/constructs/feed-refresh';
import { INCIDENT_CONSUMER_FUNCTION, SIEM_PULL_FUNCTION } from '../../../infra/constructs/incident-sync';
import {
  PROJECT_ROOT,
  physicalFunctionName,
  ServiceFunction,
} from '../../../infra/constructs/service-function';
import {
  DELIVER_WEBHOOK_FUNCTION,
  DELIVERY_INVOKE_RETRIES,
} from '../../../infra/constructs/webhook-delivery';
import { grantsFor } from '../../../infra/function-grants';
import { stackName, type TenantStack } from '../../../infra/stack';
import {
  STALE_SESSION_SWEEP_FUNCTION,
  STATUS_CHANGE_FUNCTION,
  WORKFLOW_STEPS,
} from '../../../infra/workflow/definition';
import { servedPaths } from '../../../shared/api/route-types';
import { ROUTES } from '../../../shared/api/routes';
import { SECURITY_HEADERS } from '../../../shared/api/security-headers';
import { physicalTableName, TABLE_IDS, TABLES } from '../../../shared/store/tables';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

let template: TemplateJson;
let builtStack: TenantStack;
let builtStackName: string;

beforeAll(() => {
  const { template: synthesised, stack } = synthTenantStack();
  template = synthesised.toJSON() as TemplateJson;
  builtStack = stack;
  builtStackName = stack.stackName;
});

const ROOT = '/';

/** Full path of every API Gateway resource, rebuilt from PathPart/ParentId links. */
function resourcePaths(t: TemplateJson): Map<string, string> {
  const resources = resourcesOfType(t, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const resource = resources.get(id);
    if (!resource) throw new Error(`unknown API resource ${id}`);
    const parent = resource.Properties.ParentId as { Ref?: string; 'Fn::GetAtt'?: string[] };
    const parentPath = parent.Ref ? pathOf(parent.Ref) : ROOT;
    const path = `${parentPath === ROOT ? '' : parentPath}/${resource.Properties.PathPart as string}`;
    paths.set(id, path);
    return path;
  };
  for (const id of resources.keys()) pathOf(id);
  return paths;
}

interface MethodView {
  httpMethod: string;
  path: string;
  properties: Record<string, unknown>;
}

function methods(t: TemplateJson): MethodView[] {
  const paths = resourcePaths(t);
  return [...resourcesOfType(t, 'AWS::ApiGateway::Method').values()].map((method) => {
    const resourceId = method.Properties.ResourceId as { Ref?: string };
    return {
      httpMethod: method.Properties.HttpMethod as string,
      path: resourceId.Ref ? (paths.get(resourceId.Ref) ?? '?') : ROOT,
      properties: method.Properties,
    };
  });
}

const expectedMethods = ROUTES.flatMap((route) =>
  servedPaths(route).map((path) => ({ route, key: `${route.method} ${path}` })),
);

const INTRINSIC = '<intrinsic>';

function joinedString(value: unknown): string {
  // Fn::Join of literals and intrinsics, flattened to text with intrinsics as placeholders.
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return JSON.stringify(value);
  return join[1].map((part) => (typeof part === 'string' ? part : INTRINSIC)).join(join[0]);
}

describe('tenant stack shape', () => {
  it('is named after the tenant', () => {
    expect(builtStackName).toBe(stackName('test'));
    expect(builtStackName).toBe('SecurityInvestigation-test');
  });

  it('has exactly one method per route and served path, proxy twins of public paths included', () => {
    const actual = methods(template)
      .map((m) => `${m.httpMethod} ${m.path}`)
      .sort();
    expect(actual).toEqual(expectedMethods.map((m) => m.key).sort());
    expect(new Set(actual).size).toBe(actual.length);
  });

  it('integrates each method with its own route function through Lambda proxy', () => {
    const byKey = new Map(methods(template).map((m) => [`${m.httpMethod} ${m.path}`, m]));
    for (const { route, key } of expectedMethods) {
      const integration = byKey.get(key)?.properties.Integration as Record<string, unknown>;
      expect(integration.Type, key).toBe('AWS_PROXY');
      expect(integration.IntegrationHttpMethod, key).toBe('POST');
      expect(joinedString(integration.Uri), key).toMatch(
        new RegExp(`:function:${physicalFunctionName('test', route.functionName)}/invocations$`),
      );
    }
  });

  it('lets API Gateway invoke exactly the route functions, through one role only this API may assume', () => {
    const methods = [...resourcesOfType(template, 'AWS::ApiGateway::Method').values()];
    const credentials = new Set(
      methods.map((m) => JSON.stringify((m.Properties.Integration as { Credentials?: unknown }).Credentials)),
    );
    expect(credentials.size, 'every integration uses the same credentials').toBe(1);
    const roleId = (JSON.parse([...credentials][0] ?? 'null') as { 'Fn::GetAtt'?: string[] } | null)?.[
      'Fn::GetAtt'
    ]?.[0];
    const role = roleId ? template.Resources[roleId] : undefined;
    expect(role?.Type).toBe('AWS::IAM::Role');
    const trust = JSON.stringify(role?.Properties.AssumeRolePolicyDocument);
    expect(trust).toContain('"Service":"apigateway.amazonaws.com"');
    expect(trust).toContain('aws:SourceAccount');
    expect(trust).toMatch(/"aws:SourceArn".*execute-api.*"Ref":"ApiRestApi/);
    const policies = [...resourcesOfType(template, 'AWS::IAM::Policy').values()].filter((p) =>
      JSON.stringify(p.Properties.Roles).includes(roleId as string),
    );
    const statements = policies.flatMap(
      (p) =>
        (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement,
    );
    expect(statements.map((st) => st.Action)).toEqual(['lambda:InvokeFunction']);
    const invokable = ([statements[0]?.Resource].flat() as { 'Fn::GetAtt'?: string[] }[])
      .map((arn) => template.Resources[arn['Fn::GetAtt']?.[0] ?? '']?.Properties.FunctionName)
      .sort();
    const routeFunctions = [
      ...new Set(expectedMethods.map(({ route }) => physicalFunctionName('test', route.functionName))),
    ].sort();
    expect(invokable).toEqual(routeFunctions);
    // No resource-based permission lets API Gateway in besides the role (the authorizers keep theirs).
    const gatewayPermissions = [...resourcesOfType(template, 'AWS::Lambda::Permission').values()].filter(
      (p) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(gatewayPermissions.map((p) => joinedString(p.Properties.SourceArn))).toEqual(
      gatewayPermissions.map(() => expect.stringContaining('/authorizers/')),
    );
  });

  it('has one function per route function, the authorizer and the workflow, each arm64, Node.js 24, traced, logged', () => {
    const functions = [...resourcesOfType(template, 'AWS::Lambda::Function').values()];
    const expectedNames = new Set([
      'authorizer',
      'console-authorizer',
      ...ROUTES.map((r) => r.functionName),
      ...WORKFLOW_STEPS.map((s) => s.functionName),
      STATUS_CHANGE_FUNCTION,
      STALE_SESSION_SWEEP_FUNCTION,
      INCIDENT_CONSUMER_FUNCTION,
      SIEM_PULL_FUNCTION,
      FEEDS_REFRESH_FUNCTION,
      DELIVER_WEBHOOK_FUNCTION,
    ]);
    expect(functions.map((fn) => fn.Properties.FunctionName).sort()).toEqual(
      [...expectedNames].map((name) => physicalFunctionName('test', name)).sort(),
    );
    for (const fn of functions) {
      const p = fn.Properties;
      expect(p.Architectures, String(p.FunctionName)).toEqual(['arm64']);
      expect(p.Runtime).toBe('nodejs24.x');
      expect(p.TracingConfig).toEqual({ Mode: 'Active' });
      expect(p.MemorySize).toBeGreaterThanOrEqual(256);
      expect((p.LoggingConfig as Record<string, unknown>).LogGroup).toBeDefined();
      // Successful invocations write no platform records; failed ones do (WARN), and so do handlers'
      // INFO lines and EMF metrics (which carry no level: INFO to Lambda).
      expect(p.LoggingConfig).toMatchObject({
        LogFormat: 'JSON',
        SystemLogLevel: 'WARN',
        ApplicationLogLevel: 'INFO',
      });
      const env = (p.Environment as { Variables: Record<string, unknown> }).Variables;
      // Node parses a linked source map at every cold start; by default the map ships unlinked.
      expect(env.NODE_OPTIONS).toBeUndefined();
      expect(env.SIS_TENANT).toBe('test');
      expect(env.POWERTOOLS_SERVICE_NAME).toBeTruthy();
      expect(env.POWERTOOLS_METRICS_NAMESPACE).toBeTruthy();
      expect(env.SIS_PUBLIC_URL).toBeDefined();
      for (const id of TABLE_IDS) expect(env[TABLES[id].configKey], TABLES[id].configKey).toBeDefined();
    }
  });

  it('bundles every function with the environment as its only credential source', () => {
    const serviceFunctions = builtStack.node
      .findAll()
      .filter((construct): construct is ServiceFunction => construct instanceof ServiceFunction);
    // Every function of the template is a ServiceFunction, so none is bundled otherwise.
    expect(serviceFunctions.map((fn) => fn.functionName).sort()).toEqual(
      [...resourcesOfType(template, 'AWS::Lambda::Function').values()]
        .map((fn) => String(fn.Properties.FunctionName))
        .sort(),
    );
    const provider = './shared/platform/lambda-credential-provider.ts';
    const tokenProvider = './shared/platform/lambda-token-provider.ts';
    expect(existsSync(join(PROJECT_ROOT, provider))).toBe(true);
    expect(existsSync(join(PROJECT_ROOT, tokenProvider))).toBe(true);
    for (const fn of serviceFunctions) {
      expect(fn.bundling.esbuildArgs, fn.functionName).toEqual({
        '--alias:@aws-sdk/credential-provider-node': provider,
        '--alias:@aws-sdk/token-providers': tokenProvider,
        // The MCP SDK's validator shim (only the mcp function imports the SDK; an alias elsewhere is inert).
        '--alias:@modelcontextprotocol/server/_shims': './shared/api/mcp/lambda-validator-shims.ts',
      });
      expect(fn.bundling.externalModules, fn.functionName).toEqual([]);
    }
  });

  it('gives the REST API, stage and usage plan IDs only to functions granted key administration', () => {
    for (const fn of resourcesOfType(template, 'AWS::Lambda::Function').values()) {
      const name = String(fn.Properties.FunctionName).replace(/^sis-test-/, '');
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      const admin = grantsFor(name).apiKeyAdmin === true;
      for (const key of ['SIS_REST_API_ID', 'SIS_STAGE_NAME', 'SIS_USAGE_PLAN_ID']) {
        expect(key in env, `${name} ${key}`).toBe(admin);
      }
    }
  });

  it('points only the run-tool step at the offline enrichment data shipped in its asset', () => {
    const withData: string[] = [];
    for (const fn of resourcesOfType(template, 'AWS::Lambda::Function').values()) {
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      if ('SIS_OFFLINE_DATA_DIR' in env) {
        withData.push(String(fn.Properties.FunctionName).replace(/^sis-test-/, ''));
        expect(env.SIS_OFFLINE_DATA_DIR).toBe('/var/task/offline-data');
      }
    }
    expect(withData).toEqual(['step-run-tool']);
  });

  it('creates every declared table with its keys, indexes, TTL, PITR and on-demand billing', () => {
    const tables = [...resourcesOfType(template, 'AWS::DynamoDB::Table').values()];
    expect(tables).toHaveLength(TABLE_IDS.length);
    for (const id of TABLE_IDS) {
      const definition = TABLES[id];
      const table = tables.find((t) => t.Properties.TableName === physicalTableName('test', id));
      expect(table, id).toBeDefined();
      const p = table?.Properties ?? {};
      expect(p.BillingMode).toBe('PAY_PER_REQUEST');
      expect(p.KeySchema).toEqual([
        { AttributeName: definition.partitionKey, KeyType: 'HASH' },
        { AttributeName: definition.sortKey, KeyType: 'RANGE' },
      ]);
      expect(p.TimeToLiveSpecification).toEqual({ AttributeName: definition.ttlAttribute, Enabled: true });
      expect(p.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(p.DeletionProtectionEnabled).toBe(true);
      expect(table?.DeletionPolicy).toBe('Retain');
      const indexes = ((p.GlobalSecondaryIndexes as Record<string, unknown>[] | undefined) ?? []).map(
        (gsi) => ({
          name: gsi.IndexName,
          keys: gsi.KeySchema,
        }),
      );
      expect(indexes).toEqual(
        definition.globalIndexes.map((gsi) => ({
          name: gsi.indexName,
          keys: [
            { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
            { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
          ],
        })),
      );
      const attributes = (p.AttributeDefinitions as { AttributeName: string }[])
        .map((a) => a.AttributeName)
        .sort();
      const expectedAttributes = new Set([
        definition.partitionKey,
        definition.sortKey,
        ...definition.globalIndexes.flatMap((gsi) => [gsi.partitionKey, gsi.sortKey]),
      ]);
      expect(attributes).toEqual([...expectedAttributes].sort());
    }
  });

  it('puts the API-key authorizer on every key method, the console authorizer on console methods, none on public ones', () => {
    const authorizers = [...resourcesOfType(template, 'AWS::ApiGateway::Authorizer').entries()];
    const isConsole = ([, a]: (typeof authorizers)[number]) =>
      JSON.stringify(a.Properties.AuthorizerUri).includes('ConsoleAuthorizerFunction');
    const keyAuthorizers = authorizers.filter((a) => !isConsole(a)).map(([id]) => id);
    const consoleAuthorizers = authorizers.filter(isConsole).map(([id]) => id);
    expect(keyAuthorizers).toHaveLength(
      ROUTES.some((r) => ['scope', 'admin'].includes(r.access.kind)) ? 1 : 0,
    );
    expect(consoleAuthorizers).toHaveLength(ROUTES.some((r) => r.access.kind === 'console') ? 1 : 0);
    const byKey = new Map(methods(template).map((m) => [`${m.httpMethod} ${m.path}`, m.properties]));
    for (const { route, key } of expectedMethods) {
      const method = byKey.get(key) ?? {};
      if (route.access.kind === 'public') {
        expect(method.AuthorizationType, key).toBe('NONE');
        expect(method.AuthorizerId, key).toBeUndefined();
      } else if (route.access.kind === 'console') {
        // Signed-in people, not keys: no usage plan key is required.
        expect(method.AuthorizationType, key).toBe('CUSTOM');
        expect(method.AuthorizerId, key).toEqual({ Ref: consoleAuthorizers[0] });
        expect(method.ApiKeyRequired ?? false, key).toBe(false);
      } else {
        expect(method.AuthorizationType, key).toBe('CUSTOM');
        expect(method.AuthorizerId, key).toEqual({ Ref: keyAuthorizers[0] });
        expect(method.ApiKeyRequired, key).toBe(true);
      }
    }
  });

  it('runs the authorizer uncached without identity source by default, so X-API-Key and Bearer both reach it', () => {
    const [authorizer] = resourcesOfType(template, 'AWS::ApiGateway::Authorizer').values();
    if (!authorizer) return expect(ROUTES.every((r) => r.access.kind === 'public')).toBe(true);
    expect(authorizer.Properties.Type).toBe('REQUEST');
    expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBe(0);
    expect(authorizer.Properties).not.toHaveProperty('IdentitySource');
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain('AuthorizerFunction');
  });

  it('serves the terms page the manifests link to: a public GET /legal with its own function', () => {
    const legal = methods(template).filter((m) => m.path === '/legal');
    expect(legal.map((m) => m.httpMethod)).toEqual(['GET']);
    expect(legal[0]?.properties.AuthorizationType).toBe('NONE');
    const integration = legal[0]?.properties.Integration as Record<string, unknown>;
    expect(joinedString(integration.Uri)).toMatch(/:function:sis-test-get-terms-page\/invocations$/);
  });

  it('answers with the contract error body on all of API Gateway’s own responses', () => {
    const expected: Record<string, { status?: string; code: string }> = {
      UNAUTHORIZED: { status: '401', code: 'unauthorized' },
      ACCESS_DENIED: { status: '403', code: 'forbidden' },
      THROTTLED: { status: '429', code: 'rate_limited' },
      QUOTA_EXCEEDED: { status: '429', code: 'rate_limited' },
      REQUEST_TOO_LARGE: { status: '413', code: 'payload_too_large' },
      MISSING_AUTHENTICATION_TOKEN: { status: '404', code: 'not_found' },
      AUTHORIZER_FAILURE: { status: '503', code: 'service_unavailable' },
      DEFAULT_4XX: { code: 'bad_request' },
      DEFAULT_5XX: { code: 'internal_error' },
    };
    const responses = new Map(
      [...resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse').values()].map((r) => [
        r.Properties.ResponseType as string,
        r.Properties,
      ]),
    );
    for (const [type, { status }] of Object.entries(expected)) {
      const response = responses.get(type);
      expect(response, type).toBeDefined();
      if (status) expect(response?.StatusCode, type).toBe(status);
    }
    for (const [type, response] of responses) {
      const templateText = (response.ResponseTemplates as Record<string, string>)['application/json'] ?? '';
      // Render the VTL variables the way API Gateway would, then parse.
      const rendered = templateText
        .replaceAll('$context.requestId', 'req-123')
        .replaceAll('$context.error.messageString', '"Gateway message"');
      const body = JSON.parse(rendered) as { error: Record<string, unknown> };
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.request_id, type).toBe('req-123');
      expect(typeof body.error.message, type).toBe('string');
      if (expected[type]) expect(body.error.code, type).toBe(expected[type].code);
      // The same security headers every handler answer carries, nosniff among them.
      const headers = response.ResponseParameters as Record<string, string>;
      expect(headers['gatewayresponse.header.X-Content-Type-Options'], type).toBe("'nosniff'");
      expect(headers, type).toEqual({
        'gatewayresponse.header.Content-Type': "'application/json'",
        ...Object.fromEntries(
          Object.entries(SECURITY_HEADERS).map(([name, value]) => [
            `gatewayresponse.header.${name}`,
            `'${value}'`,
          ]),
        ),
      });
    }
  });

  it('throttles per key through a usage plan attached to the stage, keys supplied by the authorizer', () => {
    const [api] = resourcesOfType(template, 'AWS::ApiGateway::RestApi').values();
    expect(api?.Properties.ApiKeySourceType).toBe('AUTHORIZER');
    expect(api?.Properties.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
    const [stageId] = resourcesOfType(template, 'AWS::ApiGateway::Stage').keys();
    const plans = [...resourcesOfType(template, 'AWS::ApiGateway::UsagePlan').values()];
    expect(plans).toHaveLength(1);
    expect(plans[0]?.Properties.Throttle).toEqual({ RateLimit: 10, BurstLimit: 20 });
    const stages = plans[0]?.Properties.ApiStages as { Stage: unknown }[];
    expect(stages.map((s) => s.Stage)).toEqual([{ Ref: stageId }]);
  });

  it('writes JSON access logs without the key itself, and traces a fixed share of the stage', () => {
    const [stage] = resourcesOfType(template, 'AWS::ApiGateway::Stage').values();
    expect(stage?.Properties.TracingEnabled).toBe(true);
    const format = (stage?.Properties.AccessLogSetting as { Format: string } | undefined)?.Format ?? '';
    const fields = JSON.parse(format) as Record<string, string>;
    expect(fields.requestId).toBe('$context.requestId');
    expect(fields.status).toBe('$context.status');
    expect(fields.keyId).toBe('$context.authorizer.keyId');
    expect(fields.errorType).toBe('$context.error.responseType');
    expect(format).not.toContain('$context.identity.apiKey"');
    const rules = [...resourcesOfType(template, 'AWS::XRay::SamplingRule').values()];
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties.SamplingRule).toMatchObject({
      RuleName: 'sis-test',
      ServiceName: 'sis-test/prod',
      ServiceType: 'AWS::ApiGateway::Stage',
      FixedRate: 0.005,
      ReservoirSize: 0,
    });
  });

  it('gzips answers of 1 KB and more for clients that accept it', () => {
    const [api] = resourcesOfType(template, 'AWS::ApiGateway::RestApi').values();
    expect(api?.Properties.MinimumCompressionSize).toBe(1024);
  });

  it('outputs the URLs a plugin platform needs and the table names', () => {
    const outputs = template.Outputs ?? {};
    for (const name of ['ApiUrl', 'OpenApiUrl', 'PluginManifestUrl', 'UsagePlanId', 'RestApiId']) {
      expect(outputs, name).toHaveProperty(name);
    }
    expect(joinedString(outputs.OpenApiUrl?.Value)).toMatch(/\/prod\/openapi\.json$/);
    expect(joinedString(outputs.PluginManifestUrl?.Value)).toMatch(/\/prod\/\.well-known\/ai-plugin\.json$/);
    const tableNames = Object.values(outputs).map((o) => JSON.stringify(o.Value));
    for (const id of TABLE_IDS) {
      const [logicalId] = [...resourcesOfType(template, 'AWS::DynamoDB::Table')].find(
        ([, t]) => t.Properties.TableName === physicalTableName('test', id),
      ) ?? [''];
      expect(tableNames).toContain(JSON.stringify({ Ref: logicalId }));
    }
  });
  it('delivers webhooks with nothing always on: no queue or poller, a schedule group, retries to the alarm topic', () => {
    const deliverName = physicalFunctionName('test', DELIVER_WEBHOOK_FUNCTION);
    const [deliverId] = [...resourcesOfType(template, 'AWS::Lambda::Function')].find(
      ([, fn]) => fn.Properties.FunctionName === deliverName,
    ) ?? [''];
    const queueNames = [...resourcesOfType(template, 'AWS::SQS::Queue').values()].map(
      (q) => q.Properties.QueueName,
    );
    expect(queueNames.filter((name) => String(name).includes('webhook'))).toEqual([]);
    const mappings = [...resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').values()];
    expect(mappings.filter((m) => JSON.stringify(m.Properties.FunctionName).includes(deliverId))).toEqual([]);
    expect([...resourcesOfType(template, 'AWS::Scheduler::ScheduleGroup').values()]).toEqual([
      expect.objectContaining({ Properties: { Name: 'sis-test-webhooks' }, DeletionPolicy: 'Delete' }),
    ]);
    const [topicId] = [...resourcesOfType(template, 'AWS::SNS::Topic')].find(
      ([, t]) => t.Properties.TopicName === 'sis-test-alarms',
    ) ?? [''];
    expect([...resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig').values()]).toEqual([
      expect.objectContaining({
        Properties: expect.objectContaining({
          FunctionName: { Ref: deliverId },
          MaximumRetryAttempts: DELIVERY_INVOKE_RETRIES,
          DestinationConfig: { OnFailure: { Destination: { Ref: topicId } } },
        }),
      }),
    ]);
  });
});
