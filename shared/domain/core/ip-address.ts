import { createRequire } from 'node:module';
import type * as IpAddr from 'ipaddr.js';

/**
 * ipaddr.js, loaded on first use like the Public Suffix List (public-suffix.ts). It is a CommonJS
 * package, which esbuild keeps and evaluates in every bundle that imports a module importing it,
 * used or not: the investigation request schema reaches entity normalisation, so every
 * investigation and console function carried it although only the code that parses or classifies
 * an IP address calls it. Loaded through `require` (the bundle's banner provides it; unbundled,
 * Node loads the package), a bundle keeps it only where such code is reachable.
 */
let loaded: typeof IpAddr | undefined;

export function ipaddr(): typeof IpAddr {
  if (!loaded) {
    loaded = (
      typeof require === 'function' ? require('ipaddr.js') : createRequire(import.meta.url)('ipaddr.js')
    ) as typeof IpAddr;
  }
  return loaded;
}
