/**
 * Cold-start attribution: the floor bundle plus ONE dependency, in the form the service uses it, so
 * each dependency's import cost can be read as "probe − floor" in the same rounds. The `probe`
 * export keeps esbuild from dropping the import.
 */
export interface DependencyProbe {
  name: string;
  source: string;
  /** esbuild aliases instead of the construct's (LAMBDA_BUNDLE_ALIASES), for a probe of what they save. */
  aliases?: Readonly<Record<string, string>>;
  /** Packages replaced by an empty stand-in (besides the construct's aliases), for a probe without them. */
  standIns?: Readonly<Record<string, string>>;
  /** Built in quick runs too (the others only in full runs): the probes a target's closing note cites. */
  quick?: boolean;
}

const HTTP_SHELL = [
  "import { httpHandler } from '../../shared/api/http-handler';",
  "import { health } from '../../shared/api/routes/meta';",
  "import { config } from '../../shared/config';",
  "import { documentClientFor } from '../../shared/store/dynamo-client';",
  // As a handler module: the wrapper is built at import, the configuration and the client on the first call.
  'export const probe = [httpHandler(health, async () => ({ statusCode: 200 })), () => documentClientFor(config())];',
].join('\n');

// The MCP SDK as functions/mcp uses it: the low-level Server, the stateless transport (2025 era) and
// createMcpHandler (2026-07-28 era); the construct's aliases swap its Ajv validator out.
const MCP_SDK = [
  "import { createMcpHandler, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';",
  'export const mcpProbe = [Server, WebStandardStreamableHTTPServerTransport, createMcpHandler];',
].join('\n');

export const DEPENDENCY_PROBES: readonly DependencyProbe[] = [
  {
    // The floor as it was until Lambda bundles took their credentials from the environment alone
    // (LAMBDA_BUNDLE_ALIASES, infra/constructs/service-function.ts): the same handler bundled with the
    // SDK's whole default credential chain (SSO, INI, process, web identity, IMDS, the STS/SSO
    // clients), so the report keeps the absolute change next to the smaller floor.
    name: 'sdk-default-credential-chain',
    source: '',
    aliases: {},
  },
  {
    name: 'zod-classic',
    source: "import * as z from 'zod';\nexport const probe = z.object({ id: z.string().min(1) });",
  },
  {
    name: 'zod-mini',
    source:
      "import * as z from 'zod/mini';\nexport const probe = z.object({ id: z.string().check(z.minLength(1)) });",
  },
  {
    // What every HTTP function that reads DynamoDB carries before its own work: the handler wrapper
    // (middy, error mapping, Powertools logger and metrics), the configuration (zod/mini) and the
    // document client. The bundle-size target's headroom above the floor is measured against it.
    name: 'http-shell',
    source: HTTP_SHELL,
  },
  {
    // The same shell with Powertools' logger and metrics replaced by empty classes: their share of
    // what every HTTP function carries (docs/performance.md, "What the shell is made of").
    name: 'http-shell-without-powertools',
    source: HTTP_SHELL,
    standIns: {
      '@aws-lambda-powertools/logger': './bench/floor/stand-ins/powertools-logger.ts',
      '@aws-lambda-powertools/metrics': './bench/floor/stand-ins/powertools-metrics.ts',
    },
  },
  {
    // What the MCP SDK costs by itself (issue 37's cold-import target: docs/mcp.md, "Cold start").
    name: 'mcp-sdk',
    source: MCP_SDK,
    quick: true,
  },
  {
    // The SDK plus the shell every HTTP function carries: the floor of the MCP function before any tool.
    name: 'mcp-sdk-http-shell',
    source: `${MCP_SDK}\n${HTTP_SHELL}`,
    quick: true,
  },
  {
    name: 'tldts',
    source: "import { parse } from 'tldts';\nexport const probe = parse;",
  },
  {
    name: 'lib-dynamodb',
    source:
      "import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const probe = DynamoDBDocumentClient;",
  },
  {
    name: 'client-sfn',
    source: "import { SFNClient } from '@aws-sdk/client-sfn';\nexport const probe = SFNClient;",
  },
  {
    name: 'powertools-logger-metrics',
    source:
      "import { Logger } from '@aws-lambda-powertools/logger';\nimport { Metrics } from '@aws-lambda-powertools/metrics';\nexport const probe = [new Logger(), new Metrics({ namespace: 'probe' })];",
  },
  {
    name: 'powertools-tracer',
    source: "import { Tracer } from '@aws-lambda-powertools/tracer';\nexport const probe = new Tracer();",
  },
  {
    name: 'middy',
    source:
      "import middy from '@middy/core';\nimport httpHeaderNormalizer from '@middy/http-header-normalizer';\nimport httpSecurityHeaders from '@middy/http-security-headers';\nexport const probe = middy().use(httpHeaderNormalizer()).use(httpSecurityHeaders());",
  },
  {
    name: 'yaml',
    source: "import { stringify } from 'yaml';\nexport const probe = stringify;",
  },
  {
    name: 'zod-to-openapi',
    source:
      "import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';\nexport const probe = new OpenAPIRegistry();",
  },
];
