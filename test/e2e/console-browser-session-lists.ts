import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { expectAccessible, FEODO_LISTED_IP, heading, SOON, service } from './console-browser-session';

/**
 * The lists and attributions of console-browser.test.ts (paging with Show more, who started a
 * session, the outside sources a run consulted, "(MCP)" and the batch filter), registered into its
 * describe so they share its one browser and one local service. `page` is the admin's page the file
 * signed in first.
 */
export function sessionListCases(page: () => Page): void {
  it('pages through a long list with Show more, and starts over when the filters change', async () => {
    const admin = page();
    const siem = await service.createKey({ name: 'paging siem', scopes: ['incidents:write'] });
    // 30 low incidents: a first page of 25 (the console's page size), then 5 more.
    const incidents = Array.from({ length: 30 }, (_, i) => ({
      source: 'custom',
      source_id: `console-paging-${i}`,
      title: `Paging incident ${i}`,
      severity: 'low',
      status: 'new',
      created_at: `2026-11-10T08:${String(i).padStart(2, '0')}:00Z`,
      entities: [],
    }));
    const ingest = await service.call('POST', '/api/v1/incidents/ingest', {
      key: siem.apiKey,
      body: { incidents },
    });
    expect(ingest.body).toMatchObject({ accepted: 30, rejected: 0 });
    await service.incidentQueue.idle();

    // A day no other incident of the file (nor the local demo data) was raised on.
    await admin.goto(`${service.baseUrl}/incidents?severity=low&since=2026-11-10&until=2026-11-11`);
    const table = admin.getByRole('table', { name: 'Incidents, newest first' });
    const rows = table.getByRole('row').filter({ hasText: 'Paging incident' });
    await expect.poll(() => rows.count(), SOON).toBe(25);
    await admin.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => rows.count(), SOON).toBe(30);
    expect(await admin.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    expect(await rows.first().textContent()).toContain('Paging incident 29'); // newest first

    // Other filters: the list starts over from its own first page.
    await admin.getByRole('checkbox', { name: 'low' }).uncheck();
    await admin.getByRole('checkbox', { name: 'high' }).check();
    await admin.getByLabel('From (UTC)').fill('');
    await admin.getByLabel('Before (UTC)').fill('');
    await admin.getByRole('button', { name: 'Apply filters' }).click();
    await admin.waitForURL((url) => url.search === '?severity=high');
    await table.getByRole('row').filter({ hasText: 'MFA fatigue' }).waitFor();
    expect(await rows.count()).toBe(0);
    expect(await admin.getByRole('button', { name: 'Show more' }).count()).toBe(0);
  });

  it('names the API key that started a session, on its page and in the list', async () => {
    const admin = page();
    const playbook = await service.createKey({ name: 'SOAR playbook' });
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: playbook.apiKey,
      body: { entity: '198.51.100.44', background: true },
    });
    expect(started.status).toBe(202);
    await service.stepFunctions.idle();
    await admin.goto(`${service.baseUrl}/sessions/${started.body.session_id}`);
    await expect.poll(() => heading(admin), SOON).toBe('Investigation of 198.51.100.44');
    const startedBy = admin
      .getByRole('main')
      .locator('dt', { hasText: /^Started by$/ })
      .locator('xpath=following-sibling::dd');
    await expect.poll(() => startedBy.textContent(), SOON).toBe('SOAR playbook (API key)');
    expect(await startedBy.locator('span[title]').first().getAttribute('title')).toBe(
      `API key ${playbook.keyId}`,
    );
    await admin
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Investigations' })
      .click();
    const row = admin.getByRole('row').filter({ hasText: '198.51.100.44' });
    await expect.poll(() => row.textContent(), SOON).toContain('SOAR playbook (API key)');
  });

  it('lists the outside sources a run consulted, and states an allowlist conflict', async () => {
    const admin = page();
    const playbook = await service.createKey({ name: 'Sources playbook' });
    const start = async () => {
      const started = await service.call('POST', '/api/v1/investigations/start', {
        key: playbook.apiKey,
        body: { entity: FEODO_LISTED_IP, background: true },
      });
      expect(started.status).toBe(202);
      await service.stepFunctions.idle();
      await admin.goto(`${service.baseUrl}/sessions/${started.body.session_id}`);
      await admin.getByRole('heading', { name: 'Report', level: 2 }).waitFor();
      return admin.getByRole('main');
    };
    let main = await start();
    const feeds = main.getByRole('table', { name: /^Feeds \(1 of \d+ consulted\)$/ });
    const feodo = feeds.getByRole('row').filter({ hasText: 'FEODO' });
    await expect.poll(() => feodo.textContent(), SOON).toContain('consulted');
    expect(await feodo.textContent()).toContain('malicious');
    expect(await main.getByTestId('no-outside-source').count()).toBe(0);
    await expectAccessible(admin, 'session-sources');

    const allowed = await service.call('POST', '/api/v1/admin/allowlist', {
      key: service.adminKey,
      body: { type: 'ip', value: FEODO_LISTED_IP, reason: 'Red-team C2 of the exercise' },
    });
    expect(allowed.status).toBe(201);
    main = await start();
    await main
      .getByRole('heading', { name: /Conflict: the tenant's word overrides evidence of risk/ })
      .waitFor();
    expect(await main.locator('.score').textContent()).toContain('benign');
    expect(await feeds.getByRole('row').filter({ hasText: 'FEODO' }).textContent()).toContain('malicious');
    await expectAccessible(admin, 'session-allowlist-conflict');
  });

  it('shows (MCP) beside sessions started over MCP and filters the list by batch', async () => {
    const admin = page();
    const assistant = await service.createKey({ name: 'Copilot over MCP' });
    const called = await service.call('POST', '/api/v1/mcp', {
      key: assistant.apiKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'investigate_entity', arguments: { type: 'ip', value: '198.51.100.45' } },
      },
    });
    expect(called.status, called.text).toBe(200);
    const batch = await service.call('POST', '/api/v1/investigations/batch', {
      key: assistant.apiKey,
      body: { entities: ['198.51.100.46', 'batch-e2e.example.com'] },
    });
    expect(batch.status).toBe(202);
    await service.stepFunctions.idle();

    await admin.goto(`${service.baseUrl}/sessions`);
    const mcpRow = admin.getByRole('row').filter({ hasText: '198.51.100.45' });
    await expect.poll(() => mcpRow.textContent(), SOON).toContain('Copilot over MCP (API key) (MCP)');
    expect(await admin.getByRole('row').filter({ hasText: '198.51.100.46' }).textContent()).not.toContain(
      '(MCP)',
    );
    await admin.getByLabel('Batch ID').fill(batch.body.batch_id);
    await admin.getByRole('button', { name: 'Show the batch' }).click();
    await admin.waitForURL((url) => url.searchParams.get('batch_id') === batch.body.batch_id);
    const rows = admin.getByRole('table', { name: 'Investigations, newest first' }).getByRole('row');
    await expect.poll(() => rows.count(), SOON).toBe(3); // the header and the batch's two sessions
    expect(await rows.filter({ hasText: 'batch-e2e.example.com' }).count()).toBe(1);
    expect(await rows.filter({ hasText: '198.51.100.45' }).count()).toBe(0);
    await admin.getByRole('heading', { name: `Investigations of batch ${batch.body.batch_id}` }).waitFor();
    await expectAccessible(admin, 'sessions-batch');
    await admin.getByRole('link', { name: 'Show all investigations' }).click();
    await expect.poll(() => rows.filter({ hasText: '198.51.100.45' }).count(), SOON).toBe(1);
  });
}
