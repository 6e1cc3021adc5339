import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import type { InvestigationData } from '../../../shared/domain/core/vocabulary';
import {
  dataWithFaults,
  injectFault,
  parseFaultRules,
} from '../../../shared/services/workflow/workflow-faults';
import { createDocumentClient } from '../../../shared/store/dynamo-client';

/**
 * The test-only seams the reliability suites drive faults through: they parse exactly the documented
 * grammar, act only where a rule matches, and never act outside DynamoDB Local.
 */
const local = (env: Record<string, string>) =>
  parseConfig({ SIS_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', ...env });
const data: InvestigationData = {
  incidentsMentioning: async () => [],
  priorInvestigations: async () => [],
  neighbourhood: async () => [],
  tenantKnowledge: async () => ({ allowlist: [], feedback: [] }),
};

describe('SIS_FAULT_INJECTION', () => {
  it('parses step and in-tool actions', () => {
    expect(
      parseFaultRules(
        'step-assess@a.example=throw, step-run-tool@b.example#incident_history=tool-delay:11500,step-run-tool@c.example=tool-throw',
      ),
    ).toEqual([
      { step: 'step-assess', entityValue: 'a.example', action: { kind: 'throw' } },
      {
        step: 'step-run-tool',
        entityValue: 'b.example',
        tool: 'incident_history',
        action: { kind: 'tool-delay', ms: 11500 },
      },
      { step: 'step-run-tool', entityValue: 'c.example', action: { kind: 'tool-throw' } },
    ]);
    expect(() => parseFaultRules('step-run-tool@x=tool-explode')).toThrow(/cannot parse/);
  });

  it('applies in-tool rules to the data reads of the matching tool only, and never to the step', async () => {
    const cfg = local({ SIS_FAULT_INJECTION: 'step-run-tool@x.example#incident_history=tool-throw' });
    await expect(injectFault(cfg, 'step-run-tool', 'x.example', 'incident_history')).resolves.toBeUndefined();
    const faulty = dataWithFaults(cfg, 'step-run-tool', 'x.example', 'incident_history', data);
    await expect(faulty.incidentsMentioning({ type: 'domain', value: 'x.example' }, 5)).rejects.toThrow(
      /Injected fault inside incident_history/,
    );
    expect(dataWithFaults(cfg, 'step-run-tool', 'x.example', 'graph_neighbourhood', data)).toBe(data);
    expect(dataWithFaults(cfg, 'step-run-tool', 'y.example', 'incident_history', data)).toBe(data);
  });

  it('is ignored without a DynamoDB Local endpoint', async () => {
    const cfg = parseConfig({ SIS_FAULT_INJECTION: 'step-run-tool@x.example=tool-throw' });
    expect(dataWithFaults(cfg, 'step-run-tool', 'x.example', 'incident_history', data)).toBe(data);
  });
});

describe('SIS_DYNAMODB_FAULT_RATE', () => {
  const names = (env: Record<string, string>, endpoint: boolean) => {
    const cfg = endpoint ? local(env) : parseConfig(env);
    const doc = createDocumentClient(cfg);
    const stack = (
      doc as unknown as { middlewareStack: { identify(): string[] } }
    ).middlewareStack.identify();
    doc.destroy();
    return stack;
  };

  it('adds the throttling middleware only against DynamoDB Local, inside the retry loop', () => {
    const withSeam = names({ SIS_DYNAMODB_FAULT_RATE: '0.2' }, true);
    expect(withSeam.some((n) => n.startsWith('sisInjectedThrottling'))).toBe(true);
    expect(withSeam.findIndex((n) => n.startsWith('retryMiddleware'))).toBeLessThan(
      withSeam.findIndex((n) => n.startsWith('sisInjectedThrottling')),
    );
    expect(names({ SIS_DYNAMODB_FAULT_RATE: '0.2' }, false).some((n) => n.startsWith('sisInjected'))).toBe(
      false,
    );
    expect(names({}, true).some((n) => n.startsWith('sisInjected'))).toBe(false);
  });

  it('refuses rates above 0.5', () => {
    expect(() => local({ SIS_DYNAMODB_FAULT_RATE: '0.9' })).toThrow(/SIS_DYNAMODB_FAULT_RATE/);
  });
});
