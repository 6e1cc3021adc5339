import SwaggerParser from '@apidevtools/swagger-parser';
import axios, { type AxiosResponse } from 'axios';
import OpenAPIClientAxios, { type OpenAPIClient } from 'openapi-client-axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApiDocument } from '../../shared/api/openapi';
import { PLUGIN_LIMITS } from '../../shared/api/plugin-responses';
import { RESPONSE_SCHEMAS } from '../../shared/api/response-schemas';
import { ROUTES } from '../../shared/api/routes';
import type { IncidentInput } from '../../shared/domain/incidents/incident-input';
import { PLUGIN_SCOPES } from '../../shared/domain/keys/scopes';
import * as z from '../../shared/zod';
import { errorShape, startTestService, type TestService } from '../support/local-service';
import { type ObservedResponse, OpenApiResponseValidator } from '../support/openapi-response-validator';

/**
 * Plays the assistant platform against the whole local runtime over HTTP: it knows nothing but the
 * manifest URL and a key an administrator created for it. It discovers the plugin from the manifest,
 * builds its client from the OpenAPI document it finds there at run time, and calls each skill by
 * operationId, exactly as a platform builds calls from the manifest schema (spec §1, plugin data flow).
 */

const SKILLS = {
  'Investigate Entity': 'startInvestigation',
  'Query Knowledge Graph': 'queryKnowledgeGraph',
  'List Recent Incidents': 'listIncidents',
  'Get Investigation Report': 'getInvestigationReport',
  'Search Investigations': 'searchInvestigations',
} as const;

type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
};

let service: TestService;
let pluginKey: string;
let pluginDocument: Document;
let client: OpenAPIClient;
let sessionId: string;
/** Bytes on the wire of each skill's answer, printed at the end and quoted in docs/plugin.md. */
const sizes: Record<string, number> = {};
/** Each skill's real answer, as the platform received it. */
const captured = new Map<string, ObservedResponse>();

/** Calls a skill by operationId, the way a platform does after choosing it. */
function skill(
  on: OpenAPIClient,
  operationId: string,
  parameters?: Record<string, unknown>,
  data?: unknown,
  config?: { headers: Record<string, string> },
): Promise<AxiosResponse> {
  const operation = on[operationId];
  if (!operation) throw new Error(`The plugin document has no operation ${operationId}`);
  return operation(parameters as never, data as never, config);
}

function incident(
  id: string,
  severity: string,
  day: number,
  entities: IncidentInput['entities'],
): IncidentInput {
  return {
    source: 'sentinel',
    source_id: `conformance-${id}`,
    title: `Sign-in from anonymous IP followed by MFA fatigue (${id})`,
    description: 'Repeated MFA prompts after a sign-in from an anonymising proxy.',
    severity,
    status: 'new',
    created_at: `2026-11-${String(day).padStart(2, '0')}T08:14:00Z`,
    url: `https://portal.azure.com/#incident/${id}`,
    entities,
  };
}

/** What an administrator does for an integration: a dedicated key with exactly the needed scopes. */
async function createKeyAsAdmin(name: string, scopes: readonly string[]): Promise<string> {
  const created = await service.call('POST', '/api/v1/admin/keys', {
    key: service.adminKey,
    body: { name, description: 'Created by the conformance test', scopes, expires_in_days: 30 },
  });
  expect(created.status).toBe(201);
  expect(created.body.scopes).toEqual([...scopes]);
  return created.body.api_key;
}

function sizeOf(response: AxiosResponse): number {
  const declared = Number(response.headers['content-length']);
  return Number.isFinite(declared) && declared > 0
    ? declared
    : Buffer.byteLength(JSON.stringify(response.data), 'utf8');
}

