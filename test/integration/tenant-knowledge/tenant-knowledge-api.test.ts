import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../../support/console-sign-in';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * The tenant's allowlist and analysts' feedback over HTTP (the real gateway, authorizer, handlers
 * and DynamoDB Local), and what later investigations make of them.
 */
const PASSWORDS = { admin: 'admin-test-password', analyst: 'analyst-test-password' };
const SLOW = 'slow-feedback.example.com';

let service: TestService;
let clientKey: string;
let analystToken: string;
let adminToken: string;

async function consoleCall(method: 'GET' | 'POST' | 'DELETE', path: string, token: string, body?: unknown) {
  const response = await request(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

async function investigate(value: string, key = clientKey) {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity: value, background: true },
  });
  expect(started.status).toBe(202);
  await service.stepFunctions.idle();
  const report = await service.call('GET', `/api/v1/sessions/${started.body.session_id}`, { key });
  expect(report.body.status).toBe('completed');
  return { sessionId: started.body.session_id as string, report: report.body.report };
}

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_CONSOLE_ADMIN_PASSWORD: PASSWORDS.admin,
      SIS_CONSOLE_ANALYST_PASSWORD: PASSWORDS.analyst,
      SIS_FAULT_INJECTION: `step-run-tool@${SLOW}=delay:3000`,
    },
  });
  clientKey = (await service.createKey({ name: 'client', rate_limit: { rate_per_second: 100, burst: 100 } }))
    .apiKey;
  adminToken = (await signInToConsole(service.baseUrl, { username: 'admin', password: PASSWORDS.admin }))
    .idToken;
  analystToken = (
    await signInToConsole(service.baseUrl, { username: 'analyst', password: PASSWORDS.analyst })
  ).idToken;
});

afterAll(async () => {
  await service?.stop();
});

