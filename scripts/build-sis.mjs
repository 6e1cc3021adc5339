// `npm run build:sis`: compiles the project's `sis` (bin/sis.ts and what it imports from packages/cli
// and shared/) into bin/dist/ with the project's esbuild, so `npx sis` runs JavaScript instead of
// compiling TypeScript through tsx on every call. Packages stay in node_modules (external); the admin
// commands are a chunk of their own, loaded only when one runs. bin/dist/inputs.json lists the source
// files: bin/sis.mjs runs the compiled entry only while none of them is newer, else it falls back to
// tsx, so an edited checkout never runs stale code. Runs on `npm install` (prepare); well under a second.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(repo, 'bin', 'dist');
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const started = Date.now();
const result = await build({
  entryPoints: { sis: join(repo, 'bin', 'sis.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs)
  .map((input) => relative(repo, resolve(process.cwd(), input)))
  .filter((input) => !input.startsWith('node_modules'))
  .sort();
await writeFile(join(outdir, 'inputs.json'), `${JSON.stringify({ builtAt: started, inputs }, null, 1)}\n`);
