import { describe, expect, it } from 'vitest';
import { type AllowlistEntry, evaluateAudit } from '../../../scripts/audit-check';

/** `npm audit --json` (report version 2) in the shape npm 7-11 print it. */
const report = JSON.stringify({
  auditReportVersion: 2,
  vulnerabilities: {
    'follow-redirects': {
      name: 'follow-redirects',
      severity: 'high',
      isDirect: false,
      via: [
        {
          source: 1096856,
          name: 'follow-redirects',
          dependency: 'follow-redirects',
          title: 'Proxy-Authorization header kept across hosts',
          url: 'https://github.com/advisories/GHSA-cxjh-pqwp-8mfp',
          severity: 'high',
          range: '<=1.15.5',
        },
      ],
      effects: ['http-client'],
      nodes: ['node_modules/follow-redirects'],
      fixAvailable: true,
    },
    'http-client': {
      name: 'http-client',
      severity: 'high',
      isDirect: true,
      via: ['follow-redirects'],
      effects: [],
      nodes: ['node_modules/http-client'],
      fixAvailable: true,
    },
    'tiny-lib': {
      name: 'tiny-lib',
      severity: 'moderate',
      isDirect: true,
      via: [
        {
          source: 1,
          name: 'tiny-lib',
          title: 'ReDoS',
          url: 'https://github.com/advisories/GHSA-aaaa-bbbb-cccc',
          severity: 'moderate',
        },
      ],
    },
    'big-lib': {
      name: 'big-lib',
      severity: 'critical',
      via: [
        {
          source: 2,
          name: 'big-lib',
          title: 'Prototype pollution',
          url: 'https://github.com/advisories/GHSA-dddd-eeee-ffff',
          severity: 'critical',
        },
      ],
    },
  },
  metadata: { vulnerabilities: { info: 0, low: 0, moderate: 1, high: 2, critical: 1, total: 4 } },
});

const allow = (overrides: Partial<AllowlistEntry> = {}): AllowlistEntry => ({
  advisory: 'GHSA-dddd-eeee-ffff',
  package: 'big-lib',
  reason: 'Only the CLI entry point is affected; the service never loads it.',
  expires: '2026-12-31',
  ...overrides,
});

const now = new Date('2026-11-22T12:00:00Z');

describe('npm audit gate', () => {
  it('fails on every high or critical advisory, once each, and ignores lower severities', () => {
    const outcome = evaluateAudit(report, [], now);
    expect(outcome.kind).toBe('checked');
    if (outcome.kind !== 'checked') return;
    expect(outcome.failing.map((a) => [a.package, a.id, a.severity]).sort()).toEqual([
      ['big-lib', 'GHSA-DDDD-EEEE-FFFF', 'critical'],
      ['follow-redirects', 'GHSA-CXJH-PQWP-8MFP', 'high'],
    ]);
    expect(outcome.ignored.map((a) => a.package)).toEqual(['tiny-lib']);
  });

  it('lets an allowlisted advisory through only for its package and until its expiry day ends', () => {
    const passing = evaluateAudit(report, [allow()], now);
    expect(passing.kind === 'checked' && passing.failing.map((a) => a.package)).toEqual(['follow-redirects']);
    expect(passing.kind === 'checked' && passing.allowed.map((a) => a.package)).toEqual(['big-lib']);
    const byUrl = evaluateAudit(
      report,
      [allow({ advisory: 'https://github.com/advisories/GHSA-dddd-eeee-ffff' })],
      now,
    );
    expect(byUrl.kind === 'checked' && byUrl.allowed).toHaveLength(1);
    const otherPackage = evaluateAudit(report, [allow({ package: 'tiny-lib' })], now);
    expect(otherPackage.kind === 'checked' && otherPackage.allowed).toHaveLength(0);
    const lastDay = evaluateAudit(report, [allow({ expires: '2026-11-22' })], now);
    expect(lastDay.kind === 'checked' && lastDay.allowed).toHaveLength(1);
    const expired = evaluateAudit(report, [allow({ expires: '2026-11-21' })], now);
    expect(expired.kind === 'checked' && expired.allowed).toHaveLength(0);
  });

  it('refuses allowlist entries without a real reason or a date', () => {
    const outcome = evaluateAudit(report, [allow({ reason: 'ok' }), allow({ expires: 'never' })], now);
    expect(outcome.kind === 'checked' && outcome.problems).toHaveLength(2);
  });

  it('reports an unreachable audit endpoint as unchecked, never as clean', () => {
    const blocked = JSON.stringify({
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      statusCode: 405,
    });
    expect(evaluateAudit(blocked, [], now)).toEqual({
      kind: 'unreachable',
      detail: expect.stringContaining('405'),
    });
    expect(evaluateAudit('', [], now).kind).toBe('unreachable');
    const clean = JSON.stringify({ auditReportVersion: 2, vulnerabilities: {}, metadata: {} });
    expect(evaluateAudit(clean, [], now)).toMatchObject({ kind: 'checked', failing: [] });
  });

  it('fails when the audit service answered with an error, and tells a network failure from it', () => {
    const serverError = JSON.stringify({
      message: '503 Service Unavailable - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      statusCode: 503,
    });
    expect(evaluateAudit(serverError, [], now)).toEqual({
      kind: 'failed',
      detail: expect.stringContaining('503'),
    });
    const lockProblem = JSON.stringify({
      error: { code: 'ENOLOCK', summary: 'This command requires an existing lockfile.' },
    });
    expect(evaluateAudit(lockProblem, [], now).kind).toBe('failed');
    expect(evaluateAudit('npm ERR! something odd', [], now).kind).toBe('failed');
    const offline = JSON.stringify({
      error: {
        code: 'ENOTFOUND',
        summary: 'request to https://registry.npmjs.org/-/npm/v1/security/advisories/bulk failed',
      },
    });
    expect(evaluateAudit(offline, [], now)).toEqual({
      kind: 'unreachable',
      detail: expect.stringContaining('ENOTFOUND'),
    });
    const notOffered = JSON.stringify({
      message: '404 Not Found - POST https://mirror.example/-/npm/v1/security/advisories/bulk',
      statusCode: 404,
    });
    expect(evaluateAudit(notOffered, [], now).kind).toBe('unreachable');
  });
});
