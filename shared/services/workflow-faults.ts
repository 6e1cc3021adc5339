import type { Config } from '../config';

/**
 * TEST-ONLY seam: makes a workflow step fail or stall for one entity, so tests can drive the real
 * workflow through its failure paths (a tool failing, the engine failing, a run still going when it
 * is canceled or the runtime restarts). Rules come from SIS_FAULT_INJECTION, read once per cold start,
 * and are ignored unless the process talks to DynamoDB Local: a deployed stack can never act on them.
 *
 *   step-assess@engine-fault.example.com=throw
 *   step-run-tool@tool-fault.example.com#ip_classification=throw
 *   step-run-tool@slow.example.com=delay:3000
 */
export interface FaultRule {
  step: string;
  entityValue: string;
  tool?: string;
  action: { kind: 'throw' } | { kind: 'delay'; ms: number };
}

export class InjectedFault extends Error {
  override readonly name = 'InjectedFault';
}

const RULE = /^([a-z0-9-]+)@([^#=]+)(?:#([a-z0-9_]+))?=(throw|delay:(\d{1,6}))$/;

export function parseFaultRules(text: string | undefined): FaultRule[] {
  if (!text) return [];
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = RULE.exec(part);
      if (!match) throw new Error(`SIS_FAULT_INJECTION: cannot parse rule "${part}"`);
      const [, step = '', entityValue = '', tool, action = '', ms] = match;
      return {
        step,
        entityValue,
        ...(tool ? { tool } : {}),
        action: action === 'throw' ? { kind: 'throw' } : { kind: 'delay', ms: Number(ms) },
      };
    });
}

let cached: { source: string | undefined; rules: FaultRule[] } | undefined;

function rulesFor(cfg: Config): FaultRule[] {
  if (!cfg.SIS_DYNAMODB_ENDPOINT) return [];
  if (!cached || cached.source !== cfg.SIS_FAULT_INJECTION) {
    cached = { source: cfg.SIS_FAULT_INJECTION, rules: parseFaultRules(cfg.SIS_FAULT_INJECTION) };
  }
  return cached.rules;
}

/** Applies the first matching rule: waits, or throws InjectedFault. */
export async function injectFault(
  cfg: Config,
  step: string,
  entityValue: string,
  tool?: string,
): Promise<void> {
  const rule = rulesFor(cfg).find(
    (r) => r.step === step && r.entityValue === entityValue && (r.tool === undefined || r.tool === tool),
  );
  if (!rule) return;
  if (rule.action.kind === 'delay') {
    await new Promise((wake) => setTimeout(wake, (rule.action as { ms: number }).ms));
    return;
  }
  throw new InjectedFault(`Injected fault in ${step}${tool ? ` (${tool})` : ''}`);
}
