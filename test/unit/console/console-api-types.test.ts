import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import {
  CreateApiKeyRequestDefaults,
  StartInvestigationRequestDefaults,
} from '../../../console/src/generated/api';
import { CONSOLE_API_TYPES_PATH, consoleApiTypesSource } from '../../../scripts/console-api-types';
import { buildConsoleOpenApiDocument } from '../../../shared/api/openapi';
import { ROUTES } from '../../../shared/api/routes';
import { isConsoleRoute } from '../../../shared/api/routes/console-twin';
import { DEFAULT_TLP } from '../../../shared/domain/core/tlp';
import { KEY_EXPIRY_DAYS } from '../../../shared/domain/keys/key-lifecycle';

describe('console/src/generated/api.ts', () => {
  it('matches the console routes of the route table (run `npm run console:api-types` after changing them)', async () => {
    expect(readFileSync(CONSOLE_API_TYPES_PATH, 'utf8')).toBe(await consoleApiTypesSource());
    // openapi-typescript over the document takes seconds on the loaded shared machine
  }, 30_000);

  it('carries the defaults the service applies, from their one declaration', () => {
    expect(CreateApiKeyRequestDefaults.expires_in_days).toBe(KEY_EXPIRY_DAYS.default);
    expect(StartInvestigationRequestDefaults.tlp).toBe(DEFAULT_TLP);
  });
});

describe("the console's OpenAPI document", () => {
  const document = buildConsoleOpenApiDocument(ROUTES, { serverUrl: 'http://127.0.0.1' });
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId: string }>).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operationId: operation.operationId,
    })),
  );

  it('is a valid OpenAPI 3.0.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('has every console route that answers JSON and nothing else (no page shell, asset or API route)', () => {
    const json = ROUTES.filter(
      (route) => isConsoleRoute(route) && Object.values(route.responses).some((response) => response.schema),
    );
    expect(json.map((route) => route.operationId)).toContain('getConsoleIncident');
    expect(operations.map((o) => o.operationId).sort()).toEqual(json.map((r) => r.operationId).sort());
    for (const route of json) {
      expect(operations, route.operationId).toContainEqual({
        path: route.path,
        method: route.method,
        operationId: route.operationId,
      });
    }
    expect(operations.map((o) => o.operationId)).not.toContain('getConsolePage');
    expect(operations.map((o) => o.operationId)).not.toContain('getConsoleAsset');
  });

  it('names the console sign-in, not an API key, as what the data routes need', () => {
    const me = (document.paths['/api/v1/console/me'] as Record<string, { security?: unknown }>).get;
    expect(me?.security).toEqual([{ ConsoleSignIn: [] }]);
    expect(Object.keys(document.components?.securitySchemes ?? {})).toEqual(['ConsoleSignIn']);
  });
});
