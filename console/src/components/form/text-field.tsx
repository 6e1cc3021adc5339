import type { InputHTMLAttributes } from 'preact';

/**
 * A labelled one-line text input: the label wraps the input, so it names it without an id. The other
 * attributes (name, required, maxLength, aria-describedby…) go to the input as given.
 */
export function TextField({
  label,
  onValue,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; onValue: (value: string) => void }) {
  return (
    <label>
      {label}
      <input {...input} onInput={(e) => onValue(e.currentTarget.value)} />
    </label>
  );
}
