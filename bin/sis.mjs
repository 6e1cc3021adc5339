#!/usr/bin/env node
// Entry point of the `sis` bin (package.json). The CLI is TypeScript (bin/sis.ts); tsx's ESM loader,
// resolved from this package's own node_modules, compiles it in-process on the fly.
import { register } from 'tsx/esm/api';

register();
await import('./sis.ts');
