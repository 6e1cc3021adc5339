import type { Plugin } from 'esbuild';

/**
 * What-if builds for the cold-start analysis: a function bundled with one module stubbed out, to
 * measure what that module costs it. These bundles are never deployed. (The earlier what-ifs, zod
 * with English only and the poll or start without tldts, became no-ops as the bundles lost those
 * bytes: zod is imported as a namespace and as zod/mini, and the Public Suffix List ships beside the
 * bundle.)
 */
const NAMESPACE = 'bench-what-if';

/**
 * The run-tool function as it was before the offline enrichment data: the offline-data module
 * replaced by one that has no data, so the bundle carries no reader (mmdb-lib) and no call reads a
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
