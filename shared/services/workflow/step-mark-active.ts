import type { AnalystMode } from '../../domain/analyst/modes';
import type { Entity } from '../../domain/core/entity';
import { normaliseEntity } from '../../domain/core/entity-normalisation';
import { isTerminal } from '../../domain/core/session-status';
import { type Tlp, tlpOf } from '../../domain/core/tlp';
import type { ToolName } from '../../domain/core/vocabulary';
import { connectorOfTool } from '../../domain/intel/connectors';
import { openingMessage } from '../../domain/investigation/report/report';
import { toolsFor } from '../../domain/investigation/tools/tool-catalogue';
import { event, message } from '../sessions/session-context';
import type { PlanningContext } from './planning-context';
import { injectFault } from './workflow-faults';
import { loadSession, SessionEndedError, SessionInput } from './workflow-step';

/** The MarkActive state: plans the tools for the session's entity and moves it initialized → active. */
export interface Plan {
  entity: Entity;
  persona: string;
  /** The built-in tools, run by step-run-tool (the workflow's RunBuiltInTools Map). */
  tools: ToolName[];
  /**
   * The connector tools (`intel_*`), run by step-run-intel (the RunIntelTools Map, beside the other):
   * two lists rather than one routed per tool, since a Choice per tool is a billed transition that a
   * deployment without connectors (the default: this list is empty) would pay for.
   */
  intel_tools: ToolName[];
  /** Handed to every tool by the Map state: connectors gate what they send on them. */
  tlp: Tlp;
  refresh_intel: boolean;
  /** The deployment's analyst mode: the workflow's Choice sends `bedrock` runs through AnalystTurn. */
  analyst: AnalystMode;
}

export async function markActive(ctx: PlanningContext, rawInput: unknown): Promise<Plan> {
  const { session_id } = SessionInput.parse(rawInput);
  const session = await loadSession(ctx, session_id);
  const entity = normaliseEntity(session.entity);
  await injectFault(ctx.cfg, 'step-mark-active', entity.value);
  const tools = toolsFor(
    entity,
    (connector) => ctx.intel?.enabled(connector) ?? false,
    ctx.feedsEnabled === true,
  );
  const plan: Plan = {
    entity,
    persona: session.persona,
    tools: tools.filter((tool) => connectorOfTool(tool) === undefined),
    intel_tools: tools.filter((tool) => connectorOfTool(tool) !== undefined),
    tlp: tlpOf(session.tlp),
    refresh_intel: session.options?.refresh_intel === true,
    analyst: ctx.cfg.SIS_ANALYST,
  };
  if (session.status === 'active') return plan; // a retried step, or a duplicate execution's
  if (isTerminal(session.status)) return nothingToRun(plan);
  const at = ctx.now();
  const moved = await ctx.sessions.transition(session_id, 'active', { started_at: at.toISOString() }, [
    event(at, 'status_changed', { status: 'active', tools }),
    message(at, 'assistant', openingMessage(session.persona, entity, tools)),
  ]);
  if (!moved.ok && moved.session?.status !== 'active') {
    if (!moved.session) throw new SessionEndedError(`Session ${session_id} is gone`);
    return nothingToRun(plan);
  }
  return plan;
}

/**
 * The plan of a run whose session already ended (canceled before its run began, or a duplicate
 * delivery of an execution that already completed: Express runs at least once): no tools, the rules
 * path, so Assess and Persist find the session ended and the run succeeds having written nothing,
 * rather than failing into MarkFailed (and the failures alarm) for a session that is fine.
 */
function nothingToRun(plan: Plan): Plan {
  return { ...plan, tools: [], intel_tools: [], analyst: 'rules' };
}
