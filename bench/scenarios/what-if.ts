import type { Plugin } from 'esbuild';

/**
 * What-if builds for the cold-start analysis: the same function bundled with one dependency stubbed
 * out, to measure what removing it from the import path would save. These bundles are never
 * deployed; a stub answers any call with an error (coverage shows the measured request never makes
 * one).
 */
export interface WhatIf {
  id: string;
  description: string;
  /** The function built with the stub. */
  base: string;
  plugins: Plugin[];
}

const NAMESPACE = 'bench-what-if';

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

/**
 * The public suffix list is start-investigation's own data (a domain entity is refused when it is a
 * public suffix), so that bundle is allowed past the size target; this shows what the data costs it.
 */
export const WHAT_IFS: readonly WhatIf[] = [
  {
    id: 'no-tldts',
    description: 'without tldts (the public suffix list its domain checks read)',
    base: 'start-investigation',
    plugins: [withoutTldts],
  },
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
