import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApiDocument, errorStatusesFor, isDocumentedRoute } from '../../../shared/api/openapi';
import { aiPluginManifest } from '../../../shared/api/plugin-manifests';
import { RESPONSE_SCHEMAS } from '../../../shared/api/response-schemas';
import { ROUTES } from '../../../shared/api/routes';
import { isConsoleRoute } from '../../../shared/api/routes/console-twin';
import { securityCopilotManifest } from '../../../shared/api/security-copilot-manifest';

const serverUrl = 'https://api.example.test/prod';

describe('the OpenAPI document generated from the route table', () => {
  const full = buildOpenApiDocument(ROUTES, { serverUrl, view: 'full' });
  const plugin = buildOpenApiDocument(ROUTES, { serverUrl, view: 'plugin' });

  it('is a valid OpenAPI 3.0.1 document in both views (the version Security Copilot documents)', async () => {
    expect(full.openapi).toBe('3.0.1');
    expect(plugin.openapi).toBe('3.0.1');
    await expect(SwaggerParser.validate(structuredClone(full) as never)).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(structuredClone(plugin) as never)).resolves.toBeTruthy();
  });

  it('has every API route with its operationId, and the contract error shape for every derived error status', () => {
    for (const route of ROUTES.filter(isDocumentedRoute)) {
      const operation = (full.paths[route.path] as Record<string, Record<string, unknown>>)[
        route.method.toLowerCase()
      ];
      expect(operation?.operationId, route.operationId).toBe(route.operationId);
      const responses = operation?.responses as Record<
        string,
        { content?: Record<string, { schema: unknown }> }
      >;
      for (const status of errorStatusesFor(route)) {
        expect(
          responses[String(status)]?.content?.['application/json']?.schema,
          `${route.operationId} ${status}`,
        ).toEqual({
          $ref: '#/components/schemas/ErrorResponse',
        });
      }
      expect(operation?.security).toEqual(route.access.kind === 'public' ? [] : [{ ApiKeyAuth: [] }]);
    }
  });

  it('resolves every response schema name of the route table, and registers no schema that no route names', () => {
    const named = new Set(
      ROUTES.flatMap((route) => Object.values(route.responses).flatMap((response) => response.schema ?? [])),
    );
    expect([...named].sort()).toEqual(Object.keys(RESPONSE_SCHEMAS).sort());
  });

  it('admits null exactly where the schema is nullable, never by making a shared component nullable', () => {
    for (const document of [full, plugin]) {
      const schemas = document.components?.schemas as Record<string, Record<string, unknown>>;
      for (const [name, schema] of Object.entries(schemas)) {
        expect(schema.nullable, name).toBeUndefined();
        expect(JSON.stringify(schema), name).not.toContain('{"nullable":true}');
      }
      const propertiesOf = (name: string) =>
        (schemas[name]?.properties ?? {}) as Record<string, Record<string, unknown>>;
      const report = propertiesOf('InvestigationReportResponse').report;
      expect(report).toMatchObject({ type: 'object', nullable: true });
      expect(report?.required).toEqual(
        expect.arrayContaining(['summary', 'risk_score', 'verdict', 'findings']),
      );
      const verdict = propertiesOf('SearchResult').verdict;
      expect(verdict).toMatchObject({ type: 'string', nullable: true });
      expect(verdict?.enum).toContain(null);
    }
  });

  it('describes every skill, parameter and field a model reads in the plugin view', () => {
    const schemas = plugin.components?.schemas as Record<string, Record<string, unknown>>;
    const undescribed: string[] = [];
    const seen = new Set<string>();
    const visit = (schema: Record<string, unknown> | undefined, where: string) => {
      if (!schema) return;
      const ref = schema.$ref as string | undefined;
      if (ref) {
        const name = ref.split('/').pop() as string;
        if (!seen.has(name)) {
          seen.add(name);
          visit(schemas[name], name);
        }
        return;
      }
      for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
        for (const [i, part] of ((schema[key] as Record<string, unknown>[]) ?? []).entries()) {
          visit(part, `${where}/${key}${i}`);
        }
      }
      visit(schema.items as Record<string, unknown> | undefined, `${where}[]`);
      for (const [name, property] of Object.entries(
        (schema.properties as Record<string, Record<string, unknown>>) ?? {},
      )) {
        const target = property.$ref ? schemas[String(property.$ref).split('/').pop() as string] : property;
        if (!property.description && !target?.description) undescribed.push(`${where}.${name}`);
        visit(property, `${where}.${name}`);
      }
    };
    for (const item of Object.values(plugin.paths)) {
      for (const operation of Object.values(item as Record<string, Record<string, unknown>>)) {
        const id = operation.operationId as string;
        expect(String(operation.description).length, id).toBeGreaterThan(120);
        expect(operation['x-skill-name'], id).toEqual(expect.any(String));
        for (const parameter of (operation.parameters as Record<string, unknown>[]) ?? []) {
          if (!parameter.description) undescribed.push(`${id} parameter ${parameter.name}`);
        }
        const body = operation.requestBody as {
          content: Record<string, { schema: Record<string, unknown> }>;
        };
        visit(body?.content['application/json']?.schema, `${id} body`);
        const ok = (operation.responses as Record<string, { content?: Record<string, { schema: never }> }>)[
          '200'
        ];
        visit(ok?.content?.['application/json']?.schema, `${id} 200`);
      }
    }
    expect(undescribed).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
  });

  it('declares the X-API-Key header scheme and the deployment URL as server', () => {
    expect(full.components?.securitySchemes?.ApiKeyAuth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(full.servers).toEqual([{ url: serverUrl }]);
  });

  it('shows only plugin skills in the plugin view', () => {
    const operationIds = Object.values(plugin.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId),
    );
    expect(operationIds.sort()).toEqual(
      ROUTES.filter((r) => r.pluginSkill)
        .map((r) => r.operationId)
        .sort(),
    );
    expect(operationIds.some((id) => /ApiKey|ingest/i.test(id))).toBe(false);
  });

  it('leaves the web console (pages, assets, sign-in settings, console data routes) out of both views', () => {
    const consoleRoutes = ROUTES.filter(isConsoleRoute);
    expect(consoleRoutes.some((r) => r.access.kind === 'console')).toBe(true);
    for (const document of [full, plugin]) {
      const paths = Object.keys(document.paths);
      expect(paths.filter((p) => p.startsWith('/api/v1/console/') || p.startsWith('/console'))).toEqual([]);
      expect(paths).not.toContain('/sessions');
    }
  });
});

