import { useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../components/common';
import { TextField } from '../../components/form/text-field';
import type { SessionFeedback } from '../../types';
import { useAction } from '../../use-action';

/**
 * "Mark as false positive / confirm" on a completed investigation (analysts and admins): later
 * investigations of the entity cite the review (who, when, comment); the latest review counts.
 */
export function FeedbackControl({ sessionId, verdict }: { sessionId: string; verdict: string }) {
  const [comment, setComment] = useState('');
  const sending = useAction();
  const [given, setGiven] = useState<SessionFeedback | null>(null);
  const send = (review: 'true_positive' | 'false_positive') =>
    sending.run(async () =>
      setGiven(
        await api<SessionFeedback>('POST', `/sessions/${encodeURIComponent(sessionId)}/feedback`, {
          body: { verdict: review, comment },
        }),
      ),
    );
  return (
    <section class="panel" aria-labelledby="feedback-heading">
      <h2 id="feedback-heading">Review this verdict</h2>
      <p class="muted">
        The verdict was <strong>{verdict}</strong>. Your review is quoted by later investigations of this
        entity: a false positive makes them benign, a confirmation counts as evidence.
      </p>
      <TextField label="Comment" name="comment" maxLength={1000} value={comment} onValue={setComment} />
      <p>
        <button type="button" disabled={sending.busy} onClick={() => send('false_positive')}>
          Mark as false positive
        </button>{' '}
        <button type="button" class="danger" disabled={sending.busy} onClick={() => send('true_positive')}>
          Confirm (true positive)
        </button>
      </p>
      <ErrorNote error={sending.error} />
      {given && (
        <p role="status">
          Recorded: {given.verdict.replace('_', ' ')} by {given.by}.
        </p>
      )}
    </section>
  );
}
