import type { BuildOptions, Metafile } from 'esbuild';
import {
  ESM_REQUIRE_BANNER,
  LAMBDA_BUNDLE_ALIASES,
  PROJECT_ROOT,
} from '../../infra/constructs/service-function';

/**
 * esbuild as ServiceFunction bundles a Lambda function (ESM for Node 24, minified, AWS SDK included,
 * nothing external, the createRequire banner, the construct's aliases resolved from the project root,
 * where CDK runs esbuild), for the tests that check what a bundle carries and for the bench
 * (bench/scenarios/bundles.ts), which checks them against the construct's source.
 */
export const LAMBDA_BUNDLE_OPTIONS = {
  absWorkingDir: PROJECT_ROOT,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_BANNER },
  alias: { ...LAMBDA_BUNDLE_ALIASES },
  minify: true,
  metafile: true,
  logLevel: 'error',
} as const satisfies BuildOptions;

/** The input files that put code into a bundle (esbuild lists dropped inputs with 0 bytes). */
export function inputsInOutput(output: Metafile['outputs'][string] | undefined): string[] {
  return Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
}
