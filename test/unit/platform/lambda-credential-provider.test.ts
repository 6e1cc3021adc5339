// The module Lambda bundles get in place of the SDK's chain (the clients' runtime config imports it);
// imported here only to hold the substitute to its exports and their behaviour.
import * as sdkChain from '@aws-sdk/credential-provider-node';
import { CredentialsProviderError } from '@smithy/core/config';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as lambdaChain from '../../../shared/platform/lambda-credential-provider';

/**
 * shared/platform/lambda-credential-provider.ts stands in for @aws-sdk/credential-provider-node in
 * every Lambda bundle (ServiceFunction's esbuild alias): it must offer what the clients import from
 * the SDK's module and resolve the credentials Lambda puts in the environment, and nothing else.
 */

const CREDENTIAL_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CREDENTIAL_EXPIRATION',
  'AWS_CREDENTIAL_SCOPE',
  'AWS_ACCOUNT_ID',
  'AWS_PROFILE',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
];

function setCredentials(accessKeyId: string, expiresInMs?: number): void {
  vi.stubEnv('AWS_ACCESS_KEY_ID', accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', `secret-of-${accessKeyId}`);
  vi.stubEnv('AWS_SESSION_TOKEN', `session-of-${accessKeyId}`);
  if (expiresInMs !== undefined) {
    vi.stubEnv('AWS_CREDENTIAL_EXPIRATION', new Date(Date.now() + expiresInMs).toISOString());
  }
}

const MINUTE = 60_000;

describe('Lambda credential provider', () => {
  beforeEach(() => {
    for (const name of CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
  });
  afterEach(() => vi.unstubAllEnvs());

  it('exports exactly what the SDK credential chain module exports, with types a client accepts', () => {
    // The annotation is the compile-time half: tsc fails when an export is missing or incompatible.
    const substitute: typeof sdkChain = lambdaChain;
    // Loaded here as CommonJS: the interop's own keys are no exports of the module.
    const sdkExports = Object.keys(sdkChain).filter(
      (name) => name !== 'default' && name !== 'module.exports',
    );
    expect(Object.keys(substitute).sort()).toEqual(sdkExports.sort());
  });

  it('resolves the key, secret, session token and expiration Lambda sets in the environment', async () => {
    setCredentials('AKIDLAMBDAROLE', 60 * MINUTE);
    const expiration = new Date(process.env.AWS_CREDENTIAL_EXPIRATION!);
    const credentials = await lambdaChain.defaultProvider()();
    expect(credentials).toMatchObject({
      accessKeyId: 'AKIDLAMBDAROLE',
      secretAccessKey: 'secret-of-AKIDLAMBDAROLE',
      sessionToken: 'session-of-AKIDLAMBDAROLE',
      expiration,
    });
  });

  it('resolves once and reads the environment again only when the credentials are about to expire', async () => {
    setCredentials('AKIDFIRST', 2 * MINUTE);
    const provider = lambdaChain.defaultProvider();
    expect((await provider()).accessKeyId).toBe('AKIDFIRST');

    // Less than five minutes left: the next call reads the environment again.
    setCredentials('AKIDSECOND', 60 * MINUTE);
    expect((await provider()).accessKeyId).toBe('AKIDSECOND');

    // An hour left: kept, whatever the environment says now.
    setCredentials('AKIDTHIRD', 60 * MINUTE);
    expect((await provider()).accessKeyId).toBe('AKIDSECOND');
    expect((await provider({ forceRefresh: true })).accessKeyId).toBe('AKIDTHIRD');
  });

  it('without credentials in the environment, fails saying Lambda bundles read what Lambda sets there', async () => {
    const failure = lambdaChain.defaultProvider()();
    await expect(failure).rejects.toBeInstanceOf(CredentialsProviderError);
    await expect(failure).rejects.toThrow(
      /Lambda bundles of this service read the credentials Lambda sets in the environment/,
    );
    await expect(failure).rejects.toMatchObject({ tryNextLink: false });
  });

  it('reads no profile, credential file or container endpoint', async () => {
    vi.stubEnv('AWS_PROFILE', 'operator');
    vi.stubEnv('AWS_CONTAINER_CREDENTIALS_FULL_URI', 'http://127.0.0.1:9/credentials');
    await expect(lambdaChain.defaultProvider()()).rejects.toThrow(/Lambda bundles of this service/);
  });

  it('treats expiry as the SDK chain does', () => {
    const cases = [undefined, -MINUTE, 2 * MINUTE, 4.9 * MINUTE, 5.1 * MINUTE, 60 * MINUTE].map(
      (expiresInMs) => ({
        accessKeyId: 'AKID',
        secretAccessKey: 'secret',
        ...(expiresInMs === undefined ? {} : { expiration: new Date(Date.now() + expiresInMs) }),
      }),
    );
    for (const credentials of cases) {
      expect(lambdaChain.credentialsWillNeedRefresh(credentials)).toBe(
        sdkChain.credentialsWillNeedRefresh(credentials),
      );
      expect(lambdaChain.credentialsTreatedAsExpired(credentials)).toBe(
        sdkChain.credentialsTreatedAsExpired(credentials),
      );
    }
  });
});
