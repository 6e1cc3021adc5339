import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleIdentity } from '../../../shared/domain/keys/console-identity';
import { consoleFileLayout, readShellTemplate } from '../../../shared/platform/console-files';
import {
  consoleAsset,
  consoleContentSecurityPolicy,
  renderShell,
} from '../../../shared/services/console/console-pages';

describe('the console shell and assets', () => {
  it('references the built entry script and styles under the stage path, with no inline script', async () => {
    const template = await readShellTemplate(consoleFileLayout({}));
    const html = renderShell(
      template,
      { 'app.js': 'app.ABC123.js', 'app.css': 'app.DEF456.css' },
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod',
    );
    expect(html).toContain('<script type="module" src="/prod/console/assets/app.ABC123.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/prod/console/assets/app.DEF456.css">');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
    expect(html).toContain('<div id="app">');
    // The icon is inline (the CSP allows img-src data:), so browsers ask for no /favicon.ico.
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,%3Csvg%20/);
  });

  it('serves only files the manifest names, on Lambda from the copied bundle folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sis-console-'));
    const layout = consoleFileLayout({ LAMBDA_TASK_ROOT: root });
    expect(layout.distDir).toBe(join(root, 'console-dist'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(layout.distDir);
    writeFileSync(join(layout.distDir, 'manifest.json'), JSON.stringify({ 'app.js': 'app.ABC123.js' }));
    writeFileSync(join(layout.distDir, 'app.ABC123.js'), 'export {};');
    writeFileSync(join(layout.distDir, 'secret.js'), 'nope');
    await expect(consoleAsset(layout, 'app.ABC123.js')).resolves.toEqual({
      body: 'export {};',
      contentType: 'text/javascript; charset=utf-8',
    });
    await expect(consoleAsset(layout, 'secret.js')).rejects.toThrow(/No console asset/);
  });

  it('lets the page reach only its own origin and the sign-in origins, and never be framed', () => {
    const csp = consoleContentSecurityPolicy({
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
      loginUrl: 'https://acme-sis.auth.eu-west-1.amazoncognito.com',
      clientId: 'client',
    });
    expect(csp).toContain(
      "connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com https://acme-sis.auth.eu-west-1.amazoncognito.com",
    );
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self';");
  });
});

describe('console roles from ID token claims', () => {
  const base = { sub: 'abc', token_use: 'id', 'cognito:username': 'jane' };
  it('maps groups to roles, admins first, and refuses tokens that are not ID tokens', () => {
    expect(consoleIdentity({ ...base, 'cognito:groups': ['analysts', 'admins'] })).toMatchObject({
      ok: true,
      user: { role: 'admin', username: 'jane' },
    });
    expect(consoleIdentity({ ...base, 'cognito:groups': ['analysts'] })).toMatchObject({
      ok: true,
      user: { role: 'analyst' },
    });
    expect(consoleIdentity({ ...base, 'cognito:groups': ['other'] })).toEqual({
      ok: false,
      reason: 'no_console_group',
    });
    expect(consoleIdentity({ ...base, token_use: 'access', 'cognito:groups': ['admins'] })).toEqual({
      ok: false,
      reason: 'not_id_token',
    });
  });
});