describe('the plugin manifests', () => {
  const options = { publicUrl: 'https://api.example.test/prod/', contactEmail: 'soc@example.com' };

  it('keeps the OpenAI manifest within Security Copilot limits and points at the plugin document', () => {
    const manifest = aiPluginManifest(options);
    expect(manifest.name_for_human.length).toBeLessThanOrEqual(40);
    expect(manifest.name_for_model.length).toBeLessThanOrEqual(100);
    expect(manifest.name_for_model).not.toMatch(/[/\\?#@ ]/);
    expect(manifest.description_for_model.length).toBeLessThanOrEqual(16_000);
    expect(manifest.api.url).toBe('https://api.example.test/prod/plugin/openapi.json');
    expect(manifest.auth).toMatchObject({ type: 'service_http', authorization_type: 'bearer' });
  });

  it('declares the X-API-Key header and a per-tenant instance URL in the Security Copilot manifest', () => {
    const manifest = parse(securityCopilotManifest(options));
    expect(manifest.Descriptor.Authorization).toEqual({
      Type: 'APIKey',
      Key: 'X-API-Key',
      Location: 'Header',
      AuthScheme: '',
    });
    expect(manifest.Descriptor.Name).not.toMatch(/[/\\?#@.]/);
    const setting = manifest.Descriptor.Settings.find((s: { Name: string }) => s.Name === 'InstanceURL');
    expect(setting).toMatchObject({ SettingType: 'String', Required: true });
    // Behind a custom domain the base has no stage: the hint names what is true for every deployment.
    const custom = parse(securityCopilotManifest({ ...options, publicUrl: 'https://sis.example.com' }));
    const customSetting = custom.Descriptor.Settings.find((s: { Name: string }) => s.Name === 'InstanceURL');
    expect(`${customSetting.HintText} ${customSetting.Description}`).not.toMatch(/\/prod|ending in/);
    expect(customSetting.HintText).toContain('/plugin/security-copilot.yaml');
    expect(manifest.SkillGroups[0]).toMatchObject({
      Format: 'API',
      Settings: {
        OpenApiSpecUrl: 'https://api.example.test/prod/plugin/openapi.json',
        EndpointUrlSettingName: 'InstanceURL',
      },
    });
  });
});
