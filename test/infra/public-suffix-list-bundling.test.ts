import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, publicSuffixListCommand } from '../../infra/constructs/service-function';
import { LAMBDA_BUNDLE_OPTIONS } from '../support/lambda-bundle';

/**
 * The Public Suffix List ships beside each Lambda bundle instead of inside it (ServiceFunction's
 * afterBundling, shared/domain/core/public-suffix.ts). Bundled with esbuild as the construct bundles,
 * the domain code that reads the list must leave tldts out of the bundle and still find the list
 * in the file the construct puts beside it.
 */
describe('Public Suffix List beside the bundle', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'sis-psl-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('keeps tldts out of the bundle and reads the list from the shipped file', async () => {
    const result = await build({
      stdin: {
        contents:
          "export { describeEntity, normaliseEntity } from './shared/domain/core/entity-normalisation';",
        resolveDir: PROJECT_ROOT,
        loader: 'ts',
      },
      outfile: join(outDir, 'index.mjs'),
      ...LAMBDA_BUNDLE_OPTIONS,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('shared/domain/core/public-suffix.ts'))).toBe(true);
    expect(inputs.filter((path) => /node_modules\/tldts(-core)?\//.test(path))).toEqual([]);

    execSync(publicSuffixListCommand(PROJECT_ROOT, outDir));
    const bundled = await import(pathToFileURL(join(outDir, 'index.mjs')).href);
    expect(bundled.describeEntity({ type: 'domain', value: 'a.b.example.co.uk' })).toMatchObject({
      registrable_domain: 'example.co.uk',
      public_suffix: 'co.uk',
      subdomain: 'a.b',
    });
    expect(() => bundled.normaliseEntity({ type: 'domain', value: 'co.uk' })).toThrow(
      /public suffix, not a registrable domain/,
    );
  });
});
