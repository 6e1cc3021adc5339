// Bundles the CLI into one file with no runtime dependencies (dist/sis.mjs), so the packed tarball
// installs and runs on Node 20+ without the project or a registry.
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const outfile = join(root, 'dist', 'sis.mjs');
await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // commander is CommonJS; its require() of node built-ins needs a real require inside an ES module.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __sisCreateRequire } from 'node:module';\nconst require = __sisCreateRequire(import.meta.url);",
  },
  legalComments: 'inline',
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
