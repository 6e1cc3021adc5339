import { createHash, generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import Provider, { type Configuration } from 'oidc-provider';
import { ADMIN_GROUP, ANALYST_GROUP } from '../shared/domain/keys/console-identity';
import { CONSOLE_ICON_DATA_URL } from '../shared/services/console/console-icon';
import { consoleIssuerStore } from './console-issuer-store';

/**
 * The local stand-in for the tenant's Cognito user pool: a real OpenID Connect issuer (oidc-provider)
 * mounted under the local gateway at `/oidc`, with Cognito's paths (`/oauth2/authorize`,
 * `/oauth2/token`, `/.well-known/jwks.json`, `/logout`) and Cognito-shaped ID tokens
 * (`cognito:username`, `cognito:groups`, `token_use: "id"`, `aud` = the app client). One public client
 * (authorization code + PKCE) and two users: `admin` (admins + analysts) and `analyst` (analysts).
 */
export const LOCAL_CONSOLE_CLIENT_ID = 'sis-console-local';
export const ISSUER_MOUNT_PATH = '/oidc';

export interface LocalConsoleUser {
  username: 'admin' | 'analyst';
  password: string;
  /** Generated at start-up (printed once) rather than taken from the environment. */
  generated: boolean;
  groups: string[];
}

export interface ConsoleIssuer {
  issuer: string;
  clientId: string;
  users: LocalConsoleUser[];
  handle(req: IncomingMessage, res: ServerResponse): void;
}

const SIGN_IN_TEMPLATE = resolve(import.meta.dirname, 'views', 'console-sign-in.html');

/** Cognito's `sub` is a UUID; locally it is derived from the username, so it survives restarts. */
export function localSubject(username: string): string {
  const hex = createHash('sha256').update(`sis-local-console:${username}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function samePassword(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 16_384) chunks.push(chunk);
    });
    req.on('end', () => done(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', fail);
  });
}

export function createConsoleIssuer(options: {
  publicUrl: string;
  adminPassword?: string | undefined;
  analystPassword?: string | undefined;
}): ConsoleIssuer {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const issuer = `${publicUrl}${ISSUER_MOUNT_PATH}`;
  const user = (username: LocalConsoleUser['username'], given: string | undefined, groups: string[]) => ({
    username,
    password: given ?? randomBytes(12).toString('base64url'),
    generated: given === undefined,
    groups,
  });
  const users: LocalConsoleUser[] = [
    user('admin', options.adminPassword, [ADMIN_GROUP, ANALYST_GROUP]),
    user('analyst', options.analystPassword, [ANALYST_GROUP]),
  ];
  const bySubject = new Map(users.map((u) => [localSubject(u.username), u]));
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const consoleOrigin = new URL(publicUrl).origin;
  const configuration: Configuration = {
    adapter: consoleIssuerStore(),
    // The console is the only client and calls the token endpoint from its own origin.
    clientBasedCORS: (_ctx, origin) => origin === consoleOrigin,
    clients: [
      {
        client_id: LOCAL_CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${publicUrl}/auth/callback`],
        post_logout_redirect_uris: [`${publicUrl}/signed-out`],
      },
    ],
    pkce: { required: () => true },
    jwks: { keys: [{ ...signingKey, kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    routes: {
      authorization: '/oauth2/authorize',
      token: '/oauth2/token',
      jwks: '/.well-known/jwks.json',
      userinfo: '/oauth2/userInfo',
      end_session: '/logout',
    },
    claims: {
      openid: ['sub', 'token_use', 'cognito:username', 'cognito:groups'],
      email: ['email', 'email_verified'],
      profile: [],
    },
    // Cognito puts the user's claims in the ID token even when an access token is issued too.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${ISSUER_MOUNT_PATH}/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const user = bySubject.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          token_use: 'id',
          'cognito:username': user.username,
          'cognito:groups': user.groups,
          email: `${user.username}@example.com`,
          email_verified: true,
        }),
      };
    },
    ttl: {
      IdToken: 3600,
      AccessToken: 3600,
      AuthorizationCode: 300,
      Interaction: 900,
      Session: 3600,
      Grant: 3600,
    },
  };
  const provider = new Provider(issuer, configuration);
  const template = readFileSync(SIGN_IN_TEMPLATE, 'utf8').replace(
    '{{icon}}',
    escapeHtml(CONSOLE_ICON_DATA_URL),
  );
  // The page's one <style> block is allowed by its hash; nothing else may style or script it.
  const styleHash = createHash('sha256')
    .update(/<style>([\s\S]*?)<\/style>/.exec(template)?.[1] ?? '')
    .digest('base64');
  const callback = provider.callback();

  const renderSignIn = (res: ServerResponse, uid: string, status: number, error?: string, username = '') => {
    const html = template
      .replace('{{action}}', escapeHtml(`${ISSUER_MOUNT_PATH}/interaction/${uid}`))
      .replace('{{username}}', escapeHtml(username))
      .replace('{{error}}', error ? `<p role="alert">${escapeHtml(error)}</p>` : '');
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'sha256-${styleHash}'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'x-content-type-options': 'nosniff',
    });
    res.end(html);
  };

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string) => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (req.method === 'GET') return renderSignIn(res, uid, 200);
    const form = await readForm(req);
    const username = form.get('username') ?? '';
    const user = users.find((u) => u.username === username);
    if (!user || !samePassword(form.get('password') ?? '', user.password)) {
      return renderSignIn(res, uid, 401, 'Wrong username or password.', username);
    }
    const accountId = localSubject(user.username);
    // First-party client: the grant is given with the sign-in, as Cognito's managed login does.
    const grant = new provider.Grant({ accountId, clientId: LOCAL_CONSOLE_CLIENT_ID });
    grant.addOIDCScope('openid profile email');
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  return {
    issuer,
    clientId: LOCAL_CONSOLE_CLIENT_ID,
    users,
    handle(req, res) {
      const original = req.url ?? '/';
      const inner = original.slice(ISSUER_MOUNT_PATH.length) || '/';
      const match = /^\/interaction\/([A-Za-z0-9_-]+)\/?(\?.*)?$/.exec(inner);
      if (match?.[1] && (req.method === 'GET' || req.method === 'POST')) {
        interaction(req, res, match[1]).catch(() => {
          if (res.headersSent) return;
          res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('The sign-in expired or is invalid. Start again from the console.');
        });
        return;
      }
      // oidc-provider reads its mount path from originalUrl minus url, as under Express.
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
      req.url = inner;
      callback(req, res);
    },
  };
}
