import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A secret shown this once (a new API key, a webhook's signing secret): focused when it appears, a
 * warning that it will not be shown again, the value in a read-only field, a copy button and an
 * "I have stored the …" button that dismisses it for good.
 */
export function SecretPanel({
  title,
  secret,
  label,
  noun,
  afterwards,
  onDone,
}: {
  title: string;
  secret: string;
  /** The field's label: "API key", "Signing secret". */
  label: string;
  /** What the buttons name: "key", "secret". */
  noun: string;
  /** What the page shows of it after this message. */
  afterwards: ComponentChildren;
  onDone: () => void;
}) {
  const panel = useRef<HTMLElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  useEffect(() => panel.current?.focus(), [secret]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
      return;
    } catch {
      // The Clipboard API may be refused (permissions policy, focus): copy the selected field instead.
    }
    field.current?.select();
    setCopied(document.execCommand('copy') ? 'yes' : 'failed');
  };
  return (
    <section class="panel secret" aria-labelledby="secret-heading" tabIndex={-1} ref={panel}>
      <h2 id="secret-heading">{title}</h2>
      <p class="warning" role="alert">
        Copy this {noun} now and store it in a secrets manager. It will not be shown again: {afterwards}
      </p>
      <label>
        {label}
        <input
          ref={field}
          class="secret-value"
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy {noun}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have stored the {noun}
        </button>
        <span role="status">
          {copied === 'yes'
            ? 'Copied to the clipboard.'
            : copied === 'failed'
              ? `Copying failed: the ${noun} is selected, copy it yourself.`
              : ''}
        </span>
      </div>
    </section>
  );
}
