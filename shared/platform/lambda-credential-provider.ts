import { type FromEnvInit, fromEnv } from '@aws-sdk/credential-provider-env';
import { doesIdentityRequireRefresh, isIdentityExpired, memoizeIdentityProvider } from '@smithy/core';
import { CredentialsProviderError } from '@smithy/core/config';

/**
 * The AWS SDK's default credential chain as a Lambda function of this service needs it, for Lambda
 * bundles only: ServiceFunction's esbuild alias (infra/constructs/service-function.ts) puts this module
 * in place of `@aws-sdk/credential-provider-node`. That chain (SSO, INI files, credential_process, web
 * identity, login, IMDS and container metadata, and the STS/SSO clients of @aws-sdk/nested-clients they
 * call) is about 130 KB of every bundle and nearly half the floor's import CPU, and on Lambda it always
 * stops at its first link: Lambda hands a function its execution role's credentials in
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, which the SDK's own fromEnv reads.
 * This module is that link alone. Nothing imports it by name; local runs, tests and scripts are not
 * bundled and keep the full chain (AWS_PROFILE, SSO, ...).
 *
 * No container-credentials fallback (the SDK's fromHttp, AWS_CONTAINER_CREDENTIALS_FULL_URI): Lambda
 * serves credentials that way only to SnapStart functions, which Node.js functions cannot be, and the
 * fallback would add about 7 KB (a stream mixin, date parsing, its own retries) to every bundle and
 * about 3% to the floor's import CPU (1.5 ms of 60) for a path no function of this stack takes; a
 * function without credentials in its environment fails with an error that says where they are read.
 */

/** Access key, secret, and the session token and expiration when the environment has them. */
type AwsCredentialIdentity = Awaited<ReturnType<ReturnType<typeof fromEnv>>>;

/** What the client configuration hands the provider; fromEnv reads only its logger. */
export type DefaultProviderInit = FromEnvInit;

/** As the SDK's: the provider a client calls for every request, resolved once and reused. */
export type MemoizedRuntimeConfigAwsCredentialIdentityProvider = (options?: {
  forceRefresh?: boolean;
}) => Promise<AwsCredentialIdentity>;

const NO_LAMBDA_CREDENTIALS =
  'No AWS credentials in the environment: Lambda bundles of this service read the credentials Lambda ' +
  'sets in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN); profiles, SSO, ' +
  'credential files and container or instance metadata are not read (unbundled code keeps the full chain).';

export const defaultProvider = (
  init: DefaultProviderInit = {},
): MemoizedRuntimeConfigAwsCredentialIdentityProvider =>
  // The SDK's memoizer, as for credentials a caller passes: resolved once, again only near their
  // expiration. It returns undefined only when given no provider.
  memoizeIdentityProvider<AwsCredentialIdentity>(
    async () => {
      try {
        return await fromEnv(init)();
      } catch (error) {
        if (!(error instanceof CredentialsProviderError)) throw error;
        throw new CredentialsProviderError(NO_LAMBDA_CREDENTIALS, {
          logger: init.logger,
          tryNextLink: false,
        });
      }
    },
    isIdentityExpired,
    doesIdentityRequireRefresh,
  )!;

/** As the SDK's: credentials with an expiration need refreshing. */
export const credentialsWillNeedRefresh = (credentials: AwsCredentialIdentity): boolean =>
  credentials?.expiration !== undefined;

/** As the SDK's: credentials with less than five minutes left count as expired. */
export const credentialsTreatedAsExpired = (credentials: AwsCredentialIdentity): boolean =>
  credentials?.expiration !== undefined && isIdentityExpired(credentials);
