import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/**
 * `npm run build:console`: bundles the browser console (console/src) with the project's esbuild into
 * content-hashed files in console/dist, plus `manifest.json` mapping logical names (`app.js`,
 * `app.css`, `graph-view.js`) to the hashed file names the shell and asset routes serve. Code is
 * split: the graph library sits in a chunk that only pages drawing a graph import.
 *
 * It runs on `npm install` (prepare), before `npm start` and in the browser tests, so console/dist
 * is never committed; it takes well under a second.
 */
export const CONSOLE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'console');
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');

export interface ConsoleBuild {
  outdir: string;
  manifest: Record<string, string>;
  /** Files the browser fetches before the first page can render: the entry, its CSS, static imports. */
  firstLoad: FileSize[];
  firstLoadGzipBytes: number;
  /** Chunks fetched later, on demand (dynamic imports), with the graph chunk among them. */
  lazy: FileSize[];
}

export interface FileSize {
  file: string;
  /** The package with the most bytes in the file (`console` for the app's own code). */
  holds: string;
  bytes: number;
  gzipBytes: number;
}

/**
 * app.3F2A1B9C.js → app.js; a dynamically imported module → its source name (graph-canvas.js);
 * a shared chunk keeps its hashed name as its own key.
 */
function logicalName(file: string, output: Metafile['outputs'][string]): string {
  if (output.entryPoint) {
    const source = basename(output.entryPoint).replace(/\.[jt]sx?$/, '');
    return `${source === 'main' ? 'app' : source}${file.endsWith('.css') ? '.css' : '.js'}`;
  }
  if (file.endsWith('.css')) return file.replace(/\.[A-Z0-9]{8}\.css$/, '.css');
  return file;
}

/** What a chunk mostly holds, for the size report: the package with the most bytes in it. */
function mainPackage(output: Metafile['outputs'][string]): string {
  const bytes = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'console';
    bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
  }
  return [...bytes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'console';
}

/**
 * Builds into `outdir` without emptying it first: new files get new hashes, the manifest is replaced
 * atomically last, and files of earlier builds are removed only afterwards (`prune`, default on), so
 * a server reading the folder meanwhile always finds a consistent manifest and its files.
 */
export async function buildConsole(
  options: { outdir?: string; prune?: boolean } = {},
): Promise<ConsoleBuild> {
  const outdir = options.outdir ?? CONSOLE_DIST;
  await mkdir(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: CONSOLE_ROOT,
    entryPoints: { app: 'src/main.tsx' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120', 'firefox121', 'safari17'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    assetNames: '[name].[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = result.metafile.outputs;
  const manifest: Record<string, string> = {};
  for (const [path, output] of Object.entries(outputs)) {
    const file = basename(path);
    manifest[logicalName(file, output)] = file;
  }
  const staging = join(outdir, `manifest.json.${process.pid}.tmp`);
  await writeFile(staging, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(staging, join(outdir, 'manifest.json'));
  if (options.prune ?? true) {
    const current = new Set([...Object.values(manifest), 'manifest.json']);
    for (const file of await readdir(outdir)) {
      if (!current.has(file) && !file.endsWith('.tmp')) await rm(join(outdir, file), { force: true });
    }
  }

  const sizeOf = async (path: string): Promise<FileSize> => {
    const content = await readFile(resolve(CONSOLE_ROOT, path));
    return {
      file: basename(path),
      holds: path.endsWith('.css') ? 'styles' : mainPackage(outputs[path]!),
      bytes: content.length,
      gzipBytes: gzipSync(content, { level: 9 }).length,
    };
  };
  const first = firstLoadFiles(result.metafile);
  const firstLoad = await Promise.all(first.map(sizeOf));
  const lazy = await Promise.all(
    Object.keys(outputs)
      .filter((path) => !first.includes(path) && !path.endsWith('.map'))
      .map(sizeOf),
  );
  return {
    outdir,
    manifest,
    firstLoad,
    firstLoadGzipBytes: firstLoad.reduce((sum, f) => sum + f.gzipBytes, 0),
    lazy,
  };
}

/** The entry's JS and CSS and every chunk it imports statically, transitively. */
function firstLoadFiles(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint && path.endsWith('.js'));
  if (!entry) throw new Error('The console build has no entry script');
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(entry);
  const css = outputs[entry]?.cssBundle;
  if (css) seen.add(css);
  return [...seen];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildConsole();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `console: built ${Object.keys(built.manifest).length} files into ${relative(process.cwd(), built.outdir)}; first load ${kb(built.firstLoadGzipBytes)} gzipped (${built.firstLoad.map((f) => `${f.file} (${f.holds}) ${kb(f.gzipBytes)}`).join(', ')}); on demand: ${built.lazy.map((f) => `${f.file} (${f.holds}) ${kb(f.gzipBytes)}`).join(', ')}`,
  );
}
