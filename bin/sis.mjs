#!/usr/bin/env node
// Entry point of the `sis` bin (package.json). It runs the compiled CLI (bin/dist, built by
// `npm run build:sis` on npm install) while no source file it was built from has changed since; in an
// edited checkout it compiles bin/sis.ts on the fly with tsx instead, so it never runs stale code.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

function compiledIsCurrent() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(join(repo, 'bin', 'dist', 'inputs.json'), 'utf8'));
    return inputs.length > 0 && inputs.every((input) => statSync(join(repo, input)).mtimeMs < builtAt);
  } catch {
    return false;
  }
}

if (process.env.SIS_CLI_FROM_SOURCE !== '1' && compiledIsCurrent()) {
  await import('./dist/sis.mjs');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./sis.ts');
}
