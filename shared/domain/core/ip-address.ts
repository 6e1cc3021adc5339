import { createRequire } from 'node:module';
import type * as IpAddr from 'ipaddr.js';

/**
 * The file ipaddr.js is loaded from on first use, resolved beside the running module, as the Public
 * Suffix List is (public-suffix.ts). In a Lambda bundle that is the function's folder:
 * ServiceFunction ships the package's own self-contained file there under this name
 * (infra/constructs/service-function.ts, IP_ADDRESS_LIBRARY_SOURCE), so its code (12.5 KB minified)
 * is not part of the bundle a cold start parses; only code that parses or classifies an IP address
 * reads it. Unbundled (tests, tsx, the local runtime) it is the one-line file beside this module,
 * which loads the package. The require is made through `createRequire` so esbuild leaves it alone.
 */
export const IP_ADDRESS_LIBRARY_FILE = 'ipaddr.cjs';

let loaded: typeof IpAddr | undefined;

export function ipaddr(): typeof IpAddr {
  loaded ??= createRequire(import.meta.url)(`./${IP_ADDRESS_LIBRARY_FILE}`) as typeof IpAddr;
  return loaded;
}
