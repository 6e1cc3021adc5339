import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';

/**
 * What-if builds for the cold-start analysis: the same function bundled with one dependency stubbed
 * out, to measure what removing it from the import path would save. These bundles are never
 * deployed; a stub answers any call with an error (coverage shows the measured request never makes
 * one).
 */
export interface WhatIf {
  id: string;
  description: string;
  plugins: Plugin[];
}

const NAMESPACE = 'bench-what-if';

/** zod's namespace re-exports every locale; keep only English, the one zod configures. */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`)
        ? { path: 'zod-locales', namespace: NAMESPACE }
        : undefined,
    );
    build.onLoad({ filter: /^zod-locales$/, namespace: NAMESPACE }, () => ({
      contents: `export { default as en } from ${JSON.stringify(join(PROJECT_ROOT, 'node_modules', 'zod', 'v4', 'locales', 'en.js'))};`,
      loader: 'js',
      resolveDir: PROJECT_ROOT,
    }));
  },
};

/** tldts (public-suffix parsing for domain entities) replaced by a stub. */
const withoutTldts: Plugin = {
  name: 'without-tldts',
  setup(build) {
    build.onResolve({ filter: /^tldts$/ }, () => ({ path: 'tldts', namespace: NAMESPACE }));
    build.onLoad({ filter: /^tldts$/, namespace: NAMESPACE }, () => ({
      contents: "export function parse() { throw new Error('tldts is stubbed out in this what-if build'); }",
      loader: 'js',
    }));
  },
};

export const WHAT_IFS: readonly WhatIf[] = [
  { id: 'zod-en-only', description: 'zod with the English locale only', plugins: [zodEnglishOnly] },
  { id: 'no-tldts', description: 'without tldts', plugins: [withoutTldts] },
  { id: 'both', description: 'both: English-only zod and no tldts', plugins: [zodEnglishOnly, withoutTldts] },
];

/**
 * The run-tool function as it was before the offline enrichment data: the offline-data module
 * replaced by one that has no data, so the bundle carries no reader (maxmind) and no call reads a
 * file. The handler then runs its tools without offline data, as it did before.
 */
export const withoutOfflineReader: Plugin = {
  name: 'without-offline-reader',
  setup(build) {
    build.onResolve({ filter: /\/platform\/offline-intel$/ }, () => ({
      path: 'offline-intel',
      namespace: NAMESPACE,
    }));
    build.onLoad({ filter: /^offline-intel$/, namespace: NAMESPACE }, () => ({
      contents: 'export function offlineIntel() { return undefined; }',
      loader: 'js',
    }));
  },
};
