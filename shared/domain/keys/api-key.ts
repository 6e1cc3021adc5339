import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key format: `sis_<keyId>_<secret><checksum>`
 *
 * - `sis`       fixed product prefix, so secret scanners and humans recognise a leaked key.
 * - keyId       16 chars of lowercase RFC 4648 base32 (80 random bits). Stable for the key's life;
 *               it is the record's ID, the session owner and the log correlation value. Not secret.
 * - secret      43 chars: 32 random bytes (256 bits), base64url without padding.
 * - checksum    8 chars: the first 6 bytes of SHA-256 over `sis_<keyId>_<secret>`, base64url. A typo or
 *               a truncated paste fails here, before any database read.
 *
 * Only SHA-256(secret) is stored. No pepper and no slow hash: a pepper or bcrypt exists to protect
 * low-entropy human passwords from offline guessing; a 256-bit random secret cannot be guessed from its
 * hash whatever the hash speed, and a fast hash keeps the authorizer at one cheap comparison.
 */
export const KEY_PRODUCT_PREFIX = 'sis';
export const KEY_ID_LENGTH = 16;
export const SECRET_BYTES = 32;
const SECRET_LENGTH = 43;
const CHECKSUM_LENGTH = 8;
/** Characters of the secret shown in `key_prefix`; 24 of 256 bits, leaving 232 unknown. */
const PREFIX_SECRET_CHARS = 4;

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const KEY_ID_PATTERN = /^[a-z2-7]{16}$/;
const API_KEY_PATTERN = new RegExp(
  `^${KEY_PRODUCT_PREFIX}_([a-z2-7]{${KEY_ID_LENGTH}})_([A-Za-z0-9_-]{${SECRET_LENGTH}})([A-Za-z0-9_-]{${CHECKSUM_LENGTH}})$`,
);
/** Upper bound on what is even looked at, so a megabyte header costs nothing. */
export const API_KEY_LENGTH =
  KEY_PRODUCT_PREFIX.length + 1 + KEY_ID_LENGTH + 1 + SECRET_LENGTH + CHECKSUM_LENGTH;

export type RandomBytes = (size: number) => Buffer;

export interface ParsedApiKey {
  keyId: string;
  secret: string;
}

export interface GeneratedSecret {
  /** The full key to hand to the caller once; never stored or logged. */
  apiKey: string;
  secret: string;
  secretHash: string;
  keyPrefix: string;
}

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function checksum(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest().subarray(0, 6).toString('base64url');
}

export function isValidKeyId(value: string): boolean {
  return KEY_ID_PATTERN.test(value);
}

export function generateKeyId(random: RandomBytes = randomBytes): string {
  return base32(random(10));
}

export function keyPrefixOf(keyId: string, secret: string): string {
  return `${KEY_PRODUCT_PREFIX}_${keyId}_${secret.slice(0, PREFIX_SECRET_CHARS)}`;
}

/** Hex SHA-256 of the secret part; the only form of the secret that is ever stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function formatApiKey(keyId: string, secret: string): string {
  const body = `${KEY_PRODUCT_PREFIX}_${keyId}_${secret}`;
  return `${body}${checksum(body)}`;
}

/** A fresh secret for an existing or new key ID (creation and rotation). */
export function generateSecret(keyId: string, random: RandomBytes = randomBytes): GeneratedSecret {
  const secret = random(SECRET_BYTES).toString('base64url');
  return {
    apiKey: formatApiKey(keyId, secret),
    secret,
    secretHash: hashSecret(secret),
    keyPrefix: keyPrefixOf(keyId, secret),
  };
}

/**
 * Parses a presented key. Anything that is not exactly the format (wrong prefix, lengths, alphabet,
 * a non-canonical base64url secret, a failed checksum, surrounding whitespace) is rejected.
 */
export function parseApiKey(raw: string | undefined | null): ParsedApiKey | undefined {
  if (typeof raw !== 'string' || raw.length !== API_KEY_LENGTH) return undefined;
  const match = API_KEY_PATTERN.exec(raw);
  if (!match) return undefined;
  const [, keyId = '', secret = '', presentedChecksum = ''] = match;
  const body = raw.slice(0, raw.length - CHECKSUM_LENGTH);
  if (!safeEqualStrings(checksum(body), presentedChecksum)) return undefined;
  // 43 base64url chars carry 258 bits; only the canonical encoding of 32 bytes is a real secret.
  if (Buffer.from(secret, 'base64url').toString('base64url') !== secret) return undefined;
  return { keyId, secret };
}

function safeEqualStrings(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Constant-time comparison of a presented secret against a stored hex SHA-256. */
export function secretMatchesHash(secret: string, storedHash: string | undefined): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  // Compare against a same-length dummy when nothing is stored, so timing does not reveal it.
  const stored = storedHash && /^[0-9a-f]{64}$/.test(storedHash) ? Buffer.from(storedHash, 'hex') : undefined;
  const equal = timingSafeEqual(presented, stored ?? Buffer.alloc(presented.length));
  return stored !== undefined && equal;
}

/** A random identifier that is not a credential (usage-plan identifiers, audit IDs). */
export function randomIdentifier(bytes = 10, random: RandomBytes = randomBytes): string {
  return base32(random(bytes));
}

/**
 * The key a request presents: `X-API-Key`, or `Authorization: Bearer <key>` for platforms that can
 * send only that. Header names are matched case-insensitively; X-API-Key wins when both are sent.
 */
export function presentedApiKey(
  headers: Record<string, string | undefined> | null | undefined,
): string | undefined {
  let apiKeyHeader: string | undefined;
  let authorization: string | undefined;
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'x-api-key') apiKeyHeader = value;
    else if (lower === 'authorization') authorization = value;
  }
  const direct = apiKeyHeader?.trim();
  if (direct) return direct;
  const bearer = /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization ?? '');
  return bearer?.[1];
}

const CREDENTIAL_HEADERS = new Set(['x-api-key', 'authorization']);

/**
 * Whether X-API-Key or Authorization arrives more than once (repeated, or under two spellings of its
 * name). Which copy a gateway, proxy or framework keeps differs between them, so a request that
 * smuggles a second credential is refused instead of guessing which one was meant.
 */
export function hasRepeatedCredentialHeaders(
  headers: Record<string, string | undefined> | null | undefined,
  multiValueHeaders?: Record<string, string[] | undefined> | null,
): boolean {
  const seen = new Map<string, number>();
  const count = (name: string, values: number) => {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower)) seen.set(lower, (seen.get(lower) ?? 0) + values);
  };
  if (multiValueHeaders) {
    for (const [name, values] of Object.entries(multiValueHeaders)) count(name, values?.length ?? 0);
  } else {
    for (const name of Object.keys(headers ?? {})) count(name, 1);
  }
  return [...seen.values()].some((n) => n > 1);
}
