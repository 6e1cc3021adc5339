import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { incidentId } from '../../../shared/domain/incidents/incident';
import { assertIncident } from '../../../shared/domain/incidents/incident-input';
import { storeIncident } from '../../../shared/services/incidents/incident-sync';
import { documentClientFor } from '../../../shared/store/dynamo-client';
import { graphRepositoryFromConfig } from '../../../shared/store/graph-repository';
import { IncidentsRepository } from '../../../shared/store/incidents-repository';
import { createIsolatedTables, type IsolatedTables } from '../../support/dynamodb';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * Issue #27 item 1: a key with `incidents:write` may not forge or freeze incidents. Pushes never
 * create or change incidents of a source this deployment pulls (Sentinel here: its URL is set), an
 * `updated_at` more than 5 minutes ahead is refused (400, the field named), every stored copy says who
 * wrote it, and a pull always wins over a pushed copy.
 */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/siem/${name}.json`, import.meta.url), 'utf8'));

let service: TestService;
let writer: { keyId: string; apiKey: string };
let reader: string;

const incident = (extra: Record<string, unknown> = {}) => ({
  source: 'custom',
  source_id: 'edr-1001',
  title: 'Credential dumping on ws-0101',
  severity: 'high',
  status: 'new',
  created_at: new Date(Date.now() - 3_600_000).toISOString(),
  entities: ['198.51.100.23'],
  url: 'https://edr.example.com/alerts/1001',
  ...extra,
});

beforeAll(async () => {
  service = await startTestService({
    // Sentinel is pulled by this deployment (no interval: nothing is actually pulled in this file).
    env: {
      SIS_SIEM_SENTINEL_URL:
        'http://127.0.0.1:9/subscriptions/0000/resourceGroups/soc/providers/Microsoft.OperationalInsights/workspaces/soc',
    },
  });
  writer = await service.createKey({ name: 'edr push', scopes: ['incidents:write'] });
  reader = (await service.createKey({ name: 'reader', scopes: ['incidents:read'] })).apiKey;
});

afterAll(async () => {
  await service?.stop();
});

const push = (body: unknown) =>
  service.call('POST', '/api/v1/incidents/ingest', { key: writer.apiKey, body });

describe('pushing incidents', () => {
  it('refuses a push of a pulled source, normalised or native, with 400 naming the field', async () => {
    const normalised = await push({ incidents: [incident({ source: 'sentinel', source_id: 'forged-1' })] });
    expect(normalised.status).toBe(400);
    expect(normalised.body).toMatchObject(errorShape('validation_error'));
    expect(normalised.body.error.message).toContain('incidents.0.source');
    expect(normalised.body.error.message).toMatch(/pulled from the SIEM/);

    const native = await push({ format: 'sentinel', incidents: fixture('sentinel-incidents').value });
    expect(native.status).toBe(400);
    expect(native.body.error.message).toContain('incidents.0.source');
    await service.incidentQueue.idle();
    const listed = await service.call('GET', '/api/v1/incidents?limit=100', { key: reader });
    expect(listed.body.incidents.filter((i: { source: string }) => i.source === 'sentinel')).toEqual([]);
  });

  it('refuses an updated_at more than 5 minutes ahead with 400 naming it, and lists it in a mixed batch', async () => {
    const frozen = await push({
      incidents: [incident({ source_id: 'edr-2099', updated_at: '2099-01-01T00:00:00Z' })],
    });
    expect(frozen.status).toBe(400);
    expect(frozen.body.error.message).toContain('incidents.0.updated_at');

    const skewed = new Date(Date.now() + 60_000).toISOString(); // within the 5 minutes: clock skew
    const mixed = await push({
      incidents: [
        incident({ source_id: 'edr-2100', updated_at: '2099-01-01T00:00:00Z' }),
        incident({ source_id: 'edr-2101', updated_at: skewed }),
      ],
    });
    expect(mixed.status).toBe(202);
    expect(mixed.body).toMatchObject({ accepted: 1, rejected: 1 });
    expect(mixed.body.errors[0]).toMatchObject({ index: 0, message: expect.stringContaining('updated_at') });
  });

  it('records which key wrote each stored copy and shows it with the incident', async () => {
    expect((await push({ incidents: [incident()] })).status).toBe(202);
    await service.incidentQueue.idle();
    const listed = await service.call('GET', '/api/v1/incidents?limit=100', { key: reader });
    const stored = listed.body.incidents.find((i: { source_id: string }) => i.source_id === 'edr-1001');
    expect(stored).toMatchObject({
      source_url: 'https://edr.example.com/alerts/1001',
      origin: { kind: 'push', key_id: writer.keyId },
    });
  });
});

describe('storing copies from pushes and pulls', () => {
  let tables: IsolatedTables;
  let stores: Parameters<typeof storeIncident>[0];
  let repo: IncidentsRepository;

  beforeAll(async () => {
    tables = await createIsolatedTables();
    const cfg = parseConfig(tables.env);
    const doc = documentClientFor(cfg);
    repo = new IncidentsRepository(doc, tables.names.incidents);
    stores = { incidents: repo, graph: graphRepositoryFromConfig(cfg, doc) };
  });

  afterAll(() => tables?.client.destroy());

  const copy = (updated: string, origin: Record<string, string>, title: string) => ({
    ...assertIncident({
      source: 'splunk',
      source_id: 'notable-9',
      title,
      severity: 'high',
      status: 'new',
      created_at: '2026-11-01T10:00:00Z',
      updated_at: updated,
      entities: ['203.0.113.80'],
    }),
    origin: origin as never,
  });

  it('never lets a push overwrite a pulled copy, even a newer one', async () => {
    expect(
      await storeIncident(
        stores,
        copy('2026-11-01T11:00:00Z', { kind: 'pull', connector: 'splunk' }, 'Pulled'),
      ),
    ).toBe('created');
    expect(
      await storeIncident(
        stores,
        copy('2026-11-01T12:00:00Z', { kind: 'push', key_id: 'key_forger' }, 'Forged'),
      ),
    ).toBe('stale');
    expect(await repo.get(copy('2026-11-01T11:00:00Z', {}, 'x').incident_id)).toMatchObject({
      title: 'Pulled',
      origin: { kind: 'pull', connector: 'splunk' },
    });
  });

  it('lets a pull replace a pushed copy however far ahead that copy was dated', async () => {
    const forged = {
      ...copy('2026-11-01T10:00:00Z', { kind: 'push', key_id: 'key_forger' }, 'Forged'),
      source_id: 'notable-10',
      incident_id: incidentId('splunk', 'notable-10'),
    };
    // Stored as an older version of the service would have: dated 2099.
    expect(await storeIncident(stores, { ...forged, updated_at: '2099-01-01T00:00:00.000Z' })).toBe(
      'created',
    );
    const pulled = {
      ...forged,
      title: 'From the SIEM',
      origin: { kind: 'pull' as const, connector: 'splunk' },
    };
    expect(await storeIncident(stores, pulled)).toBe('updated');
    expect(await repo.get(forged.incident_id)).toMatchObject({
      title: 'From the SIEM',
      origin: { kind: 'pull' },
    });
  });
});
