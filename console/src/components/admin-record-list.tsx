import type { ComponentChildren } from 'preact';
import { ErrorNote, Loading } from './common';
import { RecordTable } from './record-table';

/**
 * An admin page's list of records (allowlist entries, do-not-share marks, critical assets): the
 * failure, loading and empty states, then a table whose last column holds each row's action (its
 * heading is named for screen readers only). `row` renders one record as a keyed `<tr>`.
 */
export function AdminRecordList<Record>({
  records,
  error,
  what,
  empty,
  caption,
  columns,
  row,
}: {
  /** Null while the first answer loads. */
  records: readonly Record[] | null;
  error: unknown;
  /** What is loading, as "Loading {what}…" says it. */
  what: string;
  /** The sentence shown for an empty list. */
  empty: string;
  caption: string;
  /** The data columns' headings; the actions column is added. */
  columns: string[];
  row: (record: Record) => ComponentChildren;
}) {
  return (
    <>
      <ErrorNote error={error} />
      {records === null && !error && <Loading what={what} />}
      {records && records.length === 0 && <p>{empty}</p>}
      {records && records.length > 0 && (
        <RecordTable
          caption={caption}
          columns={[
            ...columns,
            <span key="actions" class="visually-hidden">
              Actions
            </span>,
          ]}
        >
          {records.map(row)}
        </RecordTable>
      )}
    </>
  );
}
