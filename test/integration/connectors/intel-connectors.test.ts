import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lifecycleContext } from '../../../shared/services/sessions/lifecycle-context';
import { type IntelFakeServer, startIntelFakeServer } from '../../support/intel-fake-server';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Threat-intelligence connectors over HTTP through the whole local runtime (gateway, handlers, the
 * real ASL and step handlers, DynamoDB Local), with AbuseIPDB and CrowdSec pointed at a local fake
 * server speaking their paths and auth headers. Scenarios run in order: a later one relies on the
 * cache or circuit state an earlier one left.
 */
const KEYS = { abuseipdb: 'abuseipdb-test-key-0001', crowdsec: 'crowdsec-test-key-0002' };
const REPORTED_IP = '185.220.101.1';
/** Its connector step fails outright (fault injection addressed to step-run-intel, docs/workflow.md). */
const STEP_FAULT_IP = '185.220.101.9';

let fake: IntelFakeServer;
let service: TestService;
let analyst: string;

beforeAll(async () => {
  fake = await startIntelFakeServer(KEYS);
  service = await startTestService({
    env: {
      SIS_INTEL_ABUSEIPDB_API_KEY: KEYS.abuseipdb,
      SIS_INTEL_ABUSEIPDB_URL: fake.urlFor('abuseipdb'),
      SIS_INTEL_CROWDSEC_API_KEY: KEYS.crowdsec,
      SIS_INTEL_CROWDSEC_URL: fake.urlFor('crowdsec'),
      // Long enough that a loaded CI machine's fake answers in time (a late answer is retried and counted twice).
      SIS_INTEL_TIMEOUT_MS: '1500',
      SIS_INTEL_RETRIES: '2',
      SIS_FAULT_INJECTION: [
        `step-run-intel@${STEP_FAULT_IP}#intel_crowdsec=throw`,
        // A run-tool rule for the entity: the connector tools run in run-intel, so it leaves them be.
        `step-run-tool@${STEP_FAULT_IP}=throw`,
      ].join(','),
    },
  });
  analyst = (await service.createKey({ name: 'intel analyst' })).apiKey;
});

afterAll(async () => {
  await service?.stop();
  await fake?.close();
});

type Call = { name: string; status: string; error?: string; cached?: boolean; cache_age_seconds?: number };

async function investigate(value: string, extra: Record<string, unknown> = {}, key = analyst) {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity: { type: 'ip', value }, include_tool_calls: true, ...extra },
  });
  expect(started.status).toBe(200);
  expect(started.body.status).toBe('completed');
  const calls = started.body.tool_calls as Call[];
  const byName = (name: string) => calls.find((c) => c.name === name) as Call;
  return { body: started.body, report: started.body.report, byName };
}