/** A platform client built only from what the platform fetched; its answers checked against that document. */
async function platformClient(document: Document, headers: Record<string, string>): Promise<OpenAPIClient> {
  const api = new OpenAPIClientAxios({
    definition: structuredClone(document) as never,
    withServer: { url: service.baseUrl },
    axiosConfigDefaults: { headers, validateStatus: () => true },
  });
  const built = await api.init();
  const validator = new OpenApiResponseValidator(document as never);
  built.interceptors.response.use((response) => {
    const observed = {
      method: String(response.config.method).toUpperCase(),
      path: String((response.request as { path?: string }).path),
      status: response.status,
      contentType: String(response.headers['content-type'] ?? ''),
      body: response.data,
    };
    const checked = validator.check(observed);
    if (!checked.ok) throw new Error(checked.message);
    if (checked.operationId && response.status === 200) captured.set(checked.operationId, observed);
    return response;
  });
  return built;
}

beforeAll(async () => {
  service = await startTestService();
  pluginKey = await createKeyAsAdmin('Security Copilot plugin', PLUGIN_SCOPES);
  const siemKey = await createKeyAsAdmin('Sentinel push', ['incidents:write']);
  const incidents = [
    incident('a1', 'high', 1, ['203.0.113.66', 'j.doe@contoso.example', { type: 'host', value: 'WS-0142' }]),
    incident('a2', 'critical', 2, ['203.0.113.66', 'j.doe@contoso.example']),
    incident('a3', 'medium', 3, [{ type: 'host', value: 'ws-0142' }, 'update-cdn.example.net']),
    incident('a4', 'high', 4, ['198.51.100.23', 'a.smith@contoso.example']),
  ];
  const ingest = await service.call('POST', '/api/v1/incidents/ingest', {
    key: siemKey,
    body: { incidents },
  });
  expect(ingest.status).toBe(202);
  expect(ingest.body).toMatchObject({ accepted: incidents.length, rejected: 0 });
  await service.incidentQueue.idle();
});

afterAll(async () => {
  if (Object.keys(sizes).length > 0) {
    console.log(
      `Skill response sizes (bytes):\n${Object.entries(sizes)
        .map(([skill, bytes]) => `  ${skill}: ${bytes}`)
        .join('\n')}`,
    );
  }
  await service?.stop();
});

