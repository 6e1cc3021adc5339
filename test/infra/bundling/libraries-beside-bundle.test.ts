import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { besideBundleCommands, PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { IP_ADDRESS_LIBRARY_FILE } from '../../../shared/domain/core/ip-address';
import { PUBLIC_SUFFIX_LIST_FILE } from '../../../shared/domain/core/public-suffix';
import { MMDB_READER_PACKAGE } from '../../../shared/platform/offline-data-format';
import { localDataDir } from '../../../shared/platform/offline-intel-build';
import { LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * The Public Suffix List (tldts), ipaddr.js and mmdb-lib ship beside each Lambda bundle instead of
 * inside it (ServiceFunction's afterBundling, shared/domain/core/public-suffix.ts and ip-address.ts,
 * shared/platform/offline-intel.ts). Bundled with esbuild as the construct bundles, the code that
 * uses them must leave the packages out of the bundle and still find them in the files the
 * construct puts beside it.
 */
describe('libraries beside the bundle', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'sis-beside-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('keeps tldts and ipaddr.js out of the bundle and reads them from the shipped files', async () => {
    const result = await build({
      stdin: {
        contents:
          "export { describeEntity, normaliseEntity } from './shared/domain/core/entity-normalisation';",
        resolveDir: PROJECT_ROOT,
        loader: 'ts',
      },
      outfile: join(outDir, 'index.mjs'),
      ...LAMBDA_BUNDLE_OPTIONS,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('shared/domain/core/public-suffix.ts'))).toBe(true);
    expect(inputs.some((path) => path.includes('shared/domain/core/ip-address.ts'))).toBe(true);
    expect(inputs.filter((path) => /node_modules\/(tldts(-core)?|ipaddr\.js)\//.test(path))).toEqual([]);

    for (const command of besideBundleCommands(PROJECT_ROOT, outDir)) execSync(command);
    expect(existsSync(join(outDir, PUBLIC_SUFFIX_LIST_FILE))).toBe(true);
    expect(existsSync(join(outDir, IP_ADDRESS_LIBRARY_FILE))).toBe(true);
    const bundled = await import(pathToFileURL(join(outDir, 'index.mjs')).href);
    expect(bundled.describeEntity({ type: 'domain', value: 'a.b.example.co.uk' })).toMatchObject({
      registrable_domain: 'example.co.uk',
      public_suffix: 'co.uk',
      subdomain: 'a.b',
    });
    expect(() => bundled.normaliseEntity({ type: 'domain', value: 'co.uk' })).toThrow(
      /public suffix, not a registrable domain/,
    );
    // ipaddr.js from the shipped file: RFC 5952 form, IPv4-mapped addresses as IPv4.
    expect(bundled.normaliseEntity({ type: 'ip', value: '2001:DB8:0:0:0:0:0:1' })).toEqual({
      type: 'ip',
      value: '2001:db8::1',
    });
    expect(bundled.normaliseEntity({ type: 'ip', value: '::ffff:198.51.100.7' }).value).toBe('198.51.100.7');
  });

  it('keeps mmdb-lib out of the run-tool reader and opens the country database with the shipped package', async () => {
    const readerDir = join(outDir, 'reader');
    const result = await build({
      stdin: {
        contents: "export { openOfflineIntel } from './shared/platform/offline-intel';",
        resolveDir: PROJECT_ROOT,
        loader: 'ts',
      },
      outfile: join(readerDir, 'index.mjs'),
      ...LAMBDA_BUNDLE_OPTIONS,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('shared/platform/offline-intel.ts'))).toBe(true);
    expect(inputs.filter((path) => path.includes(`node_modules/${MMDB_READER_PACKAGE}/`))).toEqual([]);

    for (const command of besideBundleCommands(PROJECT_ROOT, readerDir)) execSync(command);
    expect(existsSync(join(readerDir, 'node_modules', MMDB_READER_PACKAGE, 'package.json'))).toBe(true);
    const bundled = await import(pathToFileURL(join(readerDir, 'index.mjs')).href);
    const intel = bundled.openOfflineIntel(localDataDir());
    // A public address the country database places (Google's resolver, in the data as published).
    expect(intel.ip('8.8.8.8')).toMatchObject({ country: 'US', asn: 15169 });
  });
});
