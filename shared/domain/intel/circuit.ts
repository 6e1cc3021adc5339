/**
 * The circuit breaker of a connector, as pure rules over its persisted state: after
 * FAILURE_THRESHOLD consecutive failures the circuit opens for OPEN_MS and lookups are skipped
 * without calling; when that time has passed the next lookup is a trial (half-open): success closes
 * the circuit, failure opens it again. Shared by every function instance through the store.
 */
export const CIRCUIT_RULES = { failureThreshold: 3, openMs: 5 * 60_000 } as const;

export type CircuitStatus = 'closed' | 'open' | 'half_open';

export interface CircuitState {
  /** Consecutive failures since the last success. */
  failures: number;
  /** Epoch ms until which the circuit is open; absent while closed. */
  opened_until?: number;
  last_error_at?: string;
  /** Safe text: a status code or "timed out", never a key or a provider body. */
  last_error?: string;
}

export const CLOSED: CircuitState = Object.freeze({ failures: 0 });

export function circuitStatus(state: CircuitState | undefined, nowMs: number): CircuitStatus {
  if (!state?.opened_until) return 'closed';
  return nowMs < state.opened_until ? 'open' : 'half_open';
}

/** Whether a failure that brought the count to `failures` opens (or re-opens) the circuit. */
export function opensCircuit(failures: number, previous: CircuitStatus): boolean {
  return previous === 'half_open' || failures >= CIRCUIT_RULES.failureThreshold;
}
