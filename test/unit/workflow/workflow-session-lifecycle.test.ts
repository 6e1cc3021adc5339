import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import {
  canTransition,
  isTerminal,
  SESSION_STATUSES,
  type SessionStatus,
  statusesBefore,
} from '../../../shared/domain/core/session-status';
import { executionArnFor } from '../../../shared/platform/workflow-engine';
import { newId } from '../../../shared/services/investigations/investigations';
import {
  InjectedFault,
  injectFault,
  parseFaultRules,
} from '../../../shared/services/workflow/workflow-faults';

describe('session lifecycle', () => {
  const allowed: Record<SessionStatus, SessionStatus[]> = {
    initialized: ['active', 'failed', 'canceled'],
    active: ['completed', 'failed', 'canceled'],
    completed: [],
    failed: [],
    canceled: [],
  };

  it.each(SESSION_STATUSES)('from %s allows exactly the documented moves', (from) => {
    for (const to of SESSION_STATUSES)
      expect(canTransition(from, to), `${from} → ${to}`).toBe(allowed[from].includes(to));
  });

  it('never leaves a terminal status and never completes without having been active', () => {
    for (const status of SESSION_STATUSES) expect(isTerminal(status)).toBe(allowed[status].length === 0);
    expect(statusesBefore('completed')).toEqual(['active']);
    expect(statusesBefore('canceled')).toEqual(['initialized', 'active']);
    expect(statusesBefore('initialized')).toEqual([]);
  });
});

describe('run and session identifiers', () => {
  it('are time-ordered, valid session IDs and valid execution names', () => {
    const early = newId('s', new Date('2026-01-01T00:00:00Z'));
    const late = newId('s', new Date('2026-01-01T00:00:01Z'));
    expect(early < late).toBe(true);
    expect(early).toMatch(/^s_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId('r')).toMatch(/^[A-Za-z0-9_-]{1,80}$/);
    expect(new Set(Array.from({ length: 1000 }, () => newId('s'))).size).toBe(1000);
  });

  it('derive the execution ARN from the state machine ARN and the run ID', () => {
    expect(
      executionArnFor('arn:aws:states:eu-west-1:123456789012:stateMachine:sis-acme-investigation', 'r_1'),
    ).toBe('arn:aws:states:eu-west-1:123456789012:execution:sis-acme-investigation:r_1');
  });
});

describe('test-only fault injection', () => {
  it('parses step, entity, optional tool and action', () => {
    expect(
      parseFaultRules(
        'step-assess@bad.example.com=throw, step-run-tool@x.example.com#domain_analysis=delay:250',
      ),
    ).toEqual([
      { step: 'step-assess', entityValue: 'bad.example.com', action: { kind: 'throw' } },
      {
        step: 'step-run-tool',
        entityValue: 'x.example.com',
        tool: 'domain_analysis',
        action: { kind: 'delay', ms: 250 },
      },
    ]);
    expect(parseFaultRules(undefined)).toEqual([]);
    expect(() => parseFaultRules('step-assess=throw')).toThrow(/cannot parse/);
  });

  const local = parseConfig({
    SIS_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
    SIS_FAULT_INJECTION:
      'step-assess@bad.example.com=throw,step-run-tool@bad.example.com#ip_classification=throw',
  });

  it('throws only for the named step, entity and tool', async () => {
    await expect(injectFault(local, 'step-assess', 'bad.example.com')).rejects.toBeInstanceOf(InjectedFault);
    await expect(injectFault(local, 'step-assess', 'good.example.com')).resolves.toBeUndefined();
    await expect(injectFault(local, 'step-persist', 'bad.example.com')).resolves.toBeUndefined();
    await expect(
      injectFault(local, 'step-run-tool', 'bad.example.com', 'ip_classification'),
    ).rejects.toThrow();
    await expect(
      injectFault(local, 'step-run-tool', 'bad.example.com', 'incident_history'),
    ).resolves.toBeUndefined();
  });

  it('is ignored outside DynamoDB Local, so a deployed stack can never act on it', async () => {
    const deployed = parseConfig({ SIS_FAULT_INJECTION: 'step-assess@bad.example.com=throw' });
    await expect(injectFault(deployed, 'step-assess', 'bad.example.com')).resolves.toBeUndefined();
  });
});
