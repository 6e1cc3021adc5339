import { perConfiguration } from '../../config';
import { AnalystStateRepository } from '../../store/sessions/analyst-state-repository';
import { HistoryRepository } from '../../store/sessions/history-repository';
import { ToolResultsRepository } from '../../store/sessions/tool-results-repository';
import { onSessionsTable } from '../../store/sessions-table';
import { type SessionContextWith, sessionContext } from '../sessions/session-context';

/**
 * What the workflow steps that judge a run's tool results work with: the session context with the
 * tool results and the analyst's conversation state. Assess also appends to the history (a fallback
 * it decides); the analyst turn writes its history with its state. Both only read the session
 * record (no creation, no status transition) and touch no other table.
 */
export type AnalystTurnContext = SessionContextWith<'toolResults' | 'analystState'>;
export type AssessContext = SessionContextWith<'toolResults' | 'analystState' | 'history'>;

/** The analyst turn's context of this process (one per cold start; rebuilt when tests reset the config). */
export const analystTurnContext = /* @__PURE__ */ perConfiguration(
  (cfg): AnalystTurnContext => ({
    ...sessionContext(),
    toolResults: onSessionsTable(cfg, ToolResultsRepository),
    analystState: onSessionsTable(cfg, AnalystStateRepository),
  }),
);

/** The Assess step's context of this process. */
export const assessContext = /* @__PURE__ */ perConfiguration(
  (cfg): AssessContext => ({
    ...analystTurnContext(),
    history: onSessionsTable(cfg, HistoryRepository),
  }),
);