describe('allowlist', () => {
  it('adds, lists and removes entries; a domain covers its subdomains; the change is audited', async () => {
    const added = await service.call('POST', '/api/v1/admin/allowlist', {
      key: service.adminKey,
      body: {
        type: 'domain',
        value: 'Contoso-Payroll.com',
        reason: 'Payroll provider',
        expires_in_days: 30,
      },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      entry_id: expect.stringMatching(/^al_[0-9a-f]{24}$/),
      type: 'domain',
      value: 'contoso-payroll.com',
      reason: 'Payroll provider',
      created_by: expect.stringMatching(/^key:/),
      expired: false,
    });
    const listed = await service.call('GET', '/api/v1/admin/allowlist', { key: service.adminKey });
    expect(listed.body.entries.map((e: { entry_id: string }) => e.entry_id)).toContain(added.body.entry_id);

    const { report } = await investigate('login.contoso-payroll.com');
    expect(report.verdict).toBe('benign');
    expect(report.confidence).toBe('high');
    const finding = report.findings.find(
      (f: { finding_id: string }) => f.finding_id === 'prior_investigations:allowlisted',
    );
    expect(finding.title).toBe('Allowlisted by the tenant: Payroll provider');
    expect(finding.description).toContain('domain contoso-payroll.com and its subdomains');
    expect(finding.description).toMatch(/added by key:\w+ on \d{4}-\d{2}-\d{2}, until \d{4}-\d{2}-\d{2}/);

    const audit = await consoleCall('GET', '/api/v1/console/admin/audit', adminToken);
    expect(audit.body.entries[0]).toMatchObject({
      action: 'allowlist_add',
      key_id: added.body.entry_id,
      details: { type: 'domain', value: 'contoso-payroll.com', reason: 'Payroll provider' },
    });

    const removed = await service.call('DELETE', `/api/v1/admin/allowlist/${added.body.entry_id}`, {
      key: service.adminKey,
    });
    expect(removed.status).toBe(204);
    expect((await investigate('login.contoso-payroll.com')).report.verdict).not.toBe('benign');
    const again = await service.call('DELETE', `/api/v1/admin/allowlist/${added.body.entry_id}`, {
      key: service.adminKey,
    });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject(errorShape('not_found'));
    const audited = await consoleCall('GET', '/api/v1/console/admin/audit', adminToken);
    expect(audited.body.entries[0]).toMatchObject({
      action: 'allowlist_remove',
      key_id: added.body.entry_id,
    });
  });

  it('refuses a duplicate (409), a too-wide network and a bad value (400), and non-admin keys (403)', async () => {
    const body = { type: 'cidr', value: '198.51.100.0/24', reason: 'Branch office' };
    expect(
      (await service.call('POST', '/api/v1/admin/allowlist', { key: service.adminKey, body })).status,
    ).toBe(201);
    const duplicate = await service.call('POST', '/api/v1/admin/allowlist', {
      key: service.adminKey,
      body: { ...body, value: '198.51.100.9/24', reason: 'again' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject(errorShape('conflict'));

    const wide = await service.call('POST', '/api/v1/admin/allowlist', {
      key: service.adminKey,
      body: { type: 'cidr', value: '0.0.0.0/0', reason: 'everything' },
    });
    expect(wide.status).toBe(400);
    expect(wide.body.error.message).toContain('/0 is wider than /8');
    const v6 = await service.call('POST', '/api/v1/admin/allowlist', {
      key: service.adminKey,
      body: { type: 'cidr', value: '2001:db8::/16', reason: 'x' },
    });
    expect(v6.status).toBe(400);
    const bad = await service.call('POST', '/api/v1/admin/allowlist', {
      key: service.adminKey,
      body: { type: 'ip', value: 'not-an-ip', reason: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('value');

    const forbidden = await service.call('POST', '/api/v1/admin/allowlist', { key: clientKey, body });
    expect(forbidden.status).toBe(403);
    expect((await service.call('GET', '/api/v1/admin/allowlist', { key: clientKey })).status).toBe(403);

    // A covered address is benign and still shows its other findings (documentation range: 15).
    const { report } = await investigate('198.51.100.44');
    expect(report.verdict).toBe('benign');
    expect(report.risk_score).toBe(15);
    expect(report.findings.map((f: { finding_id: string }) => f.finding_id)).toContain(
      'ip_classification:documentation_address',
    );
  });

  it('console admins keep the allowlist; console analysts may not', async () => {
    const added = await consoleCall('POST', '/api/v1/console/admin/allowlist', adminToken, {
      type: 'host',
      value: 'build-07',
      reason: 'CI runner',
    });
    expect(added.status).toBe(201);
    expect(added.body.created_by).toBe('user:admin');
    expect((await consoleCall('GET', '/api/v1/console/admin/allowlist', analystToken)).status).toBe(403);
    const removed = await consoleCall(
      'DELETE',
      `/api/v1/console/admin/allowlist/${added.body.entry_id}`,
      adminToken,
    );
    expect(removed.status).toBe(204);
  });
});

describe('feedback on a session', () => {
  it('an admin key reviews any session; later investigations cite it; audited', async () => {
    const { sessionId, report } = await investigate('203.0.113.90');
    expect(report.verdict).toBe('unknown');
    const feedback = await service.call('POST', `/api/v1/sessions/${sessionId}/feedback`, {
      key: service.adminKey,
      body: { verdict: 'true_positive', comment: 'Scanner hitting the VPN every night' },
    });
    expect(feedback.status).toBe(201);
    expect(feedback.body).toMatchObject({
      session_id: sessionId,
      verdict: 'true_positive',
      by: expect.stringMatching(/^key:/),
      by_role: 'admin',
      status: 'counts',
      review_id: expect.stringMatching(/^rv_/),
      expires_at: null,
      // Issue 36, item 11: the admin key may not read the client key's session, so its verdict and
      // risk are withheld, and the answer says so.
      session_withheld: true,
    });
    expect(feedback.body).not.toHaveProperty('session_verdict');
    expect(feedback.body).not.toHaveProperty('session_risk_score');
    const later = (await investigate('203.0.113.90')).report;
    const cited = later.findings.find(
      (f: { finding_id: string }) => f.finding_id === 'prior_investigations:feedback_true_positive',
    );
    expect(cited).toMatchObject({ score: 75, evidence_source: 'feedback' });
    expect(cited.description).toContain('"Scanner hitting the VPN every night"');
    expect(later.verdict).toBe('malicious');

    const audit = await consoleCall('GET', '/api/v1/console/admin/audit', adminToken);
    expect(audit.body.entries[0]).toMatchObject({
      action: 'feedback',
      key_id: sessionId,
      details: { verdict: 'true_positive', entity: 'ip:203.0.113.90' },
    });

    // Issue 36, item 3: a console analyst's false positive is kept beside the admin's confirmation
    // (history, not overwrite) and awaits an admin's approval: the confirmation still decides.
    const sessions = await consoleCall(
      'POST',
      `/api/v1/console/sessions/${sessionId}/feedback`,
      analystToken,
      {
        verdict: 'false_positive',
        comment: 'It is our own scanner after all',
        expires_in_days: 30,
      },
    );
    expect(sessions.status).toBe(201);
    expect(sessions.body).toMatchObject({
      by: 'user:analyst',
      by_role: 'analyst',
      status: 'awaiting_approval',
      session_verdict: 'unknown',
      expires_at: expect.any(String),
    });
    const still = (await investigate('203.0.113.90')).report;
    expect(still.verdict).toBe('malicious');
    const noReason = await consoleCall(
      'POST',
      `/api/v1/console/sessions/${sessionId}/feedback`,
      analystToken,
      {
        verdict: 'false_positive',
        comment: '\u200b ',
      },
    );
    expect(noReason.status).toBe(400);
    const selfApproval = await consoleCall(
      'POST',
      `/api/v1/console/sessions/${sessionId}/feedback`,
      analystToken,
      {
        verdict: 'false_positive',
        comment: 'Approving my own',
        approves: sessions.body.review_id,
      },
    );
    expect(selfApproval.status).toBe(403);
    const noSuchReview = await consoleCall(
      'POST',
      `/api/v1/console/sessions/${sessionId}/feedback`,
      adminToken,
      {
        verdict: 'false_positive',
        comment: 'Approved',
        approves: 'rv_0000000000000aaaaaaaaaaaa',
      },
    );
    expect(noSuchReview.status).toBe(404);

    // A console admin approves it: audited, and later investigations end benign.
    const approval = await consoleCall('POST', `/api/v1/console/sessions/${sessionId}/feedback`, adminToken, {
      verdict: 'false_positive',
      comment: 'Checked with the network team',
      approves: sessions.body.review_id,
    });
    expect(approval.status).toBe(201);
    expect(approval.body).toMatchObject({
      by_role: 'admin',
      status: 'counts',
      approves: sessions.body.review_id,
    });
    const approvedAudit = await consoleCall('GET', '/api/v1/console/admin/audit', adminToken);
    expect(approvedAudit.body.entries[0]).toMatchObject({
      action: 'feedback_approve',
      key_id: sessionId,
      details: { approves: sessions.body.review_id, by_role: 'admin' },
    });
    const cleared = (await investigate('203.0.113.90')).report;
    expect(cleared.verdict).toBe('benign');
    expect(cleared.summary).toContain('Marked a false positive by user:admin');
  });

  it('refuses non-admin keys (403), unknown sessions (404) and running sessions (409)', async () => {
    const { sessionId } = await investigate('203.0.113.91');
    const asClient = await service.call('POST', `/api/v1/sessions/${sessionId}/feedback`, {
      key: clientKey,
      body: { verdict: 'false_positive', comment: '' },
    });
    expect(asClient.status).toBe(403);
    const unknown = await service.call('POST', '/api/v1/sessions/s_doesnotexist00/feedback', {
      key: service.adminKey,
      body: { verdict: 'false_positive', comment: '' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(errorShape('not_found'));
    const bad = await service.call('POST', `/api/v1/sessions/${sessionId}/feedback`, {
      key: service.adminKey,
      body: { verdict: 'maybe' },
    });
    expect(bad.status).toBe(400);

    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: clientKey,
      body: { entity: SLOW, background: true },
    });
    const running = await service.call('POST', `/api/v1/sessions/${started.body.session_id}/feedback`, {
      key: service.adminKey,
      body: { verdict: 'false_positive', comment: 'too early' },
    });
    expect(running.status).toBe(409);
    expect(running.body).toMatchObject(errorShape('conflict'));
    await service.stepFunctions.idle();
  });
});