describe('intelligence connectors', () => {
  it('shows each configured source as its own tool call with its verdict and ATT&CK techniques', async () => {
    const { body, report, byName } = await investigate(REPORTED_IP);
    expect(byName('intel_abuseipdb')).toMatchObject({ status: 'succeeded' });
    expect(byName('intel_abuseipdb').cached).toBeUndefined();
    expect(byName('intel_crowdsec')).toMatchObject({ status: 'succeeded' });
    expect(byName('intel_virustotal')).toBeUndefined(); // not configured: never planned

    const intel = report.findings.filter((f: { source_tool: string }) => f.source_tool.startsWith('intel_'));
    expect(intel).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source_tool: 'intel_abuseipdb', source_verdict: 'malicious' }),
        expect.objectContaining({
          source_tool: 'intel_crowdsec',
          source_verdict: 'malicious',
          attack: expect.arrayContaining([{ id: 'T1110', name: 'Brute Force' }]),
        }),
      ]),
    );
    expect(report.verdict).toBe('malicious');
    expect(report.coverage.intel_sources).toEqual({
      answered: ['abuseipdb', 'crowdsec'],
      cached: [],
      skipped: [],
      failed: [],
    });
    const sent = fake.requestsFor('abuseipdb', REPORTED_IP);
    expect(sent).toHaveLength(1);
    // A run that looks connectors up takes the Standard state machine (retries can outlast Express's
    // 5 minutes); a run of an entity type no enabled connector covers takes Express.
    const sessions = lifecycleContext().sessions;
    expect((await sessions.get(body.session_id))?.workflow).toBe('standard');
    expect(sent[0]).toMatchObject({ method: 'GET', path: '/check', authenticated: true });
    expect(fake.requestsFor('crowdsec', REPORTED_IP)).toEqual([
      expect.objectContaining({ path: `/v2/smoke/${REPORTED_IP}`, authenticated: true }),
    ]);
  });

  it('serves a second investigation inside the TTL from the cache, without asking again', async () => {
    const { report, byName } = await investigate(REPORTED_IP);
    expect(byName('intel_abuseipdb')).toMatchObject({ status: 'succeeded', cached: true });
    expect(byName('intel_abuseipdb').cache_age_seconds).toEqual(expect.any(Number));
    expect(report.coverage.intel_sources.cached).toEqual(['abuseipdb', 'crowdsec']);
    expect(fake.requestsFor('abuseipdb', REPORTED_IP)).toHaveLength(1);
    expect(fake.requestsFor('crowdsec', REPORTED_IP)).toHaveLength(1);
  });

  it('asks afresh when an admin key asks for fresh lookups, and refuses that to other keys', async () => {
    const refused = await service.call('POST', '/api/v1/investigations/start', {
      key: analyst,
      body: { entity: { type: 'ip', value: REPORTED_IP }, refresh_intel: true },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/refresh_intel is for admin keys/);
    const admin = (await service.createKey({ name: 'intel admin', role: 'admin' })).apiKey;
    const { byName } = await investigate(REPORTED_IP, { refresh_intel: true }, admin);
    expect(byName('intel_crowdsec').cached).toBeUndefined();
    expect(fake.requestsFor('crowdsec', REPORTED_IP)).toHaveLength(2);
  });

  it('sends nothing at TLP:RED: both sources are skipped with the reason', async () => {
    const before = fake.requests.length;
    const { report, byName } = await investigate('185.220.101.2', { tlp: 'red' });
    expect(byName('intel_abuseipdb')).toMatchObject({
      status: 'skipped',
      error: expect.stringMatching(/TLP:RED/),
    });
    expect(byName('intel_crowdsec')).toMatchObject({ status: 'skipped' });
    expect(report.coverage.intel_sources.skipped).toEqual(['abuseipdb', 'crowdsec']);
    expect(fake.requests.length).toBe(before);
  });

  it('never sends a private address out, whatever the TLP', async () => {
    const before = fake.requests.length;
    const { byName } = await investigate('10.20.30.40', { tlp: 'clear' });
    expect(byName('intel_abuseipdb')).toMatchObject({
      status: 'skipped',
      error: expect.stringMatching(/private/),
    });
    expect(fake.requests.length).toBe(before);
  });

  it('completes the investigation when a source answers 429 or hangs, recording the failures', async () => {
    const value = '185.220.101.3';
    fake.behave('abuseipdb', value, 'rate_limited');
    fake.behave('crowdsec', value, 'hang');
    const { report, byName } = await investigate(value);
    expect(byName('intel_abuseipdb')).toMatchObject({
      status: 'failed',
      error: 'AbuseIPDB v2 answered HTTP 429.',
    });
    expect(byName('intel_crowdsec')).toMatchObject({ status: 'failed', error: 'CrowdSec CTI timed out.' });
    expect(report.coverage.intel_sources.failed).toEqual(['abuseipdb', 'crowdsec']);
    // Retry-After: 0 honoured with two retries, then given up.
    expect(fake.requestsFor('abuseipdb', value)).toHaveLength(3);
  });

  it('lists the connectors to an admin with quota, circuit and last error, never a key', async () => {
    const listed = await service.call('GET', '/api/v1/admin/connectors', { key: service.adminKey });
    expect(listed.status).toBe(200);
    const byName = Object.fromEntries(
      (listed.body.connectors as { name: string }[]).map((c) => [c.name, c as Record<string, unknown>]),
    );
    expect(Object.keys(byName)).toHaveLength(9);
    expect(byName.abuseipdb).toMatchObject({
      enabled: true,
      tool: 'intel_abuseipdb',
      entity_types: ['ip'],
      max_tlp: 'amber',
      cache_ttl_seconds: 86400,
      quota: { used_today: 3, daily_limit: 1000 },
      circuit: { state: 'closed', consecutive_failures: 1 },
      last_error_at: expect.any(String),
    });
    expect(byName.misp).toMatchObject({ enabled: false, max_tlp: 'red' });
    const text = JSON.stringify(listed.body);
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);

    const refused = await service.call('GET', '/api/v1/admin/connectors', { key: analyst });
    expect(refused.status).toBe(403);
  });

  it('completes the investigation when the connector step itself fails, recording that tool failed', async () => {
    const { body, report, byName } = await investigate(STEP_FAULT_IP);
    expect(byName('intel_crowdsec')).toMatchObject({ status: 'failed', error: 'The tool could not be run.' });
    expect(byName('intel_abuseipdb')).toMatchObject({ status: 'succeeded' });
    // Every built-in tool failed in step-run-tool; the connector tools ran in step-run-intel.
    const builtIn = (body.tool_calls as Call[]).filter((call) => !call.name.startsWith('intel_'));
    expect(builtIn.length).toBeGreaterThan(0);
    expect(builtIn.every((call) => call.status === 'failed')).toBe(true);
    expect(report.coverage.intel_sources.failed).toEqual(['crowdsec']);
    expect(fake.requestsFor('crowdsec', STEP_FAULT_IP)).toHaveLength(0);
  });
});
