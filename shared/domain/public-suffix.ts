import { createRequire } from 'node:module';
import type * as Tldts from 'tldts';

/**
 * The Public Suffix List (tldts), loaded on first use. Its trie is ~120 KB of object literals that
 * cost every function ~15 ms of CPU at import, although only domain and host names ever need it
 * (an IP or user entity, a poll, a report never do). Callers stay synchronous: in a Lambda bundle
 * esbuild turns `require('tldts')` into a module it keeps in the bundle but evaluates only on that
 * first call (the bundle's banner provides `require`); unbundled (tests, tsx) Node loads the package.
 */
let loaded: typeof Tldts | undefined;

function tldts(): typeof Tldts {
  if (!loaded) {
    loaded = (
      typeof require === 'function' ? require('tldts') : createRequire(import.meta.url)('tldts')
    ) as typeof Tldts;
  }
  return loaded;
}

export function parseHostname(...args: Parameters<typeof Tldts.parse>): ReturnType<typeof Tldts.parse> {
  return tldts().parse(...args);
}
