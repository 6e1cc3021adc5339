import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONNECTOR_NAMES } from '../../shared/domain/intel/names';
import {
  ANALYST,
  expectAccessible,
  heading,
  newPerson,
  openSignedIn,
  SOON,
  service,
} from './console-browser-session';

/**
 * The admin pages of console-browser.test.ts (Connectors, Feeds, Webhooks, Do not share, Critical
 * assets), registered into its describe so they share its one browser and one local service. `admin`
 * is the admin's page the file signed in first. A webhook receiver on 127.0.0.1 (the service runs with
 * SIS_WEBHOOK_ALLOW_LOOPBACK=true) answers 503 to a delivery's first attempt and 204 to the next.
 */
export function adminPagesCases(admin: () => Page): void {
  const attempts = new Map<string, number>();
  let receiver: Server;
  let receiverUrl = '';
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const id = String(request.headers['webhook-id']);
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        response.writeHead(attempt === 1 ? 503 : 204).end();
      });
    });
    await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/playbook`;
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise((done) => receiver?.close(done));
  });
  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  it('lists every connector with its status, TLP gate, quota, circuit, cache and how to enable it', async () => {
    const page = admin();
    await nav(page, 'Connectors');
    await expect.poll(() => heading(page), SOON).toBe('Threat-intelligence connectors');
    const table = page.getByRole('table', { name: 'Threat-intelligence connectors' });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(CONNECTOR_NAMES.length + 1);
    const abuseipdb = table.getByRole('row').filter({ hasText: 'intel_abuseipdb' });
    const cells = await abuseipdb.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('disabled');
    expect(cells[3]).toMatch(/^up to TLP:[A-Z+]+$/);
    expect(cells[4]).toMatch(/^0 \/ [\d,]+/);
    expect(cells[6]).toMatch(/^\d+ (day|days|h|min)$/);
    expect(cells[7]).toContain('Needs a key: set SIS_INTEL_ABUSEIPDB_API_KEY locally');
    const keyless = table.getByRole('row').filter({ hasText: 'No key needed' });
    expect(await keyless.count()).toBeGreaterThan(0);
    expect(await page.getByRole('status').first().textContent()).toContain('No connector is enabled');
    await expectAccessible(page, 'admin-connectors');
  });

  it('lets an analyst read the connectors, and only them of the admin pages', async () => {
    const analyst = await newPerson();
    await openSignedIn(analyst, '/admin/connectors', ANALYST);
    await expect.poll(() => heading(analyst), SOON).toBe('Threat-intelligence connectors');
    await analyst.getByRole('table', { name: 'Threat-intelligence connectors' }).waitFor();
    const adminNav = analyst.getByRole('list', { name: 'Admin' }).getByRole('link');
    expect(await adminNav.allTextContents()).toEqual(['Connectors']);
    await analyst.goto(`${service.baseUrl}/admin/webhooks`);
    await expect.poll(() => heading(analyst), SOON).toBe('Not allowed');
    expect((await service.call('GET', '/api/v1/console/admin/webhooks')).status).toBe(401);
  });

  it('explains a disabled feed and says what Refresh did, feed by feed', async () => {
    // The shared runtime enables FEODO (from a fixture file) and no other feed; the wording of a
    // refresh with nothing enabled is test/unit/feeds/feed-refresh-outcome.test.ts's.
    const page = admin();
    await nav(page, 'Feeds');
    await expect.poll(() => heading(page), SOON).toBe('Public threat feeds');
    const urlhaus = page.getByRole('row').filter({ hasText: 'URLHAUS' });
    await urlhaus.getByText('Set SIS_FEED_URLHAUS_ENABLED=true locally', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Refresh enabled feeds now' }).click();
    const result = page.getByRole('status', { name: 'Refresh result' });
    await expect.poll(() => result.textContent(), SOON).toContain('Refreshed 1 enabled feed: all OK.');
    expect(await result.textContent()).toContain('FEODO');
    expect(await result.textContent()).not.toContain('URLHAUS');
    await expectAccessible(page, 'admin-feeds');
  });

  it('creates a webhook (secret shown once), refuses unsafe and duplicate URLs, logs its deliveries, rotates and removes it', async () => {
    const page = admin();
    await nav(page, 'Webhooks');
    await expect.poll(() => heading(page), SOON).toBe('Webhooks');
    await page.getByText('No webhook yet.').waitFor();
    const form = page.getByRole('form', { name: 'Add a webhook' });
    await form.getByLabel('URL').fill('https://10.0.0.5/hooks');
    await form.getByLabel('Description').fill('XSOAR playbook');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent(), SOON)
      .toContain('must point at a public address');
    await form.getByLabel('URL').fill(receiverUrl);
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const panel = page.getByRole('region', { name: 'Webhook “XSOAR playbook” created' });
    await panel.waitFor();
    expect(await panel.getByRole('alert').textContent()).toContain('will not be shown again');
    const secret = await panel.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await panel.getByRole('button', { name: 'Copy secret' }).click();
    await panel.getByText('Copied to the clipboard.').waitFor();
    await expectAccessible(page, 'admin-webhooks-secret');
    await panel.getByRole('button', { name: 'I have stored the secret' }).click();
    await panel.waitFor({ state: 'detached' });
    const row = page
      .getByRole('table', { name: 'Webhooks' })
      .getByRole('row')
      .filter({ hasText: 'XSOAR playbook' });
    await row.getByText('active').waitFor();
    expect(await page.content()).not.toContain(secret);

    // The same URL and events again: the contract's 409, in the form; nothing more is listed.
    await form.getByLabel('URL').fill(receiverUrl);
    await form.getByLabel('Description').fill('XSOAR again');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent(), SOON)
      .toContain('A webhook with this URL and these events exists');
    expect(await page.getByRole('table', { name: 'Webhooks' }).getByRole('row').count()).toBe(2);

    // An investigation ends: its delivery fails once (503), is retried and delivered.
    const playbook = await service.createKey({ name: 'webhook playbook' });
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: playbook.apiKey,
      body: { entity: '198.51.100.77', background: true },
    });
    expect(started.status).toBe(202);
    await service.stepFunctions.idle();
    await row.getByRole('button', { name: 'Deliveries of XSOAR playbook' }).click();
    const log = page.getByRole('table', { name: 'Deliveries of XSOAR playbook, newest first' });
    const deliveries = page.getByRole('region', { name: 'Deliveries of “XSOAR playbook”' });
    await expect
      .poll(
        async () => {
          await deliveries.getByRole('button', { name: 'Reload deliveries' }).click();
          return (
            await log
              .getByRole('row')
              .nth(1)
              .getByRole('cell')
              .allTextContents()
              .catch(() => [])
          ).slice(0, 4);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual(['investigation.completed', 'delivered', '2', '204']);
    await expectAccessible(page, 'admin-webhooks');

    await row.getByRole('button', { name: 'Rotate secret of XSOAR playbook' }).click();
    await row.getByRole('button', { name: 'Rotate secret', exact: true }).click();
    const rotated = page.getByRole('region', { name: 'New secret of “XSOAR playbook”' });
    const second = await rotated.getByLabel('Signing secret').inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(secret);
    await rotated.getByRole('button', { name: 'I have stored the secret' }).click();
    await expect.poll(() => row.getByRole('cell').nth(6).textContent(), SOON).toMatch(/UTC$/);
    expect(await page.content()).not.toContain(second);

    await row.getByRole('button', { name: 'Remove XSOAR playbook' }).click();
    await row.getByRole('button', { name: 'Remove webhook' }).click();
    await page.getByText('No webhook yet.').waitFor();
  });

  it('marks an entity do not share, lists it, and lowers the mark, each audited', async () => {
    const page = admin();
    await nav(page, 'Allowlist');
    const section = page.getByRole('region', { name: 'Do not share' });
    await section.getByText('No entity is marked do not share.').waitFor();
    const form = section.getByRole('form', { name: 'Mark an entity do not share' });
    await form.getByLabel('Type').selectOption('domain');
    await form.getByLabel('Value').fill('Payroll.Contoso.com');
    await form.getByLabel('Reason').fill('Internal codename, under NDA');
    await form.getByRole('button', { name: 'Mark do not share' }).click();
    const marks = section.getByRole('table', { name: 'Do-not-share marks, newest first' });
    const row = marks.getByRole('row').filter({ hasText: 'payroll.contoso.com' });
    await row.waitFor();
    expect(await row.textContent()).toContain('user:admin');
    // The same entity again: the contract's 409 in the form.
    await form.getByLabel('Value').fill('payroll.contoso.com');
    await form.getByLabel('Reason').fill('Twice');
    await form.getByRole('button', { name: 'Mark do not share' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent(), SOON)
      .toBe('domain payroll.contoso.com is already marked do not share.');
    // API keys' graph answers now withhold it.
    const listed = await service.call('GET', '/api/v1/admin/do-not-share', { key: service.adminKey });
    expect(listed.body.marks.map((m: { value: string }) => m.value)).toEqual(['payroll.contoso.com']);
    await expectAccessible(page, 'admin-do-not-share');
    await row.getByRole('button', { name: 'Lower the mark on payroll.contoso.com' }).click();
    await section.getByText('No entity is marked do not share.').waitFor();

    await nav(page, 'Audit');
    const audit = page.getByRole('table', { name: 'Audit trail, newest first' });
    await audit.waitFor();
    const actions = (await audit.textContent()) ?? '';
    expect(actions).toContain('do not share markdomain:payroll.contoso.com');
    expect(actions).toContain('do not share lowerdomain:payroll.contoso.com');
  });

  it('declares a critical asset, lists it, refuses an invisible character in the owner, and removes it', async () => {
    const page = admin();
    await nav(page, 'Critical assets');
    await expect.poll(() => heading(page), SOON).toBe('Critical assets');
    await page.getByText('No critical asset is declared.').waitFor();
    const form = page.getByRole('form', { name: 'Declare a critical asset' });
    await form.getByLabel('Type').selectOption('host');
    await form.getByLabel('Value').fill('DC01.corp.contoso.example');
    await form.getByLabel('Criticality').selectOption('critical');
    // A zero-width space hides in the owner: the service's 400, in the form; nothing is listed.
    await form.getByLabel('Owner').fill('Identity\u200b team');
    await form.getByLabel('Reason').fill('Domain controller for corp.contoso.example');
    await form.getByRole('button', { name: 'Declare critical' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent(), SOON)
      .toContain('owner contains control or invisible formatting characters');
    expect(await page.getByRole('table', { name: 'Critical assets, newest first' }).count()).toBe(0);
    await form.getByLabel('Owner').fill('Identity team (on-call +1 555 0100)');
    await form.getByRole('button', { name: 'Declare critical' }).click();
    const assets = page.getByRole('table', { name: 'Critical assets, newest first' });
    const row = assets.getByRole('row').filter({ hasText: 'dc01.corp.contoso.example' });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'host',
      'dc01.corp.contoso.example',
      'critical',
      'Identity team (on-call +1 555 0100)',
      'Domain controller for corp.contoso.example',
      expect.stringMatching(/ by user:admin$/),
      'Remove dc01.corp.contoso.example',
    ]);
    const listed = await service.call('GET', '/api/v1/admin/critical-assets', { key: service.adminKey });
    expect(listed.body.assets).toMatchObject([
      { value: 'dc01.corp.contoso.example', added_by: 'user:admin' },
    ]);
    await expectAccessible(page, 'admin-critical-assets');
    await row.getByRole('button', { name: 'Remove dc01.corp.contoso.example' }).click();
    await row.getByRole('button', { name: 'Remove asset' }).click();
    await page.getByText('No critical asset is declared.').waitFor();
    const after = await service.call('GET', '/api/v1/admin/critical-assets', { key: service.adminKey });
    expect(after.body.assets).toEqual([]);
  });
}
