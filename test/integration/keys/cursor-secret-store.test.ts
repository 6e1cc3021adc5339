import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { CURSOR_SECRET_MIN_LENGTH, cursorCodec } from '../../../shared/domain/core/cursor';
import { InvalidCursorError } from '../../../shared/domain/core/errors';
import { apiKeyServiceFromConfig } from '../../../shared/services/auth/api-keys';
import { loadOrCreateCursorSecrets, rotateCursorSecrets } from '../../../shared/services/auth/cursor-secrets';
import {
  CURSOR_SECRET_PK,
  type CursorSecretRepository,
  cursorSecretRepositoryFromConfig,
} from '../../../shared/store/cursor-secret-repository';
import * as z from '../../../shared/zod';
import { createIsolatedTables, type IsolatedTables } from '../../support/dynamodb';

/**
 * The cursor secret lives in the keys table and is created by the first function that pages. Cold
 * starts race for it (a deployment's first requests arrive together): every loader must end with the
 * same secret, or cursors issued by one function would be refused by another.
 */
let tables: IsolatedTables;
let repository: CursorSecretRepository;
const position = z.object({ seq: z.number() });
/** Each loader its own client, as separate Lambda containers would have. */
const freshRepository = () => cursorSecretRepositoryFromConfig(parseConfig(tables.env));

beforeEach(async () => {
  tables = await createIsolatedTables();
  repository = freshRepository();
});
afterEach(() => tables.client.destroy());

describe('cursor secret in the keys table', () => {
  it('is created once: concurrent first loads agree on one secret', async () => {
    expect(await repository.get()).toBeUndefined();
    const loads = await Promise.all(
      Array.from({ length: 8 }, () => loadOrCreateCursorSecrets(freshRepository())),
    );
    const stored = await repository.get();
    expect(stored?.current.length).toBeGreaterThanOrEqual(CURSOR_SECRET_MIN_LENGTH);
    for (const loaded of loads) expect(loaded).toEqual({ current: stored?.current });
    // A later cold start reads the same one.
    expect(await loadOrCreateCursorSecrets(freshRepository())).toEqual({ current: stored?.current });
  });

  it('a loader that lost the creation race reads the winner back instead of using its own', async () => {
    const winner = { current: 'w'.repeat(43) };
    let gets = 0;
    const racing = {
      get: async () => (gets++ === 0 ? undefined : repository.get()),
      createIfAbsent: async (secrets: { current: string }, at: string) => {
        // Another process creates it between this loader's read and its put.
        expect(await repository.createIfAbsent(winner, at)).toBe(true);
        return repository.createIfAbsent(secrets, at);
      },
    } as unknown as CursorSecretRepository;
    expect(await loadOrCreateCursorSecrets(racing)).toEqual(winner);
    expect(await repository.get()).toEqual(winner);
  });

  it('rotation moves current to previous: cursors issued before stay valid, new ones use the new secret', async () => {
    const before = await loadOrCreateCursorSecrets(repository);
    const binding = { keyId: 'k1' };
    const old = cursorCodec(before).encode({ seq: 3 }, binding);

    expect(await rotateCursorSecrets(repository)).toEqual({ previousKept: true, existed: true });
    const after = await loadOrCreateCursorSecrets(freshRepository());
    expect(after.previous).toBe(before.current);
    expect(after.current).not.toBe(before.current);
    expect(cursorCodec(after).decode(old, binding, position)).toEqual({ seq: 3 });
    // A cursor of the new secret is not accepted by a function still holding only the old one.
    const fresh = cursorCodec(after).encode({ seq: 4 }, binding);
    expect(() => cursorCodec(before).decode(fresh, binding, position)).toThrow(InvalidCursorError);

    // The next rotation drops the older secret; --discard-previous drops the current one at once.
    await rotateCursorSecrets(repository);
    const twiceRotated = await loadOrCreateCursorSecrets(freshRepository());
    expect(twiceRotated.previous).not.toBe(before.current);
    expect(() => cursorCodec(twiceRotated).decode(old, binding, position)).toThrow(InvalidCursorError);
    expect(await rotateCursorSecrets(repository, { discardPrevious: true })).toEqual({
      previousKept: false,
      existed: true,
    });
    expect((await repository.get())?.previous).toBeUndefined();
  });

  it('a rotation racing another one retries on its result instead of overwriting it', async () => {
    await loadOrCreateCursorSecrets(repository);
    const [a, b] = await Promise.all([
      rotateCursorSecrets(freshRepository()),
      rotateCursorSecrets(freshRepository()),
    ]);
    expect(a.previousKept && b.previousKept).toBe(true);
    // Whichever ran second kept the first one's current as its previous: nothing was lost.
    const stored = await repository.get();
    expect(stored?.previous).toEqual(expect.any(String));
    expect(stored?.previous).not.toBe(stored?.current);
  });

  it('is invisible to key listings and the audit log', async () => {
    await loadOrCreateCursorSecrets(repository);
    const keys = apiKeyServiceFromConfig(parseConfig(tables.env));
    expect(await keys.list()).toEqual([]);
    expect(await keys.hasUsableAdmin()).toBe(false);
    expect(CURSOR_SECRET_PK).not.toMatch(/^(KEY#|AUDIT)/);
  });
});
