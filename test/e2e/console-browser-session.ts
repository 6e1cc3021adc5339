import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildConsole } from '../../scripts/build-console';
import { FIXTURE_DIR } from '../support/feed-server';
import { startTestService, type TestService } from '../support/local-service';

/**
 * What console-browser.test.ts drives the console with: one Chromium (Debian's package, driven by
 * playwright-core) and one local service for the whole file, a fresh browser context per person,
 * sign-in through the local issuer's form, axe-core on every page, and the CSP violations and script
 * errors every page reported.
 */

export const ADMIN = { username: 'admin', password: 'e2e-admin-Passw0rd!' };
export const ANALYST = { username: 'analyst', password: 'e2e-analyst-Passw0rd!' };
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((path) => existsSync(path));
const SCREENSHOTS = process.env.SIS_CONSOLE_SCREENSHOTS;
/** The pages docs/console.md shows. */
const DOCUMENTED = [
  'sessions',
  'session',
  'session-sources',
  'session-allowlist-conflict',
  'sessions-batch',
  'incidents',
  'incident',
  'graph',
  'admin-keys',
  'admin-keys-secret',
  'admin-audit',
  'admin-connectors',
  'admin-feeds',
  'admin-webhooks',
  'admin-do-not-share',
  'admin-critical-assets',
];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** vitest's expect.poll gives up after 1 s by default; pages here wait on the service and the issuer. */
export const SOON = { timeout: 20_000, interval: 100 };

export let service: TestService;
let browser: Browser;
const contexts: BrowserContext[] = [];
export const cspViolations: string[] = [];
export const pageErrors: string[] = [];
/** Chromium's complaints about the Permissions-Policy header ("Unrecognized feature: …"). */
export const policyWarnings: string[] = [];
/** In the Feodo Tracker fixture (an online QakBot C2): the feed is consulted and reads it malicious. */
export const FEODO_LISTED_IP = '198.51.100.23';

export async function newPerson(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  contexts.push(context);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    if (/Permissions-Policy|Unrecognized feature/i.test(message.text())) policyWarnings.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/** Opens a console page; when the issuer asks, signs in through its form and comes back. */
export async function openSignedIn(page: Page, path: string, person: { username: string; password: string }) {
  await page.goto(`${service.baseUrl}${path}`);
  const username = page.getByLabel('Username');
  const heading = page.locator('main h1');
  // The console's "Signing you in…" page has a heading too, shown until it goes to the issuer.
  const signingIn = page.getByText('Signing you in…');
  await expect
    .poll(
      async () =>
        (await username.isVisible()) || ((await heading.isVisible()) && !(await signingIn.isVisible())),
      SOON,
    )
    .toBe(true);
  if (await username.isVisible()) {
    await username.fill(person.username);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.waitForURL((url) => url.pathname === path.split('?')[0]);
  await heading.waitFor();
}

export async function heading(page: Page): Promise<string> {
  return (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
}

/** axe-core on the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern (no inline script).
  // (These callbacks run in the page; the test project's types have no DOM, hence globalThis.)
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const win = globalThis as any;
    const result = await win.axe.run(win.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')),
    }));
  });
  const severe = violations.filter(
    (v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(severe, `axe on ${name}`).toEqual([]);
  if (SCREENSHOTS && DOCUMENTED.includes(name)) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }
}

export async function ingestIncident(): Promise<{ incidentId: string; link: string; title: string }> {
  const siem = await service.createKey({ name: 'siem', scopes: ['incidents:write', 'incidents:read'] });
  const title = 'Sign-in from anonymous IP followed by MFA fatigue for j.doe@contoso.example';
  const ingest = await service.call('POST', '/api/v1/incidents/ingest', {
    key: siem.apiKey,
    body: {
      incidents: [
        {
          source: 'sentinel',
          source_id: 'console-e2e-1',
          title,
          description: 'Repeated MFA prompts after a sign-in from an anonymising proxy.',
          severity: 'high',
          status: 'new',
          created_at: '2026-11-20T08:14:00Z',
          url: 'https://portal.azure.com/#incident/console-e2e-1',
          entities: [
            { type: 'ip', value: '203.0.113.66' },
            { type: 'user', value: 'j.doe@contoso.example' },
          ],
        },
        {
          source: 'sentinel',
          source_id: 'console-e2e-2',
          title: 'Low-severity port scan',
          severity: 'low',
          status: 'closed',
          created_at: '2026-11-19T08:14:00Z',
          entities: [{ type: 'ip', value: '198.51.100.9' }],
        },
      ],
    },
  });
  expect(ingest.status).toBe(202);
  await service.incidentQueue.idle();
  const listed = await service.call('GET', '/api/v1/incidents?severity=high', { key: siem.apiKey });
  const incident = listed.body.incidents.find((i: { source_id: string }) => i.source_id === 'console-e2e-1');
  return { incidentId: incident.incident_id, link: incident.link, title };
}

/** One Chromium and one local service for the whole file: registers the hooks that start and stop them. */
export function useConsoleBrowser(): void {
  beforeAll(startConsoleBrowser);
  afterAll(stopConsoleBrowser);
}

async function startConsoleBrowser(): Promise<void> {
  if (!CHROMIUM) {
    throw new Error('Chromium is missing: apt-get install chromium fonts-liberation (.ci/run installs it)');
  }
  // The tests exercise the current source, not a build left over from an earlier install.
  await buildConsole({ prune: false });
  service = await startTestService({
    env: {
      SIS_CONSOLE_ADMIN_PASSWORD: ADMIN.password,
      SIS_CONSOLE_ANALYST_PASSWORD: ANALYST.password,
      // One outside source, read from a file (no server): the session page's coverage list has a
      // consulted feed for an IP it lists, and no outside source for a domain or a user.
      SIS_FEED_FEODO_ENABLED: 'true',
      SIS_FEED_FEODO_URL: pathToFileURL(join(FIXTURE_DIR, 'feodo-ipblocklist.json')).href,
      // High incidents are investigated as they arrive: the incident page shows their verdicts.
      SIS_AUTO_INVESTIGATE_SEVERITY: 'high',
      // Admin > Webhooks delivers to a receiver on 127.0.0.1, retried after a second.
      SIS_WEBHOOK_ALLOW_LOOPBACK: 'true',
      SIS_WEBHOOK_RETRY_SCHEDULE: '1,1',
    },
  });
  await service.feedsStartup;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

async function stopConsoleBrowser(): Promise<void> {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await service?.stop();
}
