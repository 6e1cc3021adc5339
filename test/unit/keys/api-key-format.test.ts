import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_LENGTH,
  formatApiKey,
  generateKeyId,
  generateSecret,
  hashSecret,
  isValidKeyId,
  keyPrefixOf,
  parseApiKey,
  presentedApiKey,
  secretMatchesHash,
} from '../../../shared/domain/keys/api-key';

const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';

function freshKey() {
  const keyId = generateKeyId();
  return { keyId, ...generateSecret(keyId) };
}

describe('API key format', () => {
  it('is sis_<16-char key ID>_<43-char secret><8-char checksum>', () => {
    const key = freshKey();
    expect(key.apiKey).toMatch(/^sis_[a-z2-7]{16}_[A-Za-z0-9_-]{51}$/);
    expect(key.apiKey).toHaveLength(API_KEY_LENGTH);
    expect(key.apiKey.startsWith(`sis_${key.keyId}_${key.secret}`)).toBe(true);
    expect(Buffer.from(key.secret, 'base64url')).toHaveLength(32);
    expect(isValidKeyId(key.keyId)).toBe(true);
  });

  it('round-trips through the parser', () => {
    const key = freshKey();
    expect(parseApiKey(key.apiKey)).toEqual({ keyId: key.keyId, secret: key.secret });
  });

  it('generates distinct key IDs and secrets', () => {
    const keys = Array.from({ length: 200 }, freshKey);
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(200);
    expect(new Set(keys.map((k) => k.secret)).size).toBe(200);
  });

  it('shows only the product prefix, key ID and 4 secret characters in key_prefix', () => {
    const key = freshKey();
    expect(key.keyPrefix).toBe(`sis_${key.keyId}_${key.secret.slice(0, 4)}`);
    expect(keyPrefixOf(key.keyId, key.secret)).toBe(key.keyPrefix);
    expect(key.apiKey.startsWith(key.keyPrefix)).toBe(true);
  });

  it('stores SHA-256 of the secret, never the secret', () => {
    const key = freshKey();
    expect(key.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.secretHash).toBe(hashSecret(key.secret));
    expect(key.secretHash).not.toContain(key.secret);
  });

  it('rejects every single-character typo via the checksum (no database read needed)', () => {
    const key = freshKey();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: API_KEY_LENGTH - 1 }),
        fc.constantFrom(...KEY_CHARS),
        (position, replacement) => {
          fc.pre(key.apiKey[position] !== replacement);
          const typo = key.apiKey.slice(0, position) + replacement + key.apiKey.slice(position + 1);
          expect(parseApiKey(typo)).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('rejects swapped adjacent characters', () => {
    const key = freshKey();
    for (let i = 4; i < API_KEY_LENGTH - 1; i++) {
      if (key.apiKey[i] === key.apiKey[i + 1]) continue;
      const swapped = key.apiKey.slice(0, i) + key.apiKey[i + 1] + key.apiKey[i] + key.apiKey.slice(i + 2);
      expect(parseApiKey(swapped)).toBeUndefined();
    }
  });

  it.each([
    ['empty', ''],
    ['undefined', undefined],
    ['garbage', 'not-a-key'],
    ['other product prefix', (k: string) => `xyz${k.slice(3)}`],
    ['leading space', (k: string) => ` ${k}`],
    ['trailing newline', (k: string) => `${k}\n`],
    ['truncated', (k: string) => k.slice(0, -1)],
    ['extended', (k: string) => `${k}A`],
    ['upper-cased key ID', (k: string) => k.toUpperCase()],
  ])('rejects %s', (_label, variant) => {
    const key = freshKey();
    const presented = typeof variant === 'function' ? variant(key.apiKey) : variant;
    expect(parseApiKey(presented)).toBeUndefined();
  });

  it('rejects a non-canonical secret encoding even with a matching checksum', () => {
    // 43 base64url characters carry 258 bits; the last character's low 2 bits must be zero.
    const keyId = generateKeyId();
    const secret = generateSecret(keyId).secret;
    const last = secret.at(-1) ?? 'A';
    const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = b64[b64.indexOf(last) ^ 1] ?? 'B';
    const forged = formatApiKey(keyId, secret.slice(0, -1) + sibling);
    expect(
      Buffer.from(secret.slice(0, -1) + sibling, 'base64url').equals(Buffer.from(secret, 'base64url')),
    ).toBe(true);
    expect(parseApiKey(forged)).toBeUndefined();
  });

  it('compares secrets against the stored hash', () => {
    const key = freshKey();
    const other = freshKey();
    expect(secretMatchesHash(key.secret, key.secretHash)).toBe(true);
    expect(secretMatchesHash(other.secret, key.secretHash)).toBe(false);
    expect(secretMatchesHash(key.secret, undefined)).toBe(false);
    expect(secretMatchesHash(key.secret, 'not-hex')).toBe(false);
    expect(secretMatchesHash(key.secret, key.secretHash.toUpperCase())).toBe(false);
  });
});

describe('presented API key', () => {
  const key = freshKey().apiKey;

  it.each([
    [{ 'X-API-Key': key }],
    [{ 'x-api-key': key }],
    [{ 'X-Api-Key': ` ${key} ` }],
    [{ Authorization: `Bearer ${key}` }],
    [{ authorization: `bearer ${key}` }],
    [{ 'x-api-key': '', Authorization: `Bearer ${key}` }],
  ])('is read from %j', (headers) => {
    expect(presentedApiKey(headers)).toBe(key);
  });

  it('prefers X-API-Key over Authorization', () => {
    expect(presentedApiKey({ Authorization: 'Bearer other', 'X-API-Key': key })).toBe(key);
  });

  it.each([
    [null],
    [{}],
    [{ Authorization: `Basic ${key}` }],
    [{ Authorization: 'Bearer' }],
    [{ Authorization: `Bearer ${key} extra` }],
  ])('is absent for %j', (headers) => {
    expect(presentedApiKey(headers)).toBeUndefined();
  });
});

describe('documented examples', () => {
  it('are well-formed keys whose prefix and key ID agree', async () => {
    const { buildOpenApiDocument } = await import('../../../shared/api/openapi');
    const { ROUTES } = await import('../../../shared/api/routes');
    const document = buildOpenApiDocument(ROUTES, { serverUrl: 'http://127.0.0.1:3000', view: 'full' }) as {
      components: { schemas: Record<string, { properties: Record<string, { example?: string }> }> };
    };
    const example = (field: string) =>
      document.components.schemas.CreateApiKeyResponse?.properties[field]?.example;
    const apiKey = example('api_key');
    expect(parseApiKey(apiKey)?.keyId).toBe(example('key_id'));
    expect(apiKey?.startsWith(example('key_prefix') ?? '?')).toBe(true);
  });
});
