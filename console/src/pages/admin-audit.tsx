import { api } from '../api';
import { AdminOnly } from '../components/admin-only';
import { ErrorNote, Loading, PageTitle } from '../components/common';
import { RecordTable } from '../components/record-table';
import { ShowMore } from '../components/show-more';
import { when } from '../format';
import { usePagedList } from '../hooks';
import type { AuditAnswer, AuditEntry, Me } from '../types';

export function AuditPage({ me }: { me: Me }) {
  return (
    <AdminOnly me={me}>
      <Audit />
    </AdminOnly>
  );
}

const DETAIL_LABELS: Record<string, string> = {
  name: 'Name',
  role: 'Role',
  scopes: 'Scopes',
  key_prefix: 'Key prefix',
  previous_key_prefix: 'Previous prefix',
  expires_at: 'Expires',
  grace_period_ends_at: 'Old secret valid until',
  rate_per_second: 'Rate (per second)',
  burst: 'Burst',
  daily_quota: 'Daily quota',
  outcome: 'Outcome',
};

/** One detail as a person reads it: times in UTC, lists joined, an empty value as "none". */
function detailValue(name: string, value: unknown) {
  if (value === null || value === undefined) return name === 'daily_quota' ? 'no limit' : 'none';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    return value.map((item, index) => (
      <span key={String(item)}>
        {index > 0 && ', '}
        <code class="nowrap">{String(item)}</code>
      </span>
    ));
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return when(value);
  if (name.endsWith('prefix')) return <code class="nowrap">{String(value)}</code>;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The entry's details as a short list of labelled facts (names the console does not know keep theirs). */
function Details({ entry }: { entry: AuditEntry }) {
  const details = Object.entries(entry.details ?? {});
  if (details.length === 0) return <>—</>;
  return (
    <dl class="details">
      {details.map(([name, value]) => (
        <div key={name}>
          <dt>{DETAIL_LABELS[name] ?? name.replace(/_/g, ' ')}</dt>
          <dd>{detailValue(name, value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `user:<sub>` is a person signed in to the console; a short form, the whole ID on hover. */
function Actor({ actor }: { actor: string }) {
  if (actor.startsWith('user:')) {
    return (
      <span class="nowrap" title={actor}>
        person <code>{actor.slice(5, 13)}</code>
      </span>
    );
  }
  return <code class="nowrap">{actor}</code>;
}

function Audit() {
  const list = usePagedList(
    (cursor) => api<AuditAnswer>('GET', '/admin/audit', { query: { limit: 50, cursor } }),
    (page) => page.entries,
    [],
  );
  const { items: entries, error } = list;

  return (
    <>
      <PageTitle>Audit trail</PageTitle>
      <p>
        Every creation, rotation, disabling and expiry of an API key, every allowlist change and every review
        of a verdict, newest first.
      </p>
      <ErrorNote error={error} />
      {entries === null && !error && <Loading what="the audit trail" />}
      {entries && entries.length === 0 && <p>No key changes recorded yet.</p>}
      {entries && entries.length > 0 && (
        <RecordTable
          caption="Audit trail, newest first"
          columns={['When', 'Action', 'Key, entry or session', 'By', 'Details']}
        >
          {entries.map((entry, index) => (
            <tr key={`${entry.at}-${entry.key_id}-${index}`}>
              <td class="nowrap">{when(entry.at)}</td>
              <td>{entry.action.replace(/_/g, ' ')}</td>
              <td>
                <code class="nowrap">{entry.key_id}</code>
              </td>
              <td>
                <Actor actor={entry.actor} />
              </td>
              <td class="small">
                <Details entry={entry} />
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      <ShowMore list={list} />
    </>
  );
}
