import { CognitoJwtVerifier, JwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import type { Config } from '../../config';
import { consoleIdentity, type IdTokenClaims } from '../../domain/keys/console-identity';
import { userOwnerId } from '../../domain/keys/ownership';
import {
  allowedResources,
  methodArn,
  type PolicyDocument,
  type PolicyRoute,
  parseMethodArn,
} from '../../domain/keys/policy';
import type { Caller, ConsoleUser } from '../../domain/keys/scopes';

/**
 * The console's REQUEST authorizer: verifies the `Authorization: Bearer <ID token>` of a person
 * signed in through the tenant's OpenID Connect issuer (Cognito on AWS, the in-process issuer
 * locally) and allows exactly the console routes the person's role reaches. The same code runs in
 * both places; only the configuration differs (issuer, client, JWKS, and the user pool ID on AWS,
 * where `CognitoJwtVerifier` also checks `token_use`).
 *
 * API keys never pass here: a key is not a JWT, so it fails verification (401).
 */
export type ConsoleDenial = 'missing' | 'invalid_token' | 'not_configured' | 'not_id_token' | 'no_subject';

export type ConsoleAuthorizerOutcome =
  | { ok: true; result: APIGatewayAuthorizerResult; user: ConsoleUser }
  | { ok: false; reason: ConsoleDenial };

/** Verifies a JWT and returns its payload, or throws. */
export type TokenVerifier = (token: string) => Promise<IdTokenClaims>;

export function consoleVerifier(cfg: Config): TokenVerifier | undefined {
  const issuer = cfg.SIS_CONSOLE_ISSUER?.replace(/\/+$/, '');
  const clientId = cfg.SIS_CONSOLE_CLIENT_ID;
  if (!issuer || !clientId) return undefined;
  if (cfg.SIS_CONSOLE_USER_POOL_ID) {
    const cognito = CognitoJwtVerifier.create({
      userPoolId: cfg.SIS_CONSOLE_USER_POOL_ID,
      tokenUse: 'id',
      clientId,
    });
    return async (token) => (await cognito.verify(token)) as IdTokenClaims;
  }
  // aws-jwt-verify's default fetcher refuses http:// JWKS URLs; the local issuer is plain http.
  const jwksCache = new SimpleJwksCache({
    fetcher: {
      fetch: async (uri: string) => {
        const response = await fetch(uri, { signal: AbortSignal.timeout(3_000) });
        if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
        return response.arrayBuffer();
      },
    },
  });
  const generic = JwtVerifier.create(
    {
      issuer,
      audience: clientId,
      jwksUri: cfg.SIS_CONSOLE_JWKS_URL ?? `${issuer}/.well-known/jwks.json`,
    },
    { jwksCache },
  );
  return async (token) => (await generic.verify(token)) as IdTokenClaims;
}

/** The console rows of the schema-free access list (shared/api/generated/access-list.ts). */
export function consolePolicyRoutes(routes: readonly PolicyRoute[]): PolicyRoute[] {
  return routes.filter((route) => route.access.kind === 'console');
}

export function consoleCaller(user: ConsoleUser): Caller {
  return { keyId: userOwnerId(user.sub), role: 'client', scopes: [], user, tenantWide: true };
}

/** What handlers receive as `requestContext.authorizer` (API Gateway flattens it to strings). */
export function consoleAuthorizerContext(user: ConsoleUser): Record<string, string> {
  return {
    keyId: userOwnerId(user.sub),
    principalKind: 'user',
    sub: user.sub,
    username: user.username,
    email: user.email ?? '',
    consoleRole: user.role,
    groups: user.groups.join(','),
  };
}

function bearerToken(headers: APIGatewayRequestAuthorizerEvent['headers']): string | undefined {
  const entry = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization');
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(entry?.[1]?.trim() ?? '');
  return match?.[1];
}

export async function decideConsole(
  event: Pick<APIGatewayRequestAuthorizerEvent, 'headers' | 'methodArn'>,
  verify: TokenVerifier | undefined,
  routes: readonly PolicyRoute[],
): Promise<ConsoleAuthorizerOutcome> {
  if (!verify) return { ok: false, reason: 'not_configured' };
  const token = bearerToken(event.headers);
  if (!token) return { ok: false, reason: 'missing' };
  let claims: IdTokenClaims;
  try {
    claims = await verify(token);
  } catch {
    return { ok: false, reason: 'invalid_token' };
  }
  const base = parseMethodArn(event.methodArn);
  const identity = consoleIdentity(claims);
  if (!identity.ok) {
    if (identity.reason !== 'no_console_group') return { ok: false, reason: identity.reason };
    // A valid sign-in outside both groups: known, but allowed nothing (403, not 401).
    const deny: PolicyDocument = {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: [methodArn(base, '*', '/*')] }],
    };
    const sub = String(claims.sub);
    return {
      ok: true,
      user: { sub, username: sub, role: 'analyst', groups: [] },
      result: { principalId: userOwnerId(sub), policyDocument: deny },
    };
  }
  const { user } = identity;
  const resources = allowedResources(consoleCaller(user), routes, base);
  const policyDocument: PolicyDocument = {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resources }],
  };
  return {
    ok: true,
    user,
    result: { principalId: userOwnerId(user.sub), policyDocument, context: consoleAuthorizerContext(user) },
  };
}
