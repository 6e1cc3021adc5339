import type { AnalystMode } from '../analyst/modes';
import type { EntityType } from '../core/entity';

/**
 * Which of the two state machines built from the one investigation definition runs an
 * investigation (docs/workflow.md "Express or Standard").
 *
 * Express bills an execution ($1.00 per million) and its duration, Standard every state transition
 * (a default rules run is 12 of them, $300 per million runs), so every run that can take Express
 * does. Express executions end after 5 minutes whatever the definition says, run at least once
 * (a step or a whole execution may run twice) and leave no execution record to describe, stop or
 * emit a status-change event. So Express takes only runs that finish in well under its limit: the
 * rules analyst with no connector tool to run (built-in tools, each bounded by its 10 s tool
 * timeout, a whole run about 150 ms). The bedrock analyst (a 300 s budget of model turns on its own)
 * and runs with connector lookups (network calls, quotas, retries over minutes) stay on Standard.
 */
export const WORKFLOW_TYPES = ['express', 'standard'] as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];

/** Step Functions' limit on an Express execution's duration. */
export const EXPRESS_MAX_SECONDS = 300;

export interface RunShape {
  /** The deployment's analyst mode (SIS_ANALYST). */
  analyst: AnalystMode;
  /** The investigated entity's type. */
  entityType: EntityType;
  /** Entity types at least one enabled connector looks up: such a run plans connector tools. */
  connectorEntityTypes: ReadonlySet<EntityType>;
  /** The deployment has an Express state machine (absent: every run is Standard, as before). */
  expressAvailable: boolean;
}

/** The state machine for one run. */
export function workflowTypeFor(run: RunShape): WorkflowType {
  if (!run.expressAvailable) return 'standard';
  if (run.analyst !== 'rules') return 'standard';
  if (run.connectorEntityTypes.has(run.entityType)) return 'standard';
  return 'express';
}

/** The type a session's run was started on; sessions from before the choice ran on Standard. */
export function workflowTypeOf(session: { workflow?: string | undefined }): WorkflowType {
  return session.workflow === 'express' ? 'express' : 'standard';
}
