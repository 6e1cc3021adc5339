import { setTokenFeature } from '@aws-sdk/core/client';
import { getBearerTokenEnvKey } from '@aws-sdk/core/httpAuthSchemes';
import { TokenProviderError } from '@smithy/core/config';

/**
 * The AWS SDK's bearer-token providers as a Lambda function of this service needs them, for Lambda
 * bundles only: ServiceFunction's esbuild alias (infra/constructs/service-function.ts) puts this module
 * in place of `@aws-sdk/token-providers`, as lambda-credential-provider.ts does for the credential
 * chain. Only the Bedrock runtime client imports that package, for Bedrock API keys: it reads the key
 * from the environment (AWS_BEARER_TOKEN_BEDROCK) and otherwise falls back to an SSO token from the
 * shared config files, which pulls in the SSO-OIDC client of @aws-sdk/nested-clients (about 20 KB of
 * the analyst turn's bundle). A Lambda function has no SSO session or config files, so on Lambda the
 * fallback always fails; here it fails at once with an error that says why. The environment link
 * repeats the SDK's fromEnvSigningName (same variable, same error, same feature mark; the alias
 * replaces the whole package, so it cannot be imported from there, and a unit test holds the two
 * together). Unbundled code keeps the full providers.
 */

/** The SDK's logger, as its provider errors take it. */
type Logger = Exclude<ConstructorParameters<typeof TokenProviderError>[1], boolean | undefined>['logger'];

interface TokenInit {
  logger?: Logger;
  signingName?: string;
}

/** A bearer token as the SDK's providers return it. */
interface TokenIdentity {
  token: string;
  expiration?: Date;
}

/** As the SDK's: the token in AWS_BEARER_TOKEN_<SIGNING NAME>, or a TokenProviderError. */
export const fromEnvSigningName =
  ({ logger, signingName }: TokenInit = {}) =>
  async (): Promise<TokenIdentity> => {
    logger?.debug?.('@aws-sdk/token-providers - fromEnvSigningName');
    if (!signingName) {
      throw new TokenProviderError("Please pass 'signingName' to compute environment variable key", {
        logger,
      });
    }
    const bearerTokenKey = getBearerTokenEnvKey(signingName);
    if (!(bearerTokenKey in process.env)) {
      throw new TokenProviderError(`Token not present in '${bearerTokenKey}' environment variable`, {
        logger,
      });
    }
    const token = { token: process.env[bearerTokenKey] as string };
    setTokenFeature(token, 'BEARER_SERVICE_ENV_VARS', '3');
    return token;
  };

const NO_LAMBDA_TOKEN =
  'No bearer token in the environment: Lambda bundles of this service read a Bedrock API key from ' +
  'AWS_BEARER_TOKEN_BEDROCK only; SSO tokens from the shared config files are not read (unbundled code keeps them).';

/** In place of the SDK's SSO token chain, which never finds a token on Lambda. */
export const nodeProvider =
  (init: { logger?: Logger } = {}) =>
  async (): Promise<TokenIdentity> => {
    throw new TokenProviderError(NO_LAMBDA_TOKEN, { logger: init.logger, tryNextLink: false });
  };
