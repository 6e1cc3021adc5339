import type { Entity } from '../core/entity';
import type { FallbackReason, PersonaName } from '../core/vocabulary';
import type { BudgetUse } from './budget';
import type { ConverseMessage, JsonDocument } from './converse';
import type { SubmitReport } from './submit-report';

/** The state of the analyst's conversation with the model, as it is kept in DynamoDB between turns. */

/** A tool the investigation offers the model (the plan's tools, intel connectors included). */
export interface OfferedTool {
  name: string;
  description: string;
  /** Whether the tool can look up this entity; absent: any entity. */
  appliesTo?: (entity: Entity) => boolean;
}

export interface PendingTool {
  tool_use_id: string;
  tool: string;
  entity: Entity;
  turn: number;
  /** Set when the request was refused; the refusal is the tool result the model gets. */
  refused?: string;
}

export type Outcome =
  | { status: 'submitted'; report: SubmitReport; removed_indicators: string[]; unknown_findings: string[] }
  | { status: 'fallback'; reason: FallbackReason; detail?: string };

export interface Conversation {
  version: 1;
  model_id: string;
  prompt_version: string;
  persona: PersonaName;
  entity: Entity;
  use: BudgetUse;
  messages: ConverseMessage[];
  pending: PendingTool[];
  /** The next turn must call submit_report (lookup budget used up, last turn, or a nudge). */
  force_submit: boolean;
  nudged: boolean;
  outcome?: Outcome;
}

export type NextStep =
  | { action: 'run_tools'; requests: PendingTool[] }
  | { action: 'continue' }
  | { action: 'done'; outcome: Outcome };

/** History the service writes for a turn: the model's (grounded) words and events. */
export interface TurnRecord {
  messages: string[];
  events: { type: string; detail: Record<string, JsonDocument> }[];
}
