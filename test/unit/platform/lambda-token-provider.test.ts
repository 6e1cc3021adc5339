import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
// The SDK's providers, which Lambda bundles get shared/platform/lambda-token-provider.ts in place of;
// imported here only to hold the substitute to them.
import * as sdkTokens from '@aws-sdk/token-providers';
import { TokenProviderError } from '@smithy/core/config';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as lambdaTokens from '../../../shared/platform/lambda-token-provider';

/**
 * shared/platform/lambda-token-provider.ts stands in for @aws-sdk/token-providers in every Lambda
 * bundle (ServiceFunction's esbuild alias): it must offer what the Bedrock client imports from it,
 * read a Bedrock API key from the environment exactly as the SDK does, and never look for an SSO token.
 */
const BEDROCK_TOKEN = 'AWS_BEARER_TOKEN_BEDROCK';

/** The names the Bedrock client's runtime configuration imports from the package. */
function namesTheBedrockClientImports(): string[] {
  const require = createRequire(import.meta.url);
  const clientDir = join(require.resolve('@aws-sdk/client-bedrock-runtime/package.json'), '..');
  const source = readFileSync(join(clientDir, 'dist-es', 'runtimeConfig.js'), 'utf8');
  const names = /import \{([^}]*)\} from "@aws-sdk\/token-providers"/.exec(source)?.[1] ?? '';
  return names
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

describe('Lambda token provider', () => {
  beforeEach(() => vi.stubEnv(BEDROCK_TOKEN, undefined));
  afterEach(() => vi.unstubAllEnvs());

  it('exports what the Bedrock client imports from the SDK package, with the same types', () => {
    const names = namesTheBedrockClientImports();
    expect(names.sort()).toEqual(['fromEnvSigningName', 'nodeProvider']);
    expect(Object.keys(lambdaTokens).sort()).toEqual(names);
    // The compile-time half: tsc fails when a signature drifts from the SDK's.
    const fromEnv: typeof sdkTokens.fromEnvSigningName = lambdaTokens.fromEnvSigningName;
    expect(fromEnv).toBe(lambdaTokens.fromEnvSigningName);
  });

  it('reads the Bedrock API key from the environment as the SDK does', async () => {
    vi.stubEnv(BEDROCK_TOKEN, 'bedrock-api-key');
    const ours = await lambdaTokens.fromEnvSigningName({ signingName: 'bedrock' })();
    const sdk = await sdkTokens.fromEnvSigningName({ signingName: 'bedrock' })();
    expect(ours).toEqual(sdk);
    expect(ours.token).toBe('bedrock-api-key');
  });

  it('without the key, fails as the SDK does', async () => {
    const ours = await lambdaTokens
      .fromEnvSigningName({ signingName: 'bedrock' })()
      .catch((error: unknown) => error);
    const sdk = await sdkTokens
      .fromEnvSigningName({ signingName: 'bedrock' })()
      .catch((error: unknown) => error);
    expect(ours).toBeInstanceOf(TokenProviderError);
    expect((ours as Error).message).toBe((sdk as Error).message);
  });

  it('never looks for an SSO token, and says why', async () => {
    vi.stubEnv('AWS_PROFILE', 'operator');
    const failure = lambdaTokens.nodeProvider()();
    await expect(failure).rejects.toBeInstanceOf(TokenProviderError);
    await expect(failure).rejects.toThrow(/read a Bedrock API key from AWS_BEARER_TOKEN_BEDROCK only/);
    await expect(failure).rejects.toMatchObject({ tryNextLink: false });
  });
});