describe('an assistant platform adding the service as a plugin', () => {
  it('discovers the OpenAI manifest, follows api.url to the plugin document and finds exactly the five skills', async () => {
    const manifest = await axios.get(`${service.baseUrl}/.well-known/ai-plugin.json`);
    expect(manifest.status).toBe(200);
    expect(manifest.data).toMatchObject({
      schema_version: 'v1',
      auth: { type: 'service_http', authorization_type: 'bearer' },
      api: { type: 'openapi', url: `${service.baseUrl}/plugin/openapi.json` },
    });
    const document = await axios.get(manifest.data.api.url);
    expect(document.status).toBe(200);
    pluginDocument = document.data;
    expect(pluginDocument.openapi).toMatch(/^3\.0\./);
    await SwaggerParser.validate(structuredClone(pluginDocument) as never);
    const skills = Object.values(pluginDocument.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string; 'x-skill-name': string }>).map((op) => [
        op['x-skill-name'],
        op.operationId,
      ]),
    );
    expect(Object.fromEntries(skills)).toEqual(SKILLS);
    client = await platformClient(pluginDocument, { Authorization: `Bearer ${pluginKey}` });
  });

  it('Investigate Entity: a synchronous investigation answers summary, risk score, verdict, entities and findings', async () => {
    const answer = await skill(client, 'startInvestigation', undefined, { entity: '203.0.113.66' });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({
      session_id: expect.any(String),
      status: 'completed',
      session_url: expect.stringContaining(answer.data.session_id),
      report: {
        summary: expect.any(String),
        risk_score: expect.any(Number),
        verdict: expect.stringMatching(/^(benign|suspicious|malicious|unknown)$/),
        persona: 'SOC Analyst',
        entities: expect.arrayContaining([
          expect.objectContaining({ type: 'ip', value: '203.0.113.66', role: 'investigated' }),
        ]),
      },
    });
    expect(answer.data.report.findings.length).toBeGreaterThan(0);
    expect(answer.data.report.findings[0]).toMatchObject({
      title: expect.any(String),
      severity: expect.any(String),
    });
    expect(answer.data.report.summary.length).toBeLessThanOrEqual(PLUGIN_LIMITS.summaryChars);
    sessionId = answer.data.session_id;
    sizes['Investigate Entity (startInvestigation)'] = sizeOf(answer);
  });

  it('Query Knowledge Graph: the entity and its neighbors with type, value and relationship', async () => {
    const answer = await skill(client, 'queryKnowledgeGraph', { value: '203.0.113.66' });
    expect(answer.status).toBe(200);
    expect(answer.data.entity).toMatchObject({ type: 'ip', value: '203.0.113.66' });
    expect(answer.data.neighbors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'user',
          value: 'j.doe@contoso.example',
          relationship: 'co_occurs_in_incident',
        }),
      ]),
    );
    sizes['Query Knowledge Graph (queryKnowledgeGraph)'] = sizeOf(answer);
  });

  it('List Recent Incidents: high and critical incidents with title, severity, status and a link', async () => {
    const answer = await skill(client, 'listIncidents', { severity: 'high,critical', since: '2026-11-01' });
    expect(answer.status).toBe(200);
    const incidents = answer.data.incidents as {
      title: string;
      severity: string;
      status: string;
      link: string;
    }[];
    expect(incidents).toHaveLength(3);
    for (const item of incidents) {
      expect(item.title).toEqual(expect.any(String));
      expect(['high', 'critical']).toContain(item.severity);
      expect(item.status).toBe('new');
      expect(item.link.startsWith(service.baseUrl)).toBe(true);
    }
    sizes['List Recent Incidents (listIncidents)'] = sizeOf(answer);
  });

  it('Get Investigation Report: the finished investigation by session ID', async () => {
    const answer = await skill(client, 'getInvestigationReport', { session_id: sessionId });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({
      session_id: sessionId,
      status: 'completed',
      entity: { type: 'ip', value: '203.0.113.66' },
      report: { summary: expect.any(String), risk_score: expect.any(Number), findings: expect.any(Array) },
    });
    sizes['Get Investigation Report (getInvestigationReport)'] = sizeOf(answer);
  });

  it('Search Investigations: past investigations matching an entity', async () => {
    const answer = await skill(client, 'searchInvestigations', { q: '203.0.113.66' });
    expect(answer.status).toBe(200);
    expect(answer.data.results).toEqual([
      expect.objectContaining({
        session_id: sessionId,
        status: 'completed',
        entity: { type: 'ip', value: '203.0.113.66' },
        risk_score: expect.any(Number),
        summary: expect.any(String),
      }),
    ]);
    sizes['Search Investigations (searchInvestigations)'] = sizeOf(answer);
  });

  it('keeps every skill answer within the documented size cap', () => {
    expect(Object.keys(sizes)).toHaveLength(5);
    for (const [skill, bytes] of Object.entries(sizes)) {
      expect(bytes, skill).toBeLessThanOrEqual(PLUGIN_LIMITS.maxResponseBytes);
    }
  });

  it("fails the moment a skill's zod response schema changes while its handler does not", () => {
    expect([...captured.keys()].sort()).toEqual(Object.values(SKILLS).sort());
    for (const [operationId, observed] of captured) {
      const name = ROUTES.find((route) => route.operationId === operationId)?.responses[200]?.schema;
      if (!name) throw new Error(`${operationId} has no 200 schema`);
      const schema = z.extend(RESPONSE_SCHEMAS[name] as z.ZodMiniObject, { confidence: z.number() });
      const document = buildOpenApiDocument(ROUTES, {
        serverUrl: service.baseUrl,
        view: 'plugin',
        responseSchemas: { ...RESPONSE_SCHEMAS, [name]: schema },
      });
      const result = new OpenApiResponseValidator(document as never).check(observed);
      expect(result, operationId).toMatchObject({
        ok: false,
        message: expect.stringContaining("must have required property 'confidence'"),
      });
    }
  });

  it('refuses the plugin key on an admin route, and a key without graph:read on the graph skill', async () => {
    const admin = await axios.get(`${service.baseUrl}/api/v1/admin/keys`, {
      headers: { Authorization: `Bearer ${pluginKey}` },
      validateStatus: () => true,
    });
    expect(admin.status).toBe(403);
    expect(admin.data).toMatchObject(errorShape('forbidden'));

    const withoutGraph = await createKeyAsAdmin(
      'plugin without graph',
      PLUGIN_SCOPES.filter((scope) => scope !== 'graph:read'),
    );
    const denied = await skill(client, 'queryKnowledgeGraph', { value: '203.0.113.66' }, undefined, {
      headers: { Authorization: `Bearer ${withoutGraph}` },
    });
    expect(denied.status).toBe(403);
    expect(denied.data).toMatchObject(errorShape('forbidden'));
    const allowed = await skill(client, 'listIncidents', undefined, undefined, {
      headers: { Authorization: `Bearer ${withoutGraph}` },
    });
    expect(allowed.status).toBe(200);
  });

  it('loads the Security Copilot manifest: its OpenApiSpecUrl is the same plugin document, its key goes in X-API-Key', async () => {
    const yaml = await axios.get(`${service.baseUrl}/plugin/security-copilot.yaml`, { responseType: 'text' });
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/yaml/);
    const manifest = parse(yaml.data);
    const specUrl = manifest.SkillGroups[0].Settings.OpenApiSpecUrl;
    const aiPlugin = await axios.get(`${service.baseUrl}/.well-known/ai-plugin.json`);
    expect(specUrl).toBe(aiPlugin.data.api.url);
    const document = await axios.get(specUrl);
    expect(document.data).toEqual(pluginDocument);
    expect(manifest.Descriptor.Authorization).toMatchObject({ Type: 'APIKey', Location: 'Header' });

    // Security Copilot sends the key in the named header and the tenant's InstanceURL as the server.
    const header = manifest.Descriptor.Authorization.Key as string;
    expect(header).toBe('X-API-Key');
    const copilot = await platformClient(document.data, { [header]: pluginKey });
    const answer = await skill(copilot, 'getInvestigationReport', { session_id: sessionId });
    expect(answer.status).toBe(200);
    expect(answer.data.report.verdict).toEqual(expect.any(String));
  });

  it('finds every URL either manifest publishes (documents, logo, legal page) answering 200 without a key', async () => {
    const urlsIn = (value: unknown): string[] => {
      if (typeof value === 'string') return /^https?:\/\//i.test(value) ? [value] : [];
      if (Array.isArray(value)) return value.flatMap(urlsIn);
      if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
      return [];
    };
    const aiPlugin = (await axios.get(`${service.baseUrl}/.well-known/ai-plugin.json`)).data;
    const copilotYaml = await axios.get(`${service.baseUrl}/plugin/security-copilot.yaml`, {
      responseType: 'text',
    });
    const copilot = parse(copilotYaml.data);
    expect(Object.keys(copilot).sort()).toEqual(['Descriptor', 'SkillGroups']);
    expect(copilot.Descriptor.SupportedAuthTypes).toEqual(['ApiKey']);
    const urls = [...new Set([...urlsIn(aiPlugin), ...urlsIn(copilot)])];
    expect(urls).toEqual(
      expect.arrayContaining([
        aiPlugin.api.url,
        aiPlugin.logo_url,
        aiPlugin.legal_info_url,
        copilot.Descriptor.Icon,
      ]),
    );
    for (const url of urls) {
      const answer = await axios.get(url, { validateStatus: () => true, responseType: 'text' });
      expect(answer.status, url).toBe(200);
    }
    const legal = await axios.get(aiPlugin.legal_info_url, { responseType: 'text' });
    expect(legal.headers['content-type']).toMatch(/^text\/html/);
    expect(legal.data).toContain('terms of use');
  });
});
