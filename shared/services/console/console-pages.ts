import type { Config } from '../../config';
import { NotFoundError } from '../../domain/core/errors';
import {
  type ConsoleFileLayout,
  type ConsoleManifest,
  consoleFileLayout,
  readConsoleAsset,
  readConsoleManifest,
  readShellTemplate,
} from '../../platform/console-files';
import { CONSOLE_ICON_DATA_URL } from './console-icon';

/**
 * Serving the browser app from the API's own gateway: the HTML shell at every page path, the
 * content-hashed assets the build's manifest names, and the sign-in settings. The shell has no inline
 * script, and its Content-Security-Policy allows scripts and styles from this origin only, requests
 * to this origin and the sign-in endpoints, and no framing.
 */
export const SHELL_CACHE_CONTROL = 'no-cache';
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface ConsoleSignIn {
  issuer: string;
  loginUrl: string;
  clientId: string;
}

export function consoleSignIn(cfg: Config): ConsoleSignIn | undefined {
  const issuer = cfg.SIS_CONSOLE_ISSUER?.replace(/\/+$/, '');
  if (!issuer || !cfg.SIS_CONSOLE_CLIENT_ID) return undefined;
  return {
    issuer,
    loginUrl: (cfg.SIS_CONSOLE_LOGIN_URL ?? issuer).replace(/\/+$/, ''),
    clientId: cfg.SIS_CONSOLE_CLIENT_ID,
  };
}

export function consoleContentSecurityPolicy(signIn: ConsoleSignIn | undefined): string {
  const origins = signIn
    ? [...new Set([new URL(signIn.issuer).origin, new URL(signIn.loginUrl).origin])]
    : [];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${origins.map((o) => ` ${o}`).join('')}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    `form-action 'self'${origins.map((o) => ` ${o}`).join('')}`,
  ].join('; ');
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The shell with the build's entry script and styles; a notice instead when the console is not built. */
export function renderShell(template: string, manifest: ConsoleManifest, publicUrl: string): string {
  const script = manifest['app.js'];
  const styles = manifest['app.css'];
  // On AWS the stage is part of the path (`/prod`); assets live under it.
  const assets = `${new URL(publicUrl).pathname.replace(/\/+$/, '')}/console/assets/`;
  const head = [
    `<link rel="icon" href="${escapeAttribute(CONSOLE_ICON_DATA_URL)}">`,
    ...(styles ? [`<link rel="stylesheet" href="${escapeAttribute(assets + styles)}">`] : []),
    ...(script ? [`<script type="module" src="${escapeAttribute(assets + script)}"></script>`] : []),
  ].join('\n');
  const body = script
    ? '<noscript>The console needs JavaScript.</noscript>'
    : '<main><h1>Security Investigation Service</h1><p>The console is not built on this deployment (npm run build:console).</p></main>';
  return template.replace('{{head}}', head).replace('{{body}}', body);
}

export async function consoleShell(layout: ConsoleFileLayout, publicUrl: string): Promise<string> {
  const [template, manifest] = await Promise.all([readShellTemplate(layout), readConsoleManifest(layout)]);
  return renderShell(template, manifest, publicUrl);
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
};

export async function consoleAsset(
  layout: ConsoleFileLayout,
  file: string,
): Promise<{ body: string; contentType: string }> {
  const manifest = await readConsoleManifest(layout);
  const content = await readConsoleAsset(layout, manifest, file);
  const contentType = CONTENT_TYPES[file.split('.').pop() ?? ''];
  if (!content || !contentType) throw new NotFoundError('No console asset with this name.');
  return { body: content.toString('utf8'), contentType };
}

export function consoleConfig(cfg: Config) {
  const signIn = consoleSignIn(cfg);
  if (!signIn) throw new NotFoundError('Console sign-in is not configured on this deployment.');
  const publicUrl = cfg.SIS_PUBLIC_URL.replace(/\/+$/, '');
  return {
    issuer: signIn.issuer,
    authorization_endpoint: `${signIn.loginUrl}/oauth2/authorize`,
    token_endpoint: `${signIn.loginUrl}/oauth2/token`,
    end_session_endpoint: `${signIn.loginUrl}/logout`,
    client_id: signIn.clientId,
    redirect_uri: `${publicUrl}/auth/callback`,
    post_logout_redirect_uri: `${publicUrl}/signed-out`,
    scopes: 'openid profile email',
  };
}

/** The shell page of this deployment, with its policy and the sign-in settings it allows. */
export async function servedConsoleShell(
  cfg: Config,
): Promise<{ html: string; contentSecurityPolicy: string }> {
  return {
    html: await consoleShell(consoleFileLayout(), cfg.SIS_PUBLIC_URL),
    contentSecurityPolicy: consoleContentSecurityPolicy(consoleSignIn(cfg)),
  };
}

/** A content-hashed asset of this deployment's console build. */
export function servedConsoleAsset(file: string): Promise<{ body: string; contentType: string }> {
  return consoleAsset(consoleFileLayout(), file);
}

/** Where `/console` sends a browser: the sessions page (absolute, as the stage is part of the URL on AWS). */
export function consoleHome(cfg: Config): string {
  return `${cfg.SIS_PUBLIC_URL.replace(/\/+$/, '')}/sessions`;
}
