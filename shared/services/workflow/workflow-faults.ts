import type { Config } from '../../config';
import type { InvestigationData } from '../../domain/core/vocabulary';
import { type WebhookContext, webhookContext } from '../webhooks/webhook-context';

/**
 * TEST-ONLY seam: makes a workflow step fail or stall for one entity, so tests can drive the real
 * workflow through its failure paths (a tool failing, the engine failing, a run still going when it
 * is canceled or the runtime restarts). Rules come from SIS_FAULT_INJECTION, read once per cold start,
 * and are ignored unless the process talks to DynamoDB Local: a deployed stack can never act on them.
 *
 *   step-assess@engine-fault.example.com=throw
 *   step-run-tool@tool-fault.example.com#ip_classification=throw
 *   step-run-tool@slow.example.com=delay:3000
 *
 * `throw` and `delay` act on the step itself (the step Lambda fails or stalls); `throw-once` fails
 * only the first time it matches in the process (a store hiccup that a retry gets past: the
 * `webhook-outbox` point, the outbox write of a session's webhook event, and `webhook-send`, the
 * send of its first attempts). `tool-throw` and
 * `tool-delay:<ms>` act inside the tool instead, on its data reads (step-run-tool only): the engine
 * then records the tool as failed, or as timed_out once the delay passes the tool timeout, exactly as
 * for a broken or hanging enricher.
 *
 *   step-run-tool@hang.example.com#incident_history=tool-delay:15000
 */
export type FaultAction =
  | { kind: 'throw' }
  | { kind: 'throw-once' }
  | { kind: 'delay'; ms: number }
  | { kind: 'tool-throw' }
  | { kind: 'tool-delay'; ms: number };

export interface FaultRule {
  step: string;
  entityValue: string;
  tool?: string;
  action: FaultAction;
}

export class InjectedFault extends Error {
  override readonly name = 'InjectedFault';
}

const RULE =
  /^([a-z0-9-]+)@([^#=]+)(?:#([a-z0-9_]+))?=(throw-once|(?:tool-)?throw|(?:tool-)?delay:(\d{1,6}))$/;

function actionOf(text: string, ms: string | undefined): FaultAction {
  if (text === 'throw') return { kind: 'throw' };
  if (text === 'throw-once') return { kind: 'throw-once' };
  if (text === 'tool-throw') return { kind: 'tool-throw' };
  return { kind: text.startsWith('tool-') ? 'tool-delay' : 'delay', ms: Number(ms) };
}

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
        action: actionOf(action, ms),
      };
    });
}

let cached: { source: string | undefined; rules: FaultRule[] } | undefined;
/** The `throw-once` rules that have fired in this process. */
const fired = new WeakSet<FaultRule>();

function rulesFor(cfg: Config): FaultRule[] {
  if (!cfg.SIS_DYNAMODB_ENDPOINT) return [];
  if (!cached || cached.source !== cfg.SIS_FAULT_INJECTION) {
    cached = { source: cfg.SIS_FAULT_INJECTION, rules: parseFaultRules(cfg.SIS_FAULT_INJECTION) };
  }
  return cached.rules;
}

function matching(cfg: Config, step: string, entityValue: string, tool: string | undefined, inTool: boolean) {
  return rulesFor(cfg).find(
    (r) =>
      r.step === step &&
      r.entityValue === entityValue &&
      (r.tool === undefined || r.tool === tool) &&
      r.action.kind.startsWith('tool-') === inTool,
  );
}

/** Applies the first matching step rule: waits, or throws InjectedFault. */
export async function injectFault(
  cfg: Config,
  step: string,
  entityValue: string,
  tool?: string,
): Promise<void> {
  const rule = matching(cfg, step, entityValue, tool, false);
  if (!rule) return;
  if (rule.action.kind === 'delay') {
    await new Promise((wake) => setTimeout(wake, (rule.action as { ms: number }).ms));
    return;
  }
  if (rule.action.kind === 'throw-once') {
    if (fired.has(rule)) return;
    fired.add(rule);
  }
  throw new InjectedFault(`Injected fault in ${step}${tool ? ` (${tool})` : ''}`);
}

/** The tool's data port with the first matching in-tool rule applied to every read (or as is). */
export function dataWithFaults(
  cfg: Config,
  step: string,
  entityValue: string,
  tool: string,
  data: InvestigationData,
): InvestigationData {
  const rule = matching(cfg, step, entityValue, tool, true);
  if (!rule) return data;
  const action = rule.action;
  const before = async () => {
    if (action.kind === 'tool-delay') await new Promise((wake) => setTimeout(wake, action.ms));
    else throw new InjectedFault(`Injected fault inside ${tool}`);
  };
  return {
    incidentsMentioning: async (...args) => {
      await before();
      return data.incidentsMentioning(...args);
    },
    priorInvestigations: async (...args) => {
      await before();
      return data.priorInvestigations(...args);
    },
    neighbourhood: async (...args) => {
      await before();
      return data.neighbourhood(...args);
    },
    tenantKnowledge: async (...args) => {
      await before();
      return data.tenantKnowledge(...args);
    },
  };
}

/**
 * The webhook context a session's end is published with: with a `webhook-outbox` rule for the
 * entity, its outbox writes (the delivery items written on their own) go through the rule first;
 * with a `webhook-send` rule, its sends of first attempts (a lost invoke); otherwise as is.
 */
export function webhookContextFor(entityValue: string): WebhookContext {
  const ctx = webhookContext();
  const outboxFault = matching(ctx.cfg, 'webhook-outbox', entityValue, undefined, false);
  const sendFault = matching(ctx.cfg, 'webhook-send', entityValue, undefined, false);
  if (!outboxFault && !sendFault) return ctx;
  const deliveries = ctx.deliveries;
  const faulty = Object.create(deliveries) as typeof deliveries;
  faulty.createOnce = async (delivery) => {
    await injectFault(ctx.cfg, 'webhook-outbox', entityValue);
    return deliveries.createOnce(delivery);
  };
  const dispatch = ctx.dispatch;
  return {
    ...ctx,
    deliveries: faulty,
    dispatch: dispatch && {
      send: async (attempts) => {
        await injectFault(ctx.cfg, 'webhook-send', entityValue);
        return dispatch.send(attempts);
      },
    },
  };
}
