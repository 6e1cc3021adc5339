import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the console's files are: in the repository locally (`console/dist/` built by
 * `npm run build:console`, the shell template under `shared/api/templates/`), and next to the bundle
 * on Lambda, where the stack's bundling hook copies them (`console-dist/`, `console-shell.html`).
 */
export interface ConsoleFileLayout {
  distDir: string;
  shellTemplate: string;
}

/** Folder and file names inside a Lambda bundle; the stack's bundling hook writes exactly these. */
export const BUNDLED_DIST_DIR = 'console-dist';
export const BUNDLED_SHELL_TEMPLATE = 'console-shell.html';

export function consoleFileLayout(env: NodeJS.ProcessEnv = process.env): ConsoleFileLayout {
  const taskRoot = env.LAMBDA_TASK_ROOT;
  if (taskRoot) {
    return {
      distDir: join(taskRoot, BUNDLED_DIST_DIR),
      shellTemplate: join(taskRoot, BUNDLED_SHELL_TEMPLATE),
    };
  }
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  return {
    distDir: join(root, 'console', 'dist'),
    shellTemplate: join(root, 'shared', 'api', 'templates', 'console-shell.html'),
  };
}

/** Logical name (`app.js`) → content-hashed file name (`app.3F2A1B.js`); empty when not built. */
export type ConsoleManifest = Record<string, string>;

export async function readConsoleManifest(layout: ConsoleFileLayout): Promise<ConsoleManifest> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(layout.distDir, 'manifest.json'), 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] =>
          typeof entry[1] === 'string' && /^[A-Za-z0-9_.-]+$/.test(entry[1]),
      ),
    );
  } catch {
    return {};
  }
}

export async function readShellTemplate(layout: ConsoleFileLayout): Promise<string> {
  return readFile(layout.shellTemplate, 'utf8');
}

/** A file of the built console that the manifest names; undefined for anything else. */
export async function readConsoleAsset(
  layout: ConsoleFileLayout,
  manifest: ConsoleManifest,
  file: string,
): Promise<Buffer | undefined> {
  if (!Object.values(manifest).includes(file)) return undefined;
  try {
    return await readFile(join(layout.distDir, file));
  } catch {
    return undefined;
  }
}
