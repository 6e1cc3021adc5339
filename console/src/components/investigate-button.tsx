import { useLocation } from 'preact-iso/router';
import { sessionHref } from '../format';
import type { Entity } from '../types';
import { useAction } from '../use-action';
import { ErrorNote } from './common';
import { startInvestigation } from './start-investigation';

/** "Investigate this entity": starts a background investigation and opens its page. */
export function InvestigateButton({ entity, label }: { entity: Entity; label?: string }) {
  const { route } = useLocation();
  const starting = useAction();
  // Leaving: the session page opens once the investigation is started.
  const start = () =>
    starting.run(
      async () => {
        const started = await startInvestigation({ type: entity.type, value: entity.value });
        route(sessionHref(started.session_id));
      },
      { leaving: true },
    );
  return (
    <>
      <button type="button" onClick={start} disabled={starting.busy}>
        {starting.busy ? 'Starting…' : (label ?? `Investigate ${entity.value}`)}
      </button>
      <ErrorNote error={starting.error} />
    </>
  );
}
