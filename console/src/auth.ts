import * as oauth from 'oauth4webapi';
import { apiUrl, currentPage, pageHref } from './base';

/**
 * Sign-in with OpenID Connect: authorization code + PKCE as a public client, against the issuer the
 * deployment names in /console/config.json (Cognito managed login on AWS, the in-process issuer
 * locally). Tokens live in this module's memory only: a reload signs in again through the issuer,
 * which remembers the person and answers without a prompt. Only the one-time PKCE verifier, state,
 * nonce and the page to return to wait in sessionStorage across the redirect.
 */
export interface ConsoleConfig {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint: string | null;
  client_id: string;
  redirect_uri: string;
  post_logout_redirect_uri?: string;
  scopes: string;
}

export interface SignedIn {
  idToken: string;
  expiresAt: number;
  username: string;
}

const PENDING_KEY = 'sis.console.signin';

interface PendingSignIn {
  codeVerifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

let configPromise: Promise<ConsoleConfig> | undefined;
let current: SignedIn | undefined;

export function loadConfig(): Promise<ConsoleConfig> {
  configPromise ??= fetch(apiUrl('/console/config.json'), { headers: { accept: 'application/json' } }).then(
    async (response) => {
      if (!response.ok)
        throw new Error(`Sign-in is not configured on this deployment (HTTP ${response.status}).`);
      return (await response.json()) as ConsoleConfig;
    },
  );
  return configPromise;
}

function server(config: ConsoleConfig): oauth.AuthorizationServer {
  return {
    issuer: config.issuer,
    authorization_endpoint: config.authorization_endpoint,
    token_endpoint: config.token_endpoint,
    ...(config.end_session_endpoint ? { end_session_endpoint: config.end_session_endpoint } : {}),
  };
}

/** Plain http is accepted only for an issuer on this machine (the local runtime). */
function httpOptions(config: ConsoleConfig) {
  const host = new URL(config.token_endpoint).hostname;
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  return local ? { [oauth.allowInsecureRequests]: true } : {};
}

export function signedIn(): SignedIn | undefined {
  if (current && current.expiresAt <= Date.now()) current = undefined;
  return current;
}

/** Leaves for the issuer's sign-in page; comes back to `returnTo` (default: this page). */
export async function startSignIn(returnTo: string = currentPage() + location.search): Promise<never> {
  const config = await loadConfig();
  const pending: PendingSignIn = {
    codeVerifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    returnTo,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(config.authorization_endpoint);
  url.searchParams.set('client_id', config.client_id);
  url.searchParams.set('redirect_uri', config.redirect_uri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', config.scopes);
  url.searchParams.set('state', pending.state);
  url.searchParams.set('nonce', pending.nonce);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(pending.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  location.assign(url.href);
  return new Promise<never>(() => {});
}

/** On /auth/callback: trades the code for tokens and answers the page to go back to. */
export async function completeSignIn(callbackUrl: URL): Promise<string> {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!raw) throw new Error('This sign-in link has already been used or has expired. Sign in again.');
  const pending = JSON.parse(raw) as PendingSignIn;
  const config = await loadConfig();
  const as = server(config);
  const client: oauth.Client = { client_id: config.client_id };
  const params = oauth.validateAuthResponse(as, client, callbackUrl, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    config.redirect_uri,
    pending.codeVerifier,
    httpOptions(config),
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!tokens.id_token || !claims) throw new Error('The issuer returned no ID token.');
  current = {
    idToken: tokens.id_token,
    expiresAt: claims.exp * 1000,
    username: String(claims['cognito:username'] ?? claims.preferred_username ?? claims.sub),
  };
  return pending.returnTo.startsWith('/') && !pending.returnTo.startsWith('//')
    ? pending.returnTo
    : '/sessions';
}

/** Forgets the tokens and ends the issuer's session when it offers a logout endpoint. */
export async function signOut(): Promise<void> {
  const token = current?.idToken;
  current = undefined;
  const config = await loadConfig().catch(() => undefined);
  const signedOutPage = config?.post_logout_redirect_uri ?? `${location.origin}${pageHref('/signed-out')}`;
  if (!config?.end_session_endpoint) {
    location.assign(signedOutPage);
    return;
  }
  const url = new URL(config.end_session_endpoint);
  url.searchParams.set('client_id', config.client_id);
  // OpenID Connect RP-initiated logout names it post_logout_redirect_uri; Cognito's /logout, logout_uri.
  url.searchParams.set('post_logout_redirect_uri', signedOutPage);
  url.searchParams.set('logout_uri', signedOutPage);
  if (token) url.searchParams.set('id_token_hint', token);
  location.assign(url.href);
}
