import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  autoInvestigatedEntities,
  enrichmentDue,
  entitiesWithInvestigations,
  qualifiesForAutoInvestigation,
} from '../../../shared/domain/incidents/auto-investigation';
import { batchCounts, batchEntities, batchStatus } from '../../../shared/domain/investigation/batch';

const ip = { type: 'ip' as const, value: '203.0.113.7' };
const domain = { type: 'domain' as const, value: 'example.com' };

describe('batch rules', () => {
  it('keeps each distinct entity once, after normalisation, in its first order', () => {
    expect(
      batchEntities([
        '203.0.113.7',
        { type: 'domain', value: 'Example.COM.' },
        { type: 'ip', value: '203.0.113.7' },
      ]),
    ).toEqual([ip, domain]);
  });

  it('refuses an empty batch, one over 100 and one with a bad entity, naming each bad one', () => {
    expect(() => batchEntities([])).toThrow(ValidationError);
    expect(() => batchEntities(Array.from({ length: 101 }, (_, i) => `host-${i}`))).toThrow(/1 to 100/);
    try {
      batchEntities(['203.0.113.7', { type: 'ip', value: 'not-an-ip' }, { type: 'domain', value: 'co.uk' }]);
      expect.unreachable();
    } catch (error) {
      expect((error as ValidationError).details?.map((d) => d.path)).toEqual([
        'entities.1.value',
        'entities.2.value',
      ]);
    }
  });

  it('counts sessions by every status and is completed only when all ended', () => {
    expect(batchCounts(['completed', 'active', 'completed'])).toEqual({
      initialized: 0,
      active: 1,
      completed: 2,
      failed: 0,
      canceled: 0,
    });
    expect(batchStatus(['completed', 'active'])).toBe('active');
    expect(batchStatus(['completed', 'failed', 'canceled'])).toBe('completed');
  });
});

describe('auto-investigation rules', () => {
  const arrived = (severity: string, kind: 'push' | 'pull' | 'demo') => ({
    severity: severity as 'high',
    origin:
      kind === 'push'
        ? { kind, key_id: 'k' }
        : kind === 'pull'
          ? { kind, connector: 'splunk' as const }
          : { kind },
  });

  it('investigates pushed and pulled incidents at or above the level, never demo data', () => {
    expect(qualifiesForAutoInvestigation(arrived('high', 'push'), 'high')).toBe(true);
    expect(qualifiesForAutoInvestigation(arrived('critical', 'pull'), 'high')).toBe(true);
    expect(qualifiesForAutoInvestigation(arrived('medium', 'push'), 'high')).toBe(false);
    expect(qualifiesForAutoInvestigation(arrived('critical', 'demo'), 'medium')).toBe(false);
    expect(qualifiesForAutoInvestigation(arrived('critical', 'push'), 'off')).toBe(false);
  });

  it('takes at most 20 distinct entities of an incident', () => {
    const entities = Array.from({ length: 30 }, (_, i) => ({ type: 'host' as const, value: `h${i % 25}` }));
    expect(autoInvestigatedEntities({ entities })).toHaveLength(20);
  });

  it('finds incident.enriched due once every entity has a session and all ended, and never twice', () => {
    const running = [
      {
        entity: ip,
        session_id: 's1',
        status: 'completed' as const,
        verdict: 'malicious' as const,
        risk_score: 90,
      },
      { entity: domain, session_id: 's2', status: 'active' as const },
    ];
    expect(enrichmentDue([ip, domain], running, false)).toBe(false);
    expect(enrichmentDue([ip, domain], running.slice(0, 1), false)).toBe(false);
    const ended = [running[0]!, { ...running[1]!, status: 'failed' as const }];
    expect(enrichmentDue([ip, domain], ended, false)).toBe(true);
    expect(enrichmentDue([ip, domain], ended, true)).toBe(false);
  });

  it('links each entity with its session, verdict and risk score where known', () => {
    expect(
      entitiesWithInvestigations(
        [ip, domain],
        [{ entity: ip, session_id: 's1', status: 'completed', verdict: 'malicious', risk_score: 90 }],
      ),
    ).toEqual([{ ...ip, session_id: 's1', verdict: 'malicious', risk_score: 90 }, domain]);
  });
});
