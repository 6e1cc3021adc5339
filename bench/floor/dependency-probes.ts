/**
 * Cold-start attribution: the floor bundle plus ONE dependency, in the form the service uses it, so
 * each dependency's import cost can be read as "probe − floor" in the same rounds. The `probe`
 * export keeps esbuild from dropping the import.
 */
export interface DependencyProbe {
  name: string;
  source: string;
}

export const DEPENDENCY_PROBES: readonly DependencyProbe[] = [
  {
    name: 'zod',
    source: "import { z } from 'zod';\nexport const probe = z.object({ id: z.string().min(1) });",
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
