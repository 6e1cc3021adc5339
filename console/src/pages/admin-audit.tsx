import { api } from '../api';
import { AdminOnly } from '../components/admin-only';
import { ErrorNote, Loading, PageTitle } from '../components/common';
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

function details(entry: AuditEntry): string {
  if (!entry.details) return '';
  return Object.entries(entry.details)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');
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
        <table>
          <caption class="visually-hidden">Audit trail, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">Key, entry or session</th>
              <th scope="col">By</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.at}-${entry.key_id}-${index}`}>
                <td>{when(entry.at)}</td>
                <td>{entry.action.replace(/_/g, ' ')}</td>
                <td>
                  <code>{entry.key_id}</code>
                </td>
                <td>
                  <code>{entry.actor}</code>
                </td>
                <td class="small">{details(entry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShowMore list={list} />
    </>
  );
}
