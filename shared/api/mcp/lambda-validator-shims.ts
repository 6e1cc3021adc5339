// esbuild alias target for '@modelcontextprotocol/server/_shims' in Lambda bundles
// (LAMBDA_BUNDLE_ALIASES in infra/constructs/service-function.ts): the SDK's public @cfworker/json-schema
// validator instead of the Node shim's Ajv provider (about 150 KB of the bundle, and slower to import),
// without the workerd shim's import-time preloadSchemas(). Tool arguments are validated by zod anyway.
// Unbundled runs (the local runtime, tests) keep the SDK's own Node shim.

export { default as process } from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
