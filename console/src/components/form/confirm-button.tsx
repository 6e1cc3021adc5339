import { useState } from 'preact/hooks';

/**
 * A button for an action that cannot be undone (remove a webhook, rotate its secret): the first press
 * asks, in place, "<question>" with the action and "Keep"; only the second press acts.
 */
export function ConfirmButton({
  label,
  target,
  question,
  confirmLabel,
  busy,
  onConfirm,
}: {
  /** The button's text ("Remove") and what it acts on, for screen readers ("XSOAR playbook"). */
  label: string;
  target: string;
  question: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class="secondary" onClick={() => setAsking(true)}>
        {label} <span class="visually-hidden">{target}</span>
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend class="small">{question}</legend>
      <button
        type="button"
        class="danger"
        disabled={busy}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>{' '}
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Keep
      </button>
    </fieldset>
  );
}
