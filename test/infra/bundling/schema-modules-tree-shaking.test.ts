import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { inputsInOutput, LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * A Lambda bundle builds, at cold start, every module-level schema of every module it imports,
 * unless esbuild can drop the ones the function does not use. It can only when a schema is declared
 * as a pure call (`/* @__PURE__ *\/ (() => ...)()`, shared/zod.ts says why). This holds every module
 * of the API schemas and of the domain that uses zod to that: imported for nothing, it leaves no
 * schema code in the bundle.
 */
const SCHEMA_CODE = /node_modules\/zod\/v4\/(mini|core)\/schemas\.js$/;
const ZOD_IMPORT = /from '(\.\.\/)+zod'/;

function modulesUsingZod(folder: string): string[] {
  return readdirSync(join(PROJECT_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file))
    .filter((file) => ZOD_IMPORT.test(readFileSync(join(PROJECT_ROOT, file), 'utf8')));
}

/** zod's schema constructors that stay in a bundle importing `file` and using nothing of it. */
async function schemaCodeWhenUnused(file: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: `import './${file}';`, resolveDir: PROJECT_ROOT, loader: 'ts' },
    ...LAMBDA_BUNDLE_OPTIONS,
    write: false,
    outfile: join(PROJECT_ROOT, 'unused.mjs'),
  });
  const [output] = Object.values(result.metafile.outputs);
  return inputsInOutput(output).filter((path) => SCHEMA_CODE.test(path));
}

describe('module-level schemas are dropped where unused', () => {
  const modules = [...modulesUsingZod('shared/api/schemas'), ...modulesUsingZod('shared/domain')];

  it('finds the schema modules', () => {
    expect(modules.length).toBeGreaterThan(10);
  });

  it.each(modules.map((file) => [file]))(
    '%s builds no schema in a bundle that uses none of it',
    async (file) => {
      expect(await schemaCodeWhenUnused(file)).toEqual([]);
    },
  );
});
