import { PLUGIN_PATHS } from '../plugin-manifests';
import { defineRoute } from '../route-types';

export const health = /* @__PURE__ */ defineRoute({
  operationId: 'getHealth',
  method: 'GET',
  path: '/health',
  access: { kind: 'public' },
  functionName: 'health',
  summary: 'Service health',
  description: 'Liveness check. Needs no API key and reads no data.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'The service is up', schema: 'HealthResponse' } },
});

export const openApiDocument = /* @__PURE__ */ defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: PLUGIN_PATHS.openApi,
  access: { kind: 'public' },
  functionName: 'get-openapi-document',
  summary: 'OpenAPI document of the whole API',
  description: 'The OpenAPI 3.0.1 description of every route, generated from the route table.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'The OpenAPI document', schema: 'OpenApiDocument' } },
});

export const pluginOpenApiDocument = /* @__PURE__ */ defineRoute({
  operationId: 'getPluginOpenApiDocument',
  method: 'GET',
  path: PLUGIN_PATHS.pluginOpenApi,
  access: { kind: 'public' },
  functionName: 'get-plugin-openapi-document',
  summary: 'OpenAPI document of the plugin skills',
  description: 'The OpenAPI 3.0.1 view an assistant platform loads: only the five plugin skills.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'The plugin OpenAPI document', schema: 'OpenApiDocument' } },
});

export const aiPluginManifest = /* @__PURE__ */ defineRoute({
  operationId: 'getAiPluginManifest',
  method: 'GET',
  path: PLUGIN_PATHS.aiPlugin,
  access: { kind: 'public' },
  functionName: 'get-ai-plugin-manifest',
  summary: 'OpenAI-compatible plugin manifest',
  description: 'The ai-plugin.json manifest that assistant platforms load to add this service as a plugin.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'The manifest', schema: 'AiPluginManifest' } },
});

export const securityCopilotManifest = /* @__PURE__ */ defineRoute({
  operationId: 'getSecurityCopilotManifest',
  method: 'GET',
  path: PLUGIN_PATHS.securityCopilot,
  access: { kind: 'public' },
  functionName: 'get-security-copilot-manifest',
  summary: 'Microsoft Security Copilot plugin manifest (YAML)',
  description: 'The Security Copilot manifest: API key in the X-API-Key header and an instance URL setting.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'The manifest as YAML' } },
});

export const pluginLogo = /* @__PURE__ */ defineRoute({
  operationId: 'getPluginLogo',
  method: 'GET',
  path: PLUGIN_PATHS.logo,
  access: { kind: 'public' },
  functionName: 'get-plugin-logo',
  summary: 'Plugin logo (SVG)',
  description: 'The logo the manifests point to.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'An SVG image' } },
});

export const termsPage = /* @__PURE__ */ defineRoute({
  operationId: 'getTermsPage',
  method: 'GET',
  path: PLUGIN_PATHS.legal,
  access: { kind: 'public' },
  functionName: 'get-terms-page',
  summary: 'Terms of use (HTML)',
  description:
    "The terms page the plugin manifests' legal URL points to, unless the operator configured its own " +
    '(SIS_LEGAL_URL, deployment setting legalUrl); then this page links to it.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'An HTML page' } },
});

export const metaRoutes = [
  health,
  openApiDocument,
  pluginOpenApiDocument,
  aiPluginManifest,
  securityCopilotManifest,
  pluginLogo,
  termsPage,
] as const;
