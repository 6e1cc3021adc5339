import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminPagesCases } from './console-browser-admin-pages';
import {
  ADMIN,
  ANALYST,
  cspViolations,
  expectAccessible,
  heading,
  ingestIncident,
  newPerson,
  openSignedIn,
  pageErrors,
  policyWarnings,
  SOON,
  service,
  useConsoleBrowser,
} from './console-browser-session';
import { sessionListCases } from './console-browser-session-lists';

/**
 * The web console in a real Chromium (Debian's package, driven by playwright-core) against the whole
 * local runtime: people sign in through the local OpenID Connect issuer's form and click through the
 * pages as they would. Assertions read text and ARIA roles, never pixels; axe-core checks every page
 * for serious and critical accessibility violations; any Content-Security-Policy violation fails.
 *
 * One browser and one service for the whole file; each person gets a fresh browser context.
 * `SIS_CONSOLE_SCREENSHOTS=docs/console npx vitest run test/e2e/console-browser.test.ts` also writes
 * the screenshots used in docs/console.md.
 */

useConsoleBrowser();

describe('web console in Chromium', () => {
  let admin: Page;

  it('signs an admin in through the issuer and follows a running investigation to its report', async () => {
    admin = await newPerson();
    await openSignedIn(admin, '/sessions', ADMIN);
    await expect.poll(() => heading(admin), SOON).toBe('Investigations');
    await expect.poll(() => admin.getByText('No investigations yet.').isVisible(), SOON).toBe(true);
    const nav = admin.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'API keys' }).waitFor();
    await expectAccessible(admin, 'sessions-empty');

    const polls: Array<{ url: string; status: string }> = [];
    admin.on('response', async (response) => {
      if (!/\/api\/v1\/console\/sessions\/s_[^/?]+(\?|$)/.test(response.url())) return;
      const body = await response.json().catch(() => null);
      polls.push({ url: response.url(), status: body?.session?.status ?? `HTTP ${response.status()}` });
    });
    await admin.getByLabel('Entity', { exact: true }).fill('paypa1-login.com');
    await admin.getByLabel('Persona').selectOption('SOC Analyst');
    await admin.getByLabel('TLP').selectOption('amber+strict');
    await admin.getByRole('button', { name: 'Investigate' }).click();
    await admin.waitForURL(/\/sessions\/s_/);
    const sessionPath = new URL(admin.url()).pathname;
    await expect.poll(() => heading(admin), SOON).toBe('Investigation of paypa1-login.com');

    const status = admin.getByRole('status').filter({ hasText: /^(initialized|active|completed)$/ });
    await expect.poll(() => status.textContent(), { timeout: 60_000, interval: 250 }).toBe('completed');
    await admin.getByRole('heading', { name: 'Report', level: 2 }).waitFor();

    // It followed the run: polls while it ran, each later one only asking for what was new, none after the end.
    expect(polls[0]?.status).toMatch(/^(initialized|active)$/);
    expect(polls.at(-1)?.status).toBe('completed');
    expect(polls.slice(1).every((p) => new URL(p.url).searchParams.has('after'))).toBe(true);
    const pollsAtEnd = polls.length;
    await admin.waitForTimeout(3_500);
    expect(polls.length).toBe(pollsAtEnd);

    const main = admin.getByRole('main');
    await main.getByRole('table', { name: 'Points each finding added to the risk score' }).waitFor();
    await main.getByText('TLP:AMBER+STRICT', { exact: true }).waitFor();
    expect(await main.getByText(/^Verdict\s/).textContent()).toContain('malicious');
    const risk = (await main.locator('.risk').textContent()) ?? '';
    expect(risk).toMatch(/^\d+$/);
    // Who started it, by name (the signed-in person's console username), not by ID.
    const startedBy = main.locator('dt', { hasText: /^Started by$/ }).locator('xpath=following-sibling::dd');
    expect(await startedBy.textContent()).toBe('admin (person)');
    const finding = main.getByRole('article').filter({ hasText: 'Look-alike spelling of PayPal' });
    expect(await finding.getByRole('heading', { level: 3 }).textContent()).toContain('high');
    await finding.getByRole('heading', { name: 'Evidence' }).waitFor();
    await finding.getByText('paypal.com', { exact: true }).waitFor();
    const attack = finding.getByRole('list', { name: 'MITRE ATT&CK techniques' }).getByRole('link');
    expect(await attack.first().getAttribute('href')).toMatch(
      /^https:\/\/attack\.mitre\.org\/techniques\/T\d{4}/,
    );
    // The STIX export arrives as a file: the console route's bundle for this session.
    const sessionId = sessionPath.split('/').at(-1) ?? '';
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      main.getByRole('button', { name: 'Download STIX 2.1 bundle' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${sessionId}.stix.json`);
    const bundle = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(bundle.type).toBe('bundle');
    const stixReport = bundle.objects.find((o: { type: string }) => o.type === 'report');
    expect(stixReport.external_references[0].external_id).toBe(sessionId);
    expect(await main.getByText('No STIX export is available').count()).toBe(0);
    await main
      .getByRole('link', { name: /domain paypal\.com/i })
      .first()
      .waitFor();
    const timeline = main.getByRole('log', { name: 'Investigation timeline' });
    expect(await timeline.textContent()).toContain('Report ready');
    await main
      .getByRole('table', { name: 'Tool calls' })
      .getByText('domain_analysis', { exact: true })
      .waitFor();
    // The coverage list: every source by kind; Feodo is an IP list, so no outside source spoke here.
    const coverage = main.getByRole('region', { name: 'Sources consulted' });
    await coverage.getByRole('table', { name: /^Tenant-internal tools \(\d+ of \d+ consulted\)$/ }).waitFor();
    const feeds = coverage.getByRole('table', { name: /^Feeds / });
    expect(await feeds.getByRole('row').filter({ hasText: 'FEODO' }).textContent()).not.toContain(
      'consulted',
    );
    expect(await feeds.getByRole('row').filter({ hasText: 'SPAMHAUS_DROP' }).textContent()).toContain(
      'disabled',
    );
    expect(await coverage.getByTestId('no-outside-source').textContent()).toMatch(
      /^No outside source was consulted: \d+ tenant-internal tools? read the tenant's own data only/,
    );
    // Each tool's raw output, collapsed until asked for.
    const raw = main.locator('details.raw-output');
    expect(await raw.count()).toBeGreaterThan(0);
    expect(await main.locator('details.raw-output[open]').count()).toBe(0);
    expect(await raw.first().locator('pre').isVisible()).toBe(false);
    await raw.first().getByText('Raw output').click();
    await expect.poll(() => raw.first().locator('pre').textContent(), SOON).toContain('"facts"');
    await raw.first().getByText('Raw output').click();
    // The run's findings are dated; the live panels say "now".
    expect(await main.getByRole('heading', { name: /^Findings \(\d+\) as of the run \d{4}-/ }).count()).toBe(
      1,
    );
    // The neighbourhood is drawn (graph chunk loaded on this page only) and listed for keyboards.
    await main.locator('.graph-canvas canvas').first().waitFor();
    await main.getByRole('img', { name: /Graph of paypa1-login\.com/ }).waitFor();
    await expectAccessible(admin, 'session');

    // The list shows it; the graph page pivots to a neighbour by its link.
    await admin
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Investigations' })
      .click();
    const row = admin.getByRole('row').filter({ hasText: 'paypa1-login.com' });
    await row.getByText('completed').waitFor();
    expect(await row.getByRole('link').getAttribute('href')).toBe(sessionPath);
    await admin.goBack();
    await admin.getByRole('link', { name: 'Explore paypa1-login.com in the knowledge graph' }).click();
    await expect.poll(() => heading(admin), SOON).toBe('Knowledge graph: paypa1-login.com');
    await admin
      .getByRole('table')
      .getByRole('link', { name: /paypal\.com/ })
      .click();
    await expect.poll(() => heading(admin), SOON).toBe('Knowledge graph: paypal.com');
    await admin
      .getByRole('table')
      .getByRole('link', { name: /paypa1-login\.com/ })
      .waitFor();
    // The investigated neighbour carries its score (its node's colour in the drawing); the legend
    // names the scale and the grey of entities no investigation scored.
    const neighbour = admin.getByRole('row').filter({ hasText: 'paypa1-login.com' });
    const columns = await admin.getByRole('columnheader').allTextContents();
    expect(await neighbour.getByRole('cell').nth(columns.indexOf('Risk')).textContent()).toBe(risk);
    const legend = (await admin.locator('.graph-legend').textContent()) ?? '';
    expect(legend).toContain('high risk');
    expect(legend).toContain('not scored');
    await admin.locator('.graph-canvas canvas').first().waitFor();
    await expectAccessible(admin, 'graph');
  });

  it('cancels a running investigation from its page', async () => {
    await admin
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Investigations' })
      .click();
    await admin.getByLabel('Entity', { exact: true }).fill('cancel-me.example.com');
    await admin.getByRole('button', { name: 'Investigate' }).click();
    await admin.waitForURL(/\/sessions\/s_/);
    const canceled = admin.waitForResponse((r) => r.url().endsWith('/cancel'));
    // The button is there only while the page has seen the run going.
    await admin.getByRole('button', { name: 'Cancel investigation' }).click();
    const answer = await canceled;
    const status = admin.getByRole('status').filter({ hasText: /^(initialized|active|completed|canceled)$/ });
    // A run can finish between the last poll and the click: the service answers 409 and the page
    // shows how it ended instead of an error.
    const ending = answer.status() === 200 ? 'canceled' : 'completed';
    if (ending === 'completed') expect(answer.status()).toBe(409);
    await expect.poll(() => status.textContent(), { timeout: 30_000, interval: 100 }).toBe(ending);
    expect(await admin.getByRole('button', { name: 'Cancel investigation' }).count()).toBe(0);
    expect(await admin.getByRole('alert').count()).toBe(0);
  });

  it("opens an incident's link, shows its entities and SIEM link, and investigates an entity", async () => {
    const incident = await ingestIncident();
    expect(incident.link).toBe(`${service.baseUrl}/incidents/${incident.incidentId}`);
    // A high incident: each entity was investigated as it arrived (SIS_AUTO_INVESTIGATE_SEVERITY).
    await service.stepFunctions.idle();
    // The link as Security Copilot shows it: a new page load, signed in again without a prompt.
    await admin.goto(incident.link);
    await expect.poll(() => heading(admin), SOON).toBe(incident.title);
    // A pushed incident's link is the pusher's word, not the SIEM's: shown as external, with its origin.
    const external = admin.getByTestId('incident-external-link');
    await expect.poll(() => external.textContent(), SOON).toContain('External link, given by');
    expect(await admin.getByRole('link', { name: 'Open in sentinel (SIEM)' }).count()).toBe(0);
    expect(await external.getByRole('link').getAttribute('href')).toBe(
      'https://portal.azure.com/#incident/console-e2e-1',
    );
    const entities = admin.getByRole('table', { name: 'Entities involved in the incident' });
    await entities.getByText('j.doe@contoso.example', { exact: true }).waitFor();
    const ipRow = entities.getByRole('row').filter({ hasText: '203.0.113.66' });
    const report = ipRow.getByRole('link', { name: 'Report of the investigation of 203.0.113.66' });
    await expect.poll(() => report.count(), SOON).toBe(1);
    expect(await ipRow.locator('.badge').textContent()).toMatch(/^(benign|suspicious|malicious|unknown)$/);
    expect(await ipRow.getByRole('cell').nth(2).textContent()).toMatch(/^\d+$/);
    expect(await report.getAttribute('href')).toMatch(/\/sessions\/s_/);
    await expectAccessible(admin, 'incident');

    await admin.getByRole('link', { name: 'All incidents' }).click();
    await expect.poll(() => heading(admin), SOON).toBe('Incidents');
    const list = admin.getByRole('table', { name: 'Incidents, newest first' });
    await list.waitFor();
    expect(await list.getByRole('row').count()).toBe(3);
    await admin.getByRole('group', { name: 'Severity' }).getByLabel('high').check();
    await admin.getByRole('button', { name: 'Apply filters' }).click();
    await admin.waitForURL(/severity=high/);
    await expect.poll(() => list.getByRole('row').count(), SOON).toBe(2);
    await list.getByRole('link', { name: incident.title }).waitFor();
    await expectAccessible(admin, 'incidents');

    await list.getByRole('link', { name: incident.title }).click();
    await entities.waitFor();
    await entities.getByRole('button', { name: 'Investigate 203.0.113.66' }).click();
    await admin.waitForURL(/\/sessions\/s_/);
    await expect.poll(() => heading(admin), SOON).toBe('Investigation of 203.0.113.66');
    const status = admin.getByRole('status').filter({ hasText: /^(initialized|active|completed)$/ });
    await expect.poll(() => status.textContent(), { timeout: 60_000, interval: 250 }).toBe('completed');
    // The incident the findings and recommendations name by ID is shown by its title.
    const titled = admin.getByRole('main').getByRole('link', { name: incident.title });
    await expect.poll(() => titled.count(), SOON).toBeGreaterThan(0);
    expect(await titled.first().getAttribute('title')).toBe(incident.incidentId);
  });

  it('creates a key (secret shown once), rotates it with a chosen grace period and disables it', async () => {
    await service.createKey({ name: 'nearly expired', scopes: ['graph:read'], expires_in_days: 5 });
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => heading(admin), SOON).toBe('API keys');
    const keys = admin.getByRole('table', { name: 'API keys, oldest first' });
    const nearlyExpired = keys.getByRole('row').filter({ hasText: 'nearly expired' });
    await nearlyExpired.getByText('expires soon').waitFor();

    await admin.getByLabel('Name', { exact: true }).fill('Splunk forwarder');
    await admin.getByLabel('Description').fill('Pushes notable events, owned by the SIEM team');
    const scopes = admin.getByRole('group', { name: 'Scopes' });
    await scopes.getByLabel('incidents:write').check();
    await scopes.getByLabel('incidents:read').check();
    await admin.getByLabel('Expires after').selectOption('30');
    await admin.getByRole('button', { name: 'Create key' }).click();

    const secretPanel = admin.getByRole('region', { name: 'Key “Splunk forwarder” created' });
    await secretPanel.waitFor();
    expect(await secretPanel.getByRole('alert').textContent()).toContain('will not be shown again');
    const secret = await secretPanel.getByLabel('API key').inputValue();
    await expectAccessible(admin, 'admin-keys-secret');
    expect(secret).toMatch(/^sis_[a-z2-7]{16}_/);
    // The shell lets the page write the clipboard (and nothing else the policy turns off by default).
    const policy = (await fetch(`${service.baseUrl}/admin/keys`)).headers.get('permissions-policy') ?? '';
    expect(policy).toContain('clipboard-write=(self)');
    expect(policy).toContain('clipboard-read=()');
    await secretPanel.getByRole('button', { name: 'Copy key' }).click();
    await secretPanel.getByText('Copied to the clipboard.').waitFor();
    // Pasted where a person would paste it (reading the clipboard from script is not allowed here).
    const search = admin.getByLabel('Search keys');
    await search.focus();
    await admin.keyboard.press('Control+V');
    expect(await search.inputValue()).toBe(secret);
    await search.fill('');
    // The secret works, with exactly the scopes chosen.
    expect((await service.call('GET', '/api/v1/incidents', { key: secret })).status).toBe(200);
    expect((await service.call('GET', '/api/v1/graph/entity/paypal.com', { key: secret })).status).toBe(403);

    await secretPanel.getByRole('button', { name: 'I have stored the key' }).click();
    await secretPanel.waitFor({ state: 'detached' });
    const row = keys.getByRole('row').filter({ hasText: 'Splunk forwarder' });
    await row.waitFor();
    const prefix = (await row.getByRole('cell').nth(0).textContent()) ?? '';
    expect(secret.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(secret.length);
    expect(await admin.content()).not.toContain(secret);
    await row.getByText('active').waitFor();
    await expectAccessible(admin, 'admin-keys');

    await row.getByRole('button', { name: 'Rotate Splunk forwarder' }).click();
    const rotate = admin.getByRole('form', { name: 'Rotate Splunk forwarder' });
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    expect(await rotate.getByRole('alert').textContent()).toContain('Choose how long');
    await rotate.getByLabel('1 hour').check();
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    const rotatedPanel = admin.getByRole('region', { name: 'Key “Splunk forwarder” rotated' });
    const rotated = await rotatedPanel.getByLabel('API key').inputValue();
    expect(rotated).not.toBe(secret);
    expect(rotated.slice(0, 21)).toBe(secret.slice(0, 21)); // same key_id
    await rotatedPanel.getByRole('button', { name: 'I have stored the key' }).click();
    await expect.poll(() => row.getByRole('cell').nth(7).textContent(), SOON).toMatch(/UTC$/); // grace ends (after the investigation caps and status)
    // Within the grace hour both secrets work.
    expect((await service.call('GET', '/api/v1/incidents', { key: secret })).status).toBe(200);
    expect((await service.call('GET', '/api/v1/incidents', { key: rotated })).status).toBe(200);

    await row.getByRole('button', { name: 'Disable Splunk forwarder' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Disable “Splunk forwarder”?' });
    await dialog.waitFor();
    await expectAccessible(admin, 'admin-keys-disable');
    await dialog.getByRole('button', { name: 'Disable key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.getByText('disabled').isVisible(), SOON).toBe(true);
    expect(await row.getByRole('button', { name: /Rotate/ }).count()).toBe(0);
    expect((await service.call('GET', '/api/v1/incidents', { key: rotated })).status).toBe(401);
    expect((await service.call('GET', '/api/v1/incidents', { key: secret })).status).toBe(401);

    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await expect.poll(() => heading(admin), SOON).toBe('Audit trail');
    const keyId = secret.slice(4, 20);
    const audit = admin.getByRole('table', { name: 'Audit trail, newest first' });
    await audit.waitFor();
    expect(await audit.getByRole('row').filter({ hasText: keyId }).count()).toBeGreaterThanOrEqual(3);
    await expectAccessible(admin, 'admin-audit');
  });

  it('keeps the allowlist and reviews a verdict from the session page', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Allowlist' }).click();
    await expect.poll(() => heading(admin), SOON).toBe('Allowlist');
    await admin.getByText('The allowlist is empty.').waitFor();
    const form = admin.getByRole('form', { name: 'Add an entry' });
    await form.getByLabel('Type').selectOption('cidr');
    await form.getByLabel('Value').fill('10.0.0.0/7');
    await form.getByLabel('Reason').fill('Too wide');
    await form.getByRole('button', { name: 'Add to the allowlist' }).click();
    await expect.poll(() => form.getByRole('alert').textContent(), SOON).toContain('/7 is wider than /8');
    await form.getByLabel('Value').fill('10.20.0.0/16');
    await form.getByLabel('Reason').fill('Branch office');
    await form.getByRole('button', { name: 'Add to the allowlist' }).click();
    const entries = admin.getByRole('table', { name: 'Allowlist entries, newest first' });
    const row = entries.getByRole('row').filter({ hasText: '10.20.0.0/16' });
    await row.waitFor();
    expect(await row.textContent()).toContain('user:admin');
    await expectAccessible(admin, 'admin-allowlist');
    await row.getByRole('button', { name: /Remove/ }).click();
    await admin.getByText('The allowlist is empty.').waitFor();

    // The earlier investigation's page offers the review; the latest review is quoted by later runs.
    await admin
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Investigations' })
      .click();
    await admin.getByRole('row').filter({ hasText: 'paypa1-login.com' }).first().getByRole('link').click();
    const review = admin.getByRole('region', { name: 'Review this verdict' });
    await review.waitFor();
    await review.getByLabel('Comment').fill('Red-team exercise domain');
    await review.getByRole('button', { name: 'Mark as false positive' }).click();
    await expect
      .poll(() => review.getByRole('status').textContent(), SOON)
      .toContain('Recorded: false positive by user:admin');
    await expectAccessible(admin, 'session-reviewed');
  });

  it('shows an analyst no admin navigation and refuses the admin pages', async () => {
    const analyst = await newPerson();
    await openSignedIn(analyst, '/admin/keys', ANALYST);
    await expect.poll(() => heading(analyst), SOON).toBe('Not allowed');
    expect(await analyst.getByRole('alert').textContent()).toContain('for administrators');
    expect(await analyst.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await analyst.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    expect(await analyst.getByRole('link', { name: 'Allowlist' }).count()).toBe(0);
    await analyst.getByText('Signed in as analyst (analyst)').waitFor();
    await expectAccessible(analyst, 'analyst-refused');
    await analyst.goto(`${service.baseUrl}/admin/audit`);
    await expect.poll(() => heading(analyst), SOON).toBe('Not allowed');
    // Analysts see every session of the tenant, the admin's included.
    await analyst
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Investigations' })
      .click();
    await analyst.getByRole('row').filter({ hasText: 'paypa1-login.com' }).waitFor();
    await expectAccessible(analyst, 'sessions');

    await analyst.getByRole('button', { name: 'Sign out' }).click();
    // The local issuer asks to confirm (Cognito's /logout does not).
    const confirm = analyst.getByRole('button', { name: /sign me out/i });
    await expect
      .poll(async () => analyst.url().endsWith('/signed-out') || (await confirm.isVisible()), SOON)
      .toBe(true);
    if (await confirm.isVisible()) await confirm.click();
    await analyst.waitForURL(/\/signed-out$/);
    await expect.poll(() => heading(analyst), SOON).toBe('You are signed out');
    await expectAccessible(analyst, 'signed-out');
  });

  sessionListCases(() => admin);

  adminPagesCases(() => admin);

  it('ran every page without a CSP violation, a script error or a Permissions-Policy warning', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(policyWarnings).toEqual([]);
  });
});
