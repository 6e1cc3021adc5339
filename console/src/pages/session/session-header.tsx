import { ApiError, api } from '../../api';
import { Badge, EntityText, ErrorNote } from '../../components/common';
import { Starter } from '../../components/starter';
import { graphHref, when } from '../../format';
import type { SessionSummary } from '../../types';
import { useAction } from '../../use-action';

/** The session's facts, with a cancel button while it runs. */
export function SessionHeader({
  session,
  running,
  onCanceled,
}: {
  session: SessionSummary;
  running: boolean;
  onCanceled: () => void;
}) {
  const canceling = useAction();
  const cancel = () =>
    canceling.run(async () => {
      try {
        await api('POST', `/sessions/${encodeURIComponent(session.session_id)}/cancel`);
      } catch (caught) {
        // 409: it ended meanwhile; the next poll shows how.
        if (!(caught instanceof ApiError && caught.status === 409)) throw caught;
      } finally {
        onCanceled();
      }
    });
  return (
    <section class="panel" aria-label="Session">
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span role="status">
              <Badge kind={session.status}>{session.status}</Badge>
            </span>
            {running && <span class="muted"> · updating live</span>}
          </dd>
        </div>
        <div>
          <dt>Entity</dt>
          <dd>
            <a href={graphHref(session.entity)}>
              <EntityText type={session.entity.type} value={session.entity.value} />
            </a>
          </dd>
        </div>
        <div>
          <dt>Persona</dt>
          <dd>{session.persona}</dd>
        </div>
        {session.tlp && (
          <div>
            <dt>TLP</dt>
            <dd>
              <Badge kind={`tlp-${session.tlp.replace('+', '-')}`}>TLP:{session.tlp.toUpperCase()}</Badge>
            </dd>
          </div>
        )}
        <div>
          <dt>Started</dt>
          <dd>{when(session.created_at)}</dd>
        </div>
        {session.started_by && (
          <div>
            <dt>Started by</dt>
            <dd>
              <Starter
                kind={session.started_by.kind === 'api_key' ? 'key' : 'user'}
                id={session.started_by.key_id}
                name={session.started_by.name}
                via={session.started_by.via}
              />
            </dd>
          </div>
        )}
        {session.completed_at && (
          <div>
            <dt>Ended</dt>
            <dd>{when(session.completed_at)}</dd>
          </div>
        )}
        <div>
          <dt>Session ID</dt>
          <dd>
            <code>{session.session_id}</code>
          </dd>
        </div>
      </dl>
      {running && (
        <button type="button" class="danger" onClick={cancel} disabled={canceling.busy}>
          {canceling.busy ? 'Canceling…' : 'Cancel investigation'}
        </button>
      )}
      <ErrorNote error={canceling.error} />
    </section>
  );
}
