import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';
import { buildConsole, type FileSize } from '../../scripts/build-console';

/**
 * The web console's download size: what a browser fetches before the first page can render (the
 * entry script, its stylesheet and every chunk they import statically), gzipped at level 9, and the
 * chunks loaded on demand (the graph library among them). Built exactly as `npm run build:console`
 * builds it, into a scratch folder.
 */
export const CONSOLE_FIRST_LOAD_TARGET_BYTES = 60 * 1024;

export interface ConsoleSizeResult {
  firstLoadGzipBytes: number;
  firstLoad: FileSize[];
  lazy: FileSize[];
}

export async function runConsoleSize(): Promise<ConsoleSizeResult> {
  const built = await buildConsole({ outdir: join(PROJECT_ROOT, 'bench', 'results', 'tmp', 'console') });
  return { firstLoadGzipBytes: built.firstLoadGzipBytes, firstLoad: built.firstLoad, lazy: built.lazy };
}
