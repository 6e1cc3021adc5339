import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import { incidentId } from '../../../shared/domain/incidents/incident';
import {
  mapSiemRecord,
  normaliseIngestBatch,
  recordsFromResponse,
  type SiemFormat,
  severityFromRiskScore,
} from '../../../shared/domain/siem';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../fixtures/siem/${name}`, import.meta.url), 'utf8'));
}

const sentinel = recordsFromResponse('sentinel', fixture('sentinel-incidents.json'));
const splunk = recordsFromResponse('splunk', fixture('splunk-notables.json'));
const elastic = recordsFromResponse('elastic', fixture('elastic-alerts.json'));

const SENTINEL_URL =
  'https://portal.azure.com/#asset/Microsoft_Azure_Security_Insights/Incident/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/soc-rg/providers/Microsoft.OperationalInsights/workspaces/soc-workspace/providers/Microsoft.SecurityInsights/Incidents/';

describe('Microsoft Sentinel incidents', () => {
  it('maps an active high incident with its related entities', () => {
    expect(mapSiemRecord('sentinel', sentinel[0])).toEqual({
      incident_id: incidentId('sentinel', '73e01a99-5cd7-4139-a149-9f2736ff2ab5'),
      source: 'sentinel',
      source_id: '73e01a99-5cd7-4139-a149-9f2736ff2ab5',
      title: 'Sign-in from anonymous IP followed by MFA fatigue',
      // CRLF folded, the zero-width space removed.
      description:
        'Multiple MFA push notifications were sent to the user\nwithin minutes; the last one was approved.',
      severity: 'high',
      status: 'active',
      created_at: '2026-10-30T08:11:27.410Z',
      updated_at: '2026-10-30T09:41:03.573Z',
      source_url: `${SENTINEL_URL}73e01a99-5cd7-4139-a149-9f2736ff2ab5`,
      entities: [
        // Account: accountName@upnSuffix, lowercased; the second, differently cased account is the same.
        { type: 'user', value: 'j.doe@contoso.example' },
        { type: 'ip', value: '192.0.2.45' },
        // IPv4-mapped IPv6 is the IPv4 address.
        { type: 'ip', value: '203.0.113.66' },
        // Host: the host name, not the FQDN.
        { type: 'host', value: 'ws-0142' },
        // Url: its host as a domain.
        { type: 'domain', value: 'micros0ft-login.example.com' },
        // DnsResolution: the name and the addresses it resolved to.
        { type: 'domain', value: 'update-cdn.example.net' },
        { type: 'ip', value: '198.51.100.23' },
        // The File entity is not one of our entity types and is skipped.
      ],
    });
  });

  it('maps a closed informational incident without description or entities', () => {
    const incident = mapSiemRecord('sentinel', sentinel[1]);
    expect(incident.severity).toBe('informational');
    expect(incident.status).toBe('closed');
    expect(incident.description).toBeUndefined();
    expect(incident.entities).toEqual([]);
    expect(incident.created_at).toBe('2026-10-21T14:02:00.000Z');
    expect(incident.updated_at).toBe('2026-10-21T16:30:00.000Z');
  });

  it('also reads entities attached under properties.relatedEntities or entities', () => {
    const base = sentinel[1] as { properties: Record<string, unknown> };
    const ip = { kind: 'Ip', properties: { address: '198.51.100.9' } };
    const viaProperties = { ...base, properties: { ...base.properties, relatedEntities: [ip] } };
    const viaEntities = {
      ...base,
      entities: [{ kind: 'Mailbox', properties: { mailboxPrimaryAddress: 'M.Garcia@contoso.example' } }],
    };
    expect(mapSiemRecord('sentinel', viaProperties).entities).toEqual([
      { type: 'ip', value: '198.51.100.9' },
    ]);
    expect(mapSiemRecord('sentinel', viaEntities).entities).toEqual([
      { type: 'user', value: 'm.garcia@contoso.example' },
    ]);
  });

  type SentinelRecord = { properties: Record<string, unknown> } & Record<string, unknown>;
  const withProperties = (patch: Record<string, unknown>) => (r: SentinelRecord) => ({
    ...r,
    properties: { ...r.properties, ...patch },
  });

  it.each([
    ['no name', (r: SentinelRecord) => ({ ...r, name: undefined })],
    ['no properties', (r: SentinelRecord) => ({ ...r, properties: undefined })],
    ['an unknown severity', withProperties({ severity: 'Catastrophic' })],
    ['no created time', withProperties({ createdTimeUtc: undefined })],
    ['a created time without offset', withProperties({ createdTimeUtc: '2026-10-21T14:02:00' })],
  ])('rejects a record with %s', (_, mutate) => {
    expect(() => mapSiemRecord('sentinel', mutate(sentinel[1] as SentinelRecord))).toThrow(ValidationError);
  });
});

describe('Splunk ES notable events', () => {
  it('maps a notable with CIM entity fields, urgency and review time', () => {
    expect(
      mapSiemRecord('splunk', splunk[0], { splunk: { webUrl: 'https://splunk.example.com:8000/' } }),
    ).toEqual({
      incident_id: incidentId(
        'splunk',
        '5E2B1A7C-91D4-4F0B-A6C3-2D8E9F017B44@@notable@@1f6e1a58c0a3b3f0f2d1c9b8a7e6d5c4',
      ),
      source: 'splunk',
      source_id: '5E2B1A7C-91D4-4F0B-A6C3-2D8E9F017B44@@notable@@1f6e1a58c0a3b3f0f2d1c9b8a7e6d5c4',
      // rule_title wins over rule_name and search_name.
      title: 'Brute Force Access Behavior Detected From 203.0.113.66',
      description:
        'The system has detected brute force behavior: 57 failures followed by a success for user j.doe@contoso.example.',
      // urgency (critical) wins over the search's severity (high).
      severity: 'critical',
      // status_label "In Progress".
      status: 'active',
      created_at: '2026-10-29T03:14:07.000Z',
      // review_time (epoch seconds).
      updated_at: '2026-10-29T05:00:00.000Z',
      source_url:
        'https://splunk.example.com:8000/en-US/app/SplunkEnterpriseSecuritySuite/incident_review?search=event_id%3D%225E2B1A7C-91D4-4F0B-A6C3-2D8E9F017B44%40%40notable%40%401f6e1a58c0a3b3f0f2d1c9b8a7e6d5c4%22',
      entities: [
        // src is multivalue; "unknown" is dropped. src_user "-" is dropped.
        { type: 'ip', value: '203.0.113.66' },
        // dest without a type: inferred host, lowercased.
        { type: 'host', value: 'dc01' },
        { type: 'user', value: 'contoso\\j.doe' },
      ],
    });
  });

  it('maps a minimal notable: numeric status, epoch _time, unknown urgency, url field', () => {
    const incident = mapSiemRecord('splunk', splunk[1]);
    expect(incident.title).toBe('Threat - Threat Intelligence Match - Rule');
    expect(incident.status).toBe('closed');
    expect(incident.severity).toBe('low');
    expect(incident.created_at).toBe('2026-10-26T21:00:00.000Z');
    expect(incident.updated_at).toBe(incident.created_at);
    expect(incident.description).toBeUndefined();
    expect(incident.source_url).toBeUndefined();
    expect(incident.entities).toEqual([
      { type: 'ip', value: '192.0.2.10' },
      { type: 'ip', value: '198.51.100.23' },
      { type: 'host', value: 'ws-0219' },
      { type: 'domain', value: 'update-cdn.example.net' },
    ]);
  });

  it.each([
    ['0', 'new'],
    ['1', 'new'],
    ['2', 'active'],
    ['3', 'active'],
    ['4', 'resolved'],
    ['5', 'closed'],
  ])('numeric status %s → %s', (status, expected) => {
    const record = { ...(splunk[1] as object), status, status_label: undefined };
    expect(mapSiemRecord('splunk', record).status).toBe(expected);
  });

  it.each([
    ['no event_id', { event_id: undefined }],
    ['no rule name of any kind', { search_name: undefined }],
    ['no _time', { _time: undefined }],
    ['an unparseable _time', { _time: 'last tuesday' }],
  ])('rejects a notable with %s', (_, patch) => {
    expect(() => mapSiemRecord('splunk', { ...(splunk[1] as object), ...patch })).toThrow(ValidationError);
  });
});

describe('Elastic Security alerts', () => {
  it('maps an alert hit with flattened kibana.alert.* keys and nested ECS objects', () => {
    const id = 'c2f1d5b7a3e94f8d0b6a1c2e3f4d5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f';
    expect(mapSiemRecord('elastic', elastic[0])).toEqual({
      incident_id: incidentId('elastic', id),
      source: 'elastic',
      source_id: id,
      title: 'Connection to Look-alike Domain',
      // kibana.alert.reason wins over the rule description.
      description:
        'network event with process chrome.exe, source 192.0.2.10:51544, destination 203.0.113.66:443, by j.doe on ws-0142 created high alert Connection to Look-alike Domain.',
      severity: 'high',
      // workflow_status acknowledged.
      status: 'active',
      // kibana.alert.start, not @timestamp.
      created_at: '2026-10-31T10:58:03.441Z',
      // The latest of workflow_status_updated_at, last_detected and @timestamp.
      updated_at: '2026-10-31T12:20:00.000Z',
      source_url: `https://kibana.example.com/app/security/alerts/redirect/${id}?index=.alerts-security.alerts-default&timestamp=2026-10-31T10:58:03.441Z`,
      entities: [
        // user.domain + user.name, so it is the same node as Splunk's CONTOSO\J.Doe.
        { type: 'user', value: 'contoso\\j.doe' },
        { type: 'ip', value: '192.0.2.10' },
        { type: 'ip', value: '203.0.113.66' },
        { type: 'host', value: 'ws-0142' },
        // url.domain, destination.domain and url.full all name the same domain.
        { type: 'domain', value: 'micros0ft-login.example.com' },
      ],
    });
  });

  it('maps a hit in fields-API form: severity from risk score, _id as ID, internal domain as host', () => {
    const incident = mapSiemRecord('elastic', elastic[1]);
    expect(incident.source_id).toBe('7d3c0e5f9a1b4c2d8e6f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d');
    expect(incident.title).toBe('Port Scan Detected');
    expect(incident.severity).toBe('low');
    expect(incident.status).toBe('closed');
    expect(incident.created_at).toBe('2026-10-28T22:41:10.000Z');
    expect(incident.entities).toEqual([
      { type: 'ip', value: '203.0.113.200' },
      { type: 'host', value: 'web-prod-03' },
      { type: 'host', value: 'intranet.corp' },
    ]);
  });

  it('accepts the bare alert document as well as the hit', () => {
    const hit = elastic[0] as { _source: unknown };
    expect(mapSiemRecord('elastic', hit._source)).toEqual(mapSiemRecord('elastic', hit));
  });

  it.each([
    [0, 'low'],
    [21, 'low'],
    [22, 'medium'],
    [47, 'medium'],
    [48, 'high'],
    [73, 'high'],
    [74, 'critical'],
    [100, 'critical'],
  ])('risk score %d → %s', (score, expected) => {
    expect(severityFromRiskScore(score)).toBe(expected);
  });

  it.each([
    ['not an object', 'alert'],
    ['no rule name', { '@timestamp': '2026-10-28T22:41:10.000Z', 'kibana.alert.uuid': 'x' }],
    ['no time', { 'kibana.alert.rule.name': 'r', 'kibana.alert.uuid': 'x' }],
    ['no ID', { 'kibana.alert.rule.name': 'r', '@timestamp': '2026-10-28T22:41:10.000Z' }],
  ])('rejects a record with %s', (_, record) => {
    expect(() => mapSiemRecord('elastic', record)).toThrow(ValidationError);
  });
});

