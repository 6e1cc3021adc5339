import { randomBytes } from 'node:crypto';
import { type Config, config } from '../../config';
import {
  assertCursorSecrets,
  type CursorCodec,
  CursorSecretError,
  type CursorSecrets,
  cursorCodec,
} from '../../domain/core/cursor';
import {
  type CursorSecretRepository,
  cursorSecretRepositoryFromConfig,
} from '../../store/cursor-secret-repository';

/**
 * The deployment's cursor secrets, loaded lazily, once per cold start, and only by the functions that
 * issue or verify cursors (search, incidents, graph, poll, the console's listings):
 * - SIS_CURSOR_SECRET (and SIS_CURSOR_SECRET_PREVIOUS) when the operator sets them (local runtime);
 * - otherwise the item of the keys table (shared/store/cursor-secret-repository.ts), on AWS and
 *   locally alike. The first function that finds none creates it (a conditional put, so two cold
 *   starts racing agree on the one that won, read back strongly consistent); the functions that page
 *   may read and create that one item and nothing else of the table.
 * Rotation (`sis admin rotate-cursor-secret`, docs/api-keys.md#cursor-secret) moves current to
 * previous. A failed load fails the call (5xx), never serves unsigned cursors.
 */

/** Bytes of a generated secret (base64url: 43 characters, above CURSOR_SECRET_MIN_LENGTH). */
const SECRET_BYTES = 32;

export function newCursorSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

function valid(stored: { current: string; previous?: string }): CursorSecrets {
  if (!stored.current) throw new CursorSecretError('The stored cursor secret has no current value.');
  return assertCursorSecrets(stored);
}

/** Reads the item, creating it when absent; every racing caller ends with the same secrets. */
export async function loadOrCreateCursorSecrets(
  repository: CursorSecretRepository,
  now: () => Date = () => new Date(),
): Promise<CursorSecrets> {
  const stored = await repository.get();
  if (stored) return valid(stored);
  const fresh = { current: newCursorSecret() };
  if (await repository.createIfAbsent(fresh, now().toISOString())) return fresh;
  const winner = await repository.get();
  if (!winner) throw new CursorSecretError('The cursor secret was created but cannot be read back.');
  return valid(winner);
}

export interface CursorRotation {
  /** Whether the old current secret is kept as previous (cursors in flight stay valid). */
  previousKept: boolean;
  /** Whether there was a secret to rotate (false: the first one was just created). */
  existed: boolean;
}

/**
 * A new current secret; the old current becomes previous unless `discardPrevious` (a leaked secret:
 * every cursor in flight becomes invalid). A concurrent rotation makes this one retry on its result.
 */
export async function rotateCursorSecrets(
  repository: CursorSecretRepository,
  options: { discardPrevious?: boolean } = {},
  now: () => Date = () => new Date(),
): Promise<CursorRotation> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const stored = await repository.get();
    const next = {
      current: newCursorSecret(),
      ...(stored?.current && !options.discardPrevious ? { previous: stored.current } : {}),
    };
    if (await repository.replace(stored?.current, next, now().toISOString())) {
      return { previousKept: next.previous !== undefined, existed: stored !== undefined };
    }
  }
  throw new CursorSecretError('The cursor secret kept changing during the rotation; try again.');
}

async function loadSecrets(cfg: Config): Promise<CursorSecrets> {
  if (cfg.SIS_CURSOR_SECRET) {
    return assertCursorSecrets({
      current: cfg.SIS_CURSOR_SECRET,
      ...(cfg.SIS_CURSOR_SECRET_PREVIOUS ? { previous: cfg.SIS_CURSOR_SECRET_PREVIOUS } : {}),
    });
  }
  return loadOrCreateCursorSecrets(cursorSecretRepositoryFromConfig(cfg));
}

let cached: { cfg: Config; codec: Promise<CursorCodec> } | undefined;

/** The codec of this deployment; a failed load is not cached, so the next request tries again. */
export function deploymentCursorCodec(): Promise<CursorCodec> {
  const cfg = config();
  if (cached?.cfg !== cfg) {
    const codec = loadSecrets(cfg).then(cursorCodec);
    cached = { cfg, codec };
    codec.catch(() => {
      if (cached?.codec === codec) cached = undefined;
    });
  }
  return cached.codec;
}
