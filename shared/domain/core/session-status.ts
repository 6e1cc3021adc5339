/**
 * The investigation session lifecycle (spec section 3): initialized → active → completed | failed |
 * canceled. A terminal status is final: nothing moves a session out of it, so a late workflow step,
 * a duplicate EventBridge delivery or a cancel racing completion can never rewrite the outcome.
 *
 * initialized may also end directly (failed when the workflow could not be started or a restart
 * interrupted it, canceled when the caller cancels before the first step ran).
 */
export const SESSION_STATUSES = ['initialized', 'active', 'completed', 'failed', 'canceled'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const TERMINAL_STATUSES = [
  'completed',
  'failed',
  'canceled',
] as const satisfies readonly SessionStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

const NEXT: Record<SessionStatus, readonly SessionStatus[]> = {
  initialized: ['active', 'failed', 'canceled'],
  active: ['completed', 'failed', 'canceled'],
  completed: [],
  failed: [],
  canceled: [],
};

export function isTerminal(status: SessionStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export function canTransition(from: SessionStatus, to: SessionStatus): boolean {
  return NEXT[from].includes(to);
}

/** The statuses a session may be in for a move to `to`; the store turns this into its condition. */
export function statusesBefore(to: SessionStatus): SessionStatus[] {
  return SESSION_STATUSES.filter((from) => canTransition(from, to));
}
