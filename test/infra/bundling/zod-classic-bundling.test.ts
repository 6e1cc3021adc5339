import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionEntry, PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { inputsInOutput, LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * No Lambda function loads zod classic (issue #17): building its schemas costs more import CPU at
 * each cold start than the whole budget above the floor, so every schema a function loads is zod/mini
 * (shared/zod.ts) and only the OpenAPI generator (shared/api/openapi.ts, scripts and tests) imports
 * classic. Every function is bundled as the construct bundles it and its inputs are read from the
 * metafile.
 */
const CLASSIC = /node_modules\/zod\/(v4\/classic\/|index\.js$|v4\/index\.js$)/;

/**
 * The functions allowed to carry zod classic, each with the reason. The list must be exact: an entry
 * that stops carrying it is an error too, so it is removed when the cause goes.
 *
 * - mcp: the MCP SDK itself (@modelcontextprotocol/core and /server) builds its JSON-RPC protocol
 *   schemas with `zod/v4` (classic) and calls classic methods on them, so no esbuild alias to zod/mini
 *   can stand in. Measured: 16,826 bytes of zod/v4/classic in a 764,853-byte bundle (2026-12-02).
 */
const CARRIES_CLASSIC: Readonly<Record<string, string>> = {
  mcp: 'the MCP SDK builds its protocol schemas with zod classic',
};

async function bundledInputs(entryPoints: Record<string, string>): Promise<Record<string, string[]>> {
  const result = await build({
    entryPoints,
    outdir: join(PROJECT_ROOT, '.cache', 'zod-classic-bundling'),
    write: false,
    ...LAMBDA_BUNDLE_OPTIONS,
  });
  const outputs = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
  return Object.fromEntries(outputs.map((output) => [output.entryPoint!, inputsInOutput(output)]));
}

describe('zod classic in the Lambda bundles', () => {
  it('is in no function bundle but the documented exceptions', async () => {
    const names = readdirSync(join(PROJECT_ROOT, 'functions'));
    const inputs = await bundledInputs(Object.fromEntries(names.map((name) => [name, functionEntry(name)])));
    expect(Object.keys(inputs)).toHaveLength(names.length);
    const carrying = Object.entries(inputs)
      .filter(([, paths]) => paths.some((path) => CLASSIC.test(path)))
      .map(([entry]) => entry);
    expect(carrying.sort()).toEqual(
      Object.keys(CARRIES_CLASSIC)
        .sort()
        .map((name) => `functions/${name}/handler.ts`),
    );
  }, 120_000);

  it('is found where it is imported (the OpenAPI generator)', async () => {
    const inputs = await bundledInputs({ openapi: join(PROJECT_ROOT, 'shared', 'api', 'openapi.ts') });
    expect(Object.values(inputs)[0]!.some((path) => CLASSIC.test(path))).toBe(true);
  });
});
