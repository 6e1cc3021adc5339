import { createRequire } from 'node:module';
import type * as Tldts from 'tldts';

/**
 * The file the Public Suffix List (tldts) is loaded from on first use, resolved beside the running
 * module. In a Lambda bundle that is the function's folder: ServiceFunction ships tldts's own
 * prebuilt, self-contained build there under this name (infra/constructs/service-function.ts,
 * PUBLIC_SUFFIX_LIST_SOURCE), so the list's ~130 KB trie is not part of the bundle a cold start
 * parses; only a domain or host name ever reads it (an IP or user entity, a poll, a report never
 * do). Unbundled (tests, tsx, the local runtime) it is the one-line file beside this module, which
 * loads the tldts package. The require is made through `createRequire` so esbuild leaves it alone.
 */
export const PUBLIC_SUFFIX_LIST_FILE = 'public-suffix-list.cjs';

let loaded: typeof Tldts | undefined;

function tldts(): typeof Tldts {
  loaded ??= createRequire(import.meta.url)(`./${PUBLIC_SUFFIX_LIST_FILE}`) as typeof Tldts;
  return loaded;
}

export function parseHostname(...args: Parameters<typeof Tldts.parse>): ReturnType<typeof Tldts.parse> {
  return tldts().parse(...args);
}

/**
 * Whether the name is itself a public suffix, ICANN or private section (`com`, `co.uk`, `github.io`,
 * `s3.amazonaws.com`): a name anyone can register or publish under, which nobody speaks for.
 */
export function isPublicSuffix(name: string): boolean {
  const parsed = parseHostname(name, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.publicSuffix === name.toLowerCase().replace(/\.$/, '');
}
