import { useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../components/common';
import { TextField } from '../../components/form/text-field';
import type { SessionFeedback } from '../../types';
import { useAction } from '../../use-action';

/**
 * "Mark as false positive / confirm" on a completed investigation (analysts and admins), with the
 * required reason and an optional expiry; every review is kept. An analyst's false positive awaits an
 * admin's approval (docs/tenant-knowledge.md): an admin approves it here by its review ID (shown when
 * it is recorded, and in Admin > Audit); the service refuses an analyst's approval (403).
 */
export function FeedbackControl({ sessionId, verdict }: { sessionId: string; verdict: string }) {
  const [comment, setComment] = useState('');
  const [days, setDays] = useState('');
  const [approves, setApproves] = useState('');
  const sending = useAction();
  const [given, setGiven] = useState<SessionFeedback | null>(null);
  const send = (review: 'true_positive' | 'false_positive', approval?: string) =>
    sending.run(async () =>
      setGiven(
        await api<SessionFeedback>('POST', `/sessions/${encodeURIComponent(sessionId)}/feedback`, {
          body: {
            verdict: review,
            comment,
            ...(days.trim() ? { expires_in_days: Number(days) } : {}),
            ...(approval ? { approves: approval } : {}),
          },
        }),
      ),
    );
  return (
    <section class="panel" aria-labelledby="feedback-heading">
      <h2 id="feedback-heading">Review this verdict</h2>
      <p class="muted">
        The verdict was <strong>{verdict}</strong>. Your review is quoted by later investigations of this
        entity: an admin's false positive makes them benign, a confirmation counts as evidence; an analyst's
        false positive waits for an admin's approval and meanwhile never outweighs feed or intel evidence or a
        confirmation.
      </p>
      <TextField
        label="Reason (comment)"
        name="comment"
        required
        maxLength={1000}
        value={comment}
        onValue={setComment}
      />
      <TextField
        label="Counts for (days, optional)"
        name="expires_in_days"
        inputMode="numeric"
        value={days}
        onValue={setDays}
      />
      <p>
        <button type="button" disabled={sending.busy} onClick={() => send('false_positive')}>
          Mark as false positive
        </button>{' '}
        <button type="button" class="danger" disabled={sending.busy} onClick={() => send('true_positive')}>
          Confirm (true positive)
        </button>
      </p>
      <TextField
        label="Admins: review ID of an analyst's false positive to approve"
        name="approves"
        value={approves}
        onValue={setApproves}
      />
      <p>
        <button
          type="button"
          disabled={sending.busy || !approves.trim()}
          onClick={() => send('false_positive', approves.trim())}
        >
          Approve that false positive
        </button>
      </p>
      <ErrorNote error={sending.error} />
      {given && (
        <p role="status">
          Recorded: {given.verdict.replace('_', ' ')} by {given.by} ({given.review_id})
          {given.expires_at ? `, counting until ${given.expires_at.slice(0, 10)}` : ''}
          {given.status === 'awaiting_approval' ? "; it awaits an admin's approval." : '.'}
        </p>
      )}
    </section>
  );
}
