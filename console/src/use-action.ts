import { useState } from 'preact/hooks';

/** One action a person starts (a form sent, a button pressed) as its controls show it. */
export interface Action {
  /** True while the action runs: its button is disabled and says what is happening. */
  busy: boolean;
  /** The failure of the last try, for an ErrorNote; cleared when the action runs again. */
  error: unknown;
  /** Shows a problem found before anything was sent (a choice left empty). */
  setError: (error: unknown) => void;
  /**
   * Runs `action` once. `leaving` is for an action that ends by taking its control away (a form that
   * closes, a page left): busy then stays on after success, so nothing can be sent twice meanwhile.
   */
  run: (action: () => Promise<unknown>, options?: { leaving?: boolean }) => Promise<void>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run: Action['run'] = async (action, { leaving = false } = {}) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      if (!leaving) setBusy(false);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
