import { describe, expect, it } from 'vitest';
import { parseTenantSettings } from '../../../infra/settings';
import { everyFunctionEnvironment } from '../../../infra/tenant/environment';
import { parseConfig } from '../../../shared/config';
import {
  DEFAULT_RETENTION_DAYS,
  expiryEpoch,
  idTimeMs,
  isExpired,
  retentionProblem,
} from '../../../shared/domain/retention/retention';
import { newId } from '../../../shared/services/investigations/investigations';

const DAY = 86_400;

/* Retention (docs/deploy.md "Retention"): the TTL each kind gets, and the settings behind it. */
describe('retention TTL', () => {
  it('counts whole days from the moment given, and 0 keeps forever', () => {
    const from = Date.parse('2026-01-01T00:00:00.750Z');
    expect(expiryEpoch(from, 365)).toBe(Math.floor(from / 1000) + 365 * DAY);
    expect(expiryEpoch(from, 0)).toBeUndefined();
    expect(expiryEpoch(Number.NaN, 30)).toBeUndefined();
  });

  it('reads a session ID’s creation time, so every item of the session gets the same TTL', () => {
    const created = new Date('2026-03-04T05:06:07.089Z');
    expect(idTimeMs(newId('s', created))).toBe(created.getTime());
    expect(idTimeMs(newId('b', created))).toBe(created.getTime());
    expect(idTimeMs('s_not-a-ulid')).toBeUndefined();
  });

  it('treats an item as expired from its TTL second on, and one without a TTL never', () => {
    expect(isExpired(1_000, 999_999)).toBe(false);
    expect(isExpired(1_000, 1_000_000)).toBe(true);
    expect(isExpired(undefined, Date.now())).toBe(false);
    expect(isExpired('1000', Date.now())).toBe(false);
  });

  it('keeps audit longest: refuses a shorter audit, or a finite one beside a kind kept forever', () => {
    expect(retentionProblem(DEFAULT_RETENTION_DAYS)).toBeUndefined();
    expect(retentionProblem({ sessions: 0, incidents: 0, graph: 0, audit: 0 })).toBeUndefined();
    expect(retentionProblem({ ...DEFAULT_RETENTION_DAYS, audit: 300 })).toMatch(
      /sessions 365 days, incidents 365 days outlive audit's 300 days/,
    );
    expect(retentionProblem({ ...DEFAULT_RETENTION_DAYS, graph: 0 })).toMatch(/graph forever \(0\)/);
  });
});

describe('retention settings', () => {
  it('hands every function its days, which the configuration parses (defaults when unset)', () => {
    const environment = everyFunctionEnvironment(
      parseTenantSettings({ tenant: 'acme', sessionRetentionDays: '90', graphRetentionDays: '30' }),
    );
    expect(environment).toMatchObject({
      SIS_SESSION_RETENTION_DAYS: '90',
      SIS_INCIDENT_RETENTION_DAYS: '365',
      SIS_GRAPH_RETENTION_DAYS: '30',
      SIS_AUDIT_RETENTION_DAYS: '2555',
    });
    const cfg = parseConfig(environment);
    expect([cfg.SIS_SESSION_RETENTION_DAYS, cfg.SIS_GRAPH_RETENTION_DAYS]).toEqual([90, 30]);
    expect(parseConfig({}).SIS_AUDIT_RETENTION_DAYS).toBe(2555);
    expect(() => parseConfig({ SIS_SESSION_RETENTION_DAYS: '-1' })).toThrow(/SIS_SESSION_RETENTION_DAYS/);
  });

  it('fails the synth naming auditRetentionDays when audit would not be kept longest', () => {
    expect(() => parseTenantSettings({ tenant: 'acme', auditRetentionDays: '30' })).toThrow(
      /context 'auditRetentionDays' must be at least as long as every other retention/,
    );
    expect(() => parseTenantSettings({ tenant: 'acme', sessionRetentionDays: '0' })).toThrow(
      /auditRetentionDays.*sessions forever/,
    );
    expect(() => parseTenantSettings({ tenant: 'acme', incidentRetentionDays: '36501' })).toThrow(
      /incidentRetentionDays/,
    );
  });
});
