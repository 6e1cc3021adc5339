import type { ComponentChildren } from 'preact';

/**
 * A table of records: a caption naming them (for screen readers only, unless `captionShown`), one
 * header row of column names, and the rows the caller gives.
 */
export function RecordTable({
  caption,
  columns,
  captionShown = false,
  class: className,
  children,
}: {
  caption: ComponentChildren;
  /** The column headings, left to right; a heading may be markup (a visually hidden name). */
  columns: ComponentChildren[];
  captionShown?: boolean;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <table class={className}>
      <caption class={captionShown ? undefined : 'visually-hidden'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column, index) => (
            // The headings never reorder, so their place is their identity.
            <th key={index} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
