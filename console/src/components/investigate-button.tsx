import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { sessionHref } from '../format';
import type { Entity } from '../types';
import { ErrorNote } from './common';
import { startInvestigation } from './start-investigation';

/** "Investigate this entity": starts a background investigation and opens its page. */
export function InvestigateButton({ entity, label }: { entity: Entity; label?: string }) {
  const { route } = useLocation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const started = await startInvestigation({ type: entity.type, value: entity.value });
      route(sessionHref(started.session_id));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={start} disabled={busy}>
        {busy ? 'Starting…' : (label ?? `Investigate ${entity.value}`)}
      </button>
      <ErrorNote error={error} />
    </>
  );
}
