import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionEntry, PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { inputsInOutput, LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * What the feeds' functions carry and what their import evaluates (issue #29: cold import of every
 * HTTP function ≤ 1.5× the floor, every bundle ≤ 400 KB). The admin list reads state items and the
 * configuration only. The refresh functions carry the downloader, the parsers and the compiler, but
 * reach them only through the dynamic import in shared/services/feeds/feeds.ts, so esbuild wraps
 * them and a cold start does not evaluate them until a refresh runs. No feed function carries the
 * S3 client: the sets are read and written with signed requests (shared/platform/feeds/s3-objects.ts).
 */
const REFRESH_CODE =
  /^(shared\/(services\/feeds\/feed-refresh|domain\/feeds\/parsers|platform\/feeds\/feed-download)\.ts|node_modules\/fflate\/)/;
const OBJECT_STORE = /^shared\/(platform\/feeds\/s3-objects|services\/feeds\/feed-store)\.ts$/;
const SECRETS_CLIENT = /^node_modules\/@aws-sdk\/client-secrets-manager\//;
const S3_CLIENT = /^node_modules\/@aws-sdk\/(client-s3|middleware-sdk-s3)\//;

const FUNCTIONS = ['list-feeds', 'refresh-feeds', 'scheduled-feeds-refresh'] as const;

async function bundle(): Promise<{ metafile: Metafile; inputs: Record<string, string[]> }> {
  const result = await build({
    entryPoints: Object.fromEntries(FUNCTIONS.map((name) => [name, functionEntry(name)])),
    outdir: join(PROJECT_ROOT, '.cache', 'feed-bundles'),
    write: false,
    ...LAMBDA_BUNDLE_OPTIONS,
  });
  const outputs = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
  const inputs = Object.fromEntries(
    outputs.map((output) => [output.entryPoint!.split('/').at(-2)!, inputsInOutput(output)]),
  );
  return { metafile: result.metafile, inputs };
}

/** Inputs the entry reaches through static imports alone: what importing the bundle evaluates. */
function staticallyReached(metafile: Metafile, entry: string): Set<string> {
  const reached = new Set<string>([entry]);
  const queue = [entry];
  for (let path = queue.shift(); path; path = queue.shift()) {
    for (const edge of metafile.inputs[path]?.imports ?? []) {
      if (edge.kind !== 'import-statement' || edge.external || reached.has(edge.path)) continue;
      reached.add(edge.path);
      queue.push(edge.path);
    }
  }
  return reached;
}

describe('what the feeds functions carry', () => {
  it('the list carries neither the refresh, the object store, the secrets client nor the S3 client', async () => {
    const { inputs } = await bundle();
    expect(Object.keys(inputs).sort()).toEqual([...FUNCTIONS].sort());
    const carried = (inputs['list-feeds'] ?? []).filter((path) =>
      [REFRESH_CODE, OBJECT_STORE, SECRETS_CLIENT, S3_CLIENT].some((pattern) => pattern.test(path)),
    );
    expect(carried).toEqual([]);
    expect(inputs['list-feeds']).toContain('shared/services/feeds/feed-listing.ts');
  }, 120_000);

  it('the refresh functions carry the refresh but evaluate it only when a refresh runs', async () => {
    const { metafile, inputs } = await bundle();
    for (const name of ['refresh-feeds', 'scheduled-feeds-refresh']) {
      const carried = inputs[name] ?? [];
      expect(carried.filter((path) => REFRESH_CODE.test(path)).length, name).toBeGreaterThanOrEqual(4);
      expect(
        carried.some((path) => OBJECT_STORE.test(path)),
        name,
      ).toBe(true);
      expect(
        carried.filter((path) => S3_CLIENT.test(path)),
        name,
      ).toEqual([]);
      const atImport = staticallyReached(metafile, `functions/${name}/handler.ts`);
      expect(
        [...atImport].filter((path) => REFRESH_CODE.test(path)),
        name,
      ).toEqual([]);
    }
  }, 120_000);
});
