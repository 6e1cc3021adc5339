import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { errorText } from '../api';

/** A page's heading; focused when the page opens so screen readers announce the new page. */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = `${heading.current?.textContent ?? 'Console'} · Security Investigation Service`;
  }, [typeof children === 'string' ? children : '']);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(error)}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function Badge({ kind, children }: { kind: string; children: ComponentChildren }) {
  return <span class={`badge badge-${kind.replace(/[^a-z_-]/gi, '')}`}>{children}</span>;
}

export function EntityText({ type, value }: { type: string; value: string }) {
  return (
    <span class="entity">
      <span class="entity-type">{type}</span> <code>{value}</code>
    </span>
  );
}
