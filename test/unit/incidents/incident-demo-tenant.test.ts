import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { entityKey } from '../../../shared/domain/core/entity';
import { demoIncidentInputs, demoIncidents } from '../../../shared/domain/data/demo-tenant';
import {
  assembleNeighborhood,
  type Edge,
  edgeKey,
  edgeSides,
  edgesFromIncident,
  mergeEdge,
} from '../../../shared/domain/graph/graph';
import { INCIDENT_STATUSES, KNOWN_SOURCES, SEVERITIES } from '../../../shared/domain/incidents/incident';
import { normaliseIncident } from '../../../shared/domain/incidents/incident-input';

const now = new Date('2026-11-01T12:00:00.000Z');
const incidents = demoIncidents(now);

const DOCUMENTATION_RANGES = [
  ipaddr.parseCIDR('192.0.2.0/24'),
  ipaddr.parseCIDR('198.51.100.0/24'),
  ipaddr.parseCIDR('203.0.113.0/24'),
  ipaddr.parseCIDR('2001:db8::/32'),
];

describe('demo tenant', () => {
  it('has 36 valid incidents with unique IDs', () => {
    expect(incidents).toHaveLength(36);
    expect(new Set(incidents.map((i) => i.incident_id)).size).toBe(36);
    for (const input of demoIncidentInputs(now)) expect(normaliseIncident(input).ok).toBe(true);
  });

  it('is deterministic for a given now and moves with it', () => {
    expect(demoIncidents(now)).toEqual(incidents);
    const later = demoIncidents(new Date('2026-12-01T12:00:00.000Z'));
    expect(later.map((i) => i.incident_id)).toEqual(incidents.map((i) => i.incident_id));
    expect(later[0]?.created_at).not.toBe(incidents[0]?.created_at);
  });

  it('covers every severity, status and source', () => {
    expect(new Set(incidents.map((i) => i.severity))).toEqual(new Set(SEVERITIES));
    expect(new Set(incidents.map((i) => i.status))).toEqual(new Set(INCIDENT_STATUSES));
    expect(new Set(incidents.map((i) => i.source))).toEqual(new Set(KNOWN_SOURCES));
    for (const severity of SEVERITIES) {
      expect(incidents.filter((i) => i.severity === severity).length).toBeGreaterThanOrEqual(4);
    }
  });

  it('lies within the last 30 days, newest first, and never in the future', () => {
    const start = new Date(now.getTime() - 30 * 86_400_000).toISOString();
    for (const incident of incidents) {
      expect(incident.created_at >= start).toBe(true);
      expect(incident.updated_at <= now.toISOString()).toBe(true);
      expect(incident.updated_at >= incident.created_at).toBe(true);
    }
    const created = incidents.map((i) => i.created_at);
    expect(created).toEqual([...created].sort().reverse());
    // Something happened today, so "since yesterday" is never empty.
    expect(incidents.filter((i) => i.created_at >= '2026-10-31T12:00:00.000Z').length).toBeGreaterThanOrEqual(
      3,
    );
  });

  it('uses only documentation addresses and reserved names', () => {
    for (const entity of incidents.flatMap((i) => i.entities)) {
      if (entity.type === 'ip') {
        const address = ipaddr.parse(entity.value);
        expect(
          DOCUMENTATION_RANGES.some(
            ([range, bits]) => address.kind() === range.kind() && address.match(range, bits),
          ),
        ).toBe(true);
      }
      if (entity.type === 'domain') expect(entity.value).toMatch(/\.example\.(com|net|org)$/);
      if (entity.type === 'user')
        expect(entity.value).toMatch(/(@contoso\.example|@example\.net|^contoso\\)/);
    }
    for (const incident of incidents) {
      expect(new URL(incident.source_url!).hostname).toMatch(/(^|\.)example\.com$|^portal\.azure\.com$/);
    }
  });

  it('gives a first investigation on 203.0.113.66 or j.doe@contoso.example related incidents and a connected graph', () => {
    const mentioning = (value: string) => incidents.filter((i) => i.entities.some((e) => e.value === value));
    expect(mentioning('203.0.113.66').length).toBeGreaterThanOrEqual(5);
    expect(mentioning('j.doe@contoso.example').length).toBeGreaterThanOrEqual(5);
    expect(mentioning('micros0ft-login.example.com').length).toBeGreaterThanOrEqual(3);

    const edges = new Map<string, Edge>();
    for (const incident of incidents) {
      for (const edge of edgesFromIncident(incident))
        edges.set(edgeKey(edge), mergeEdge(edges.get(edgeKey(edge)), edge));
    }
    const sidesOf = (key: string) =>
      [...edges.values()].flatMap(edgeSides).filter((side) => entityKey(side.self) === key);
    const center = { type: 'ip', value: '203.0.113.66' } as const;
    const depth1 = sidesOf(entityKey(center));
    const depth2 = new Map(depth1.map((side) => [entityKey(side.other), sidesOf(entityKey(side.other))]));
    const neighborhood = assembleNeighborhood(center, depth1, depth2);
    const direct = neighborhood.filter((n) => n.depth === 1).map((n) => n.value);
    expect(direct).toEqual(
      expect.arrayContaining(['j.doe@contoso.example', 'dc01', 'micros0ft-login.example.com']),
    );
    // The phishing victim's workstation leads on to the C2 infrastructure at depth 2.
    expect(neighborhood.filter((n) => n.depth === 2).map((n) => n.value)).toEqual(
      expect.arrayContaining(['update-cdn.example.net', 'srv-db-01']),
    );
    // The strongest link of the spraying address is the victim it hit most often.
    expect(neighborhood[0]?.value).toBe('j.doe@contoso.example');
  });
});
