import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * A minified Lambda bundle keeps zod's English messages: shared/zod.ts sets the locale with a call
 * whose result nobody reads, which esbuild drops as soon as a comment naming its pure annotation
 * precedes it (it did: every bundled 400 and configuration error said "Invalid input" where the
 * unbundled tests read "Too small: expected number to be >=1"). The configuration is bundled as a
 * function bundles it and run.
 */
describe('zod messages in a Lambda bundle', () => {
  it('are the English ones the unbundled code gives, in the configuration errors', async () => {
    const dir = join(PROJECT_ROOT, '.cache', 'zod-messages-bundling');
    const result = await build({
      stdin: {
        contents: `import { parseConfig } from './shared/config';
export function messageFor(env) {
  try { parseConfig(env); } catch (error) { return error.message; }
  return 'accepted';
}`,
        resolveDir: PROJECT_ROOT,
        loader: 'ts',
      },
      write: false,
      outfile: join(dir, 'index.mjs'),
      ...LAMBDA_BUNDLE_OPTIONS,
    });
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'index.mjs');
    writeFileSync(file, result.outputFiles[0]!.contents);
    const { messageFor } = (await import(`${pathToFileURL(file).href}?${Date.now()}`)) as {
      messageFor: (env: Record<string, string>) => string;
    };
    expect(messageFor({ SIS_SYNC_WAIT_SECONDS: '0', SIS_DEMO_DATA: 'yes' })).toBe(
      'Invalid configuration: SIS_SYNC_WAIT_SECONDS: Too small: expected number to be >=1; ' +
        'SIS_DEMO_DATA: Invalid option: expected one of "0"|"1"|"true"|"false"',
    );
  }, 60_000);
});
