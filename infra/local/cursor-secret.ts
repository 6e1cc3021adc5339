import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURSOR_SECRET_MIN_LENGTH } from '../../shared/domain/cursor';

export const CURSOR_SECRET_FILE = 'cursor-secret';

/**
 * The local runtime's cursor secret: generated once and kept in the data directory (readable by the
 * owner only), so cursors handed out before a restart still page afterwards, as on AWS where the
 * stack's Secrets Manager secret outlives every function. Without a directory (tests), a fresh one.
 */
export function localCursorSecret(dataDir?: string): string {
  if (!dataDir) return randomBytes(32).toString('base64url');
  const file = join(dataDir, CURSOR_SECRET_FILE);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= CURSOR_SECRET_MIN_LENGTH) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