describe('list responses and ingest batches', () => {
  it('finds the records inside each vendor list response', () => {
    expect(sentinel).toHaveLength(2);
    expect(splunk).toHaveLength(2);
    expect(elastic).toHaveLength(2);
    expect(recordsFromResponse('splunk', [1, 2])).toEqual([1, 2]);
    expect(() => recordsFromResponse('sentinel', { results: [] })).toThrow(ValidationError);
  });

  it.each<[SiemFormat, unknown[]]>([
    ['sentinel', sentinel],
    ['splunk', splunk],
    ['elastic', elastic],
  ])('is idempotent for %s: the same record maps to the same incident', (format, records) => {
    for (const record of records) {
      expect(mapSiemRecord(format, structuredClone(record))).toEqual(mapSiemRecord(format, record));
    }
  });

  it('a normalised push with the SIEM ID is the same incident as the native record', () => {
    const native = mapSiemRecord('sentinel', sentinel[1]);
    const pushed = normaliseIngestBatch({
      incidents: [
        {
          source: 'sentinel',
          source_id: '0b1e6d4a-9c35-4a8e-b1f2-3d4c5e6f7a8b',
          title: 'Sign-in from a new country',
          severity: 'info',
          status: 'Closed',
          created_at: '2026-10-21T14:02:00Z',
        },
      ],
    });
    expect(pushed.incidents[0]?.incident_id).toBe(native.incident_id);
  });

  it('reports bad records by index and keeps the good ones', () => {
    const outcome = normaliseIngestBatch({
      format: 'splunk',
      incidents: [splunk[0], { event_id: 'x' }, splunk[1]],
    });
    expect(outcome.incidents.map((i) => i.source_id)).toEqual([
      (splunk[0] as { event_id: string }).event_id,
      (splunk[1] as { event_id: string }).event_id,
    ]);
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]?.index).toBe(1);
    expect(outcome.errors[0]?.message).toMatch(/^Not a valid Splunk notable event\. .*_time/);
  });

  it('collapses two copies of one incident in a batch to the newest', () => {
    const base = {
      source: 'custom',
      source_id: 'edr-1',
      title: 'EDR alert',
      severity: 'low',
      status: 'new',
      created_at: '2026-11-01T00:00:00Z',
    };
    const outcome = normaliseIngestBatch({
      incidents: [
        { ...base, status: 'closed', updated_at: '2026-11-01T02:00:00Z' },
        { ...base, status: 'active', updated_at: '2026-11-01T01:00:00Z' },
      ],
    });
    expect(outcome.incidents).toHaveLength(1);
    expect(outcome.incidents[0]?.status).toBe('closed');
  });

  it('refuses more than 500 records', () => {
    expect(() => normaliseIngestBatch({ incidents: new Array(501).fill({}) })).toThrow(ValidationError);
  });
});
