import { KEY_EXPIRY_DAYS } from '../../shared/domain/keys/key-lifecycle';
import { isScope, SCOPES, type Scope } from '../../shared/domain/keys/scopes';
import type { ApiKeyService } from '../../shared/services/auth/api-keys';
import { CliUsageError } from './errors';

/**
 * `sis admin bootstrap`: the operator's way to the first admin key (there is no default credential).
 * It refuses while an active, unexpired admin key exists, unless forced, so a second run cannot
 * silently mint another all-powerful key.
 */
export interface BootstrapOptions {
  force: boolean;
  name: string;
  description: string;
  expiresInDays: number;
  scopes: Scope[];
}

export type BootstrapResult =
  | { created: true; keyId: string; apiKey: string; keyPrefix: string; expiresAt: string; scopes: Scope[] }
  | { created: false; reason: string };

/** `all` (default: the operator's key can exercise every route), `none`, or a comma-separated list. */
export function parseScopeList(value: string): Scope[] {
  const trimmed = value.trim();
  if (trimmed === 'all') return [...SCOPES];
  if (trimmed === 'none' || trimmed === '') return [];
  const scopes = trimmed.split(',').map((s) => s.trim());
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) {
    throw new CliUsageError(
      `Unknown scope(s): ${unknown.join(', ')}. Use all, none or a list of: ${SCOPES.join(', ')}`,
    );
  }
  return scopes as Scope[];
}

export function parseExpiryDays(value: string): number {
  const days = Number(value);
  if (!Number.isInteger(days) || days < KEY_EXPIRY_DAYS.min || days > KEY_EXPIRY_DAYS.max) {
    throw new CliUsageError(
      `--expires-in-days must be an integer from ${KEY_EXPIRY_DAYS.min} to ${KEY_EXPIRY_DAYS.max}`,
    );
  }
  return days;
}

export async function bootstrapAdminKey(
  service: ApiKeyService,
  options: BootstrapOptions,
  actor: string,
): Promise<BootstrapResult> {
  if (!options.force && (await service.hasUsableAdmin())) {
    return {
      created: false,
      reason:
        'An active admin API key already exists. Use it to create keys (POST /api/v1/admin/keys), or pass --force to create another admin key anyway.',
    };
  }
  const { summary, apiKey } = await service.create(
    {
      name: options.name,
      description: options.description,
      scopes: options.scopes,
      role: 'admin',
      expires_in_days: options.expiresInDays,
    },
    actor,
    'bootstrap',
  );
  return {
    created: true,
    keyId: summary.key_id,
    apiKey,
    keyPrefix: summary.key_prefix,
    expiresAt: summary.expires_at,
    scopes: summary.scopes,
  };
}
