import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api } from '../api';
import { pageHref } from '../base';
import { Badge, EntityText, ErrorNote, Loading, PageTitle } from '../components/common';
import { SearchForm } from '../components/form/search-form';
import { RecordTable } from '../components/record-table';
import { ShowMore } from '../components/show-more';
import { StartInvestigationForm } from '../components/start-investigation';
import { Starter } from '../components/starter';
import { sessionHref, when } from '../format';
import { usePagedList } from '../hooks';
import type { SessionsAnswer } from '../types';

/** /sessions: every investigation of the tenant, newest first, with search and a start form. */
export function SessionsPage() {
  const { query, route } = useLocation();
  const q = query.q ?? '';
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);
  const list = usePagedList(
    (cursor) => api<SessionsAnswer>('GET', '/sessions', { query: { q, limit: 25, cursor } }),
    (page) => page.results,
    [q],
  );
  const { items, error } = list;

  const search = () => {
    const text = draft.trim();
    route(pageHref(text ? `/sessions?q=${encodeURIComponent(text)}` : '/sessions'));
  };

  return (
    <>
      <PageTitle>Investigations</PageTitle>
      <StartInvestigationForm />
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">{q ? `Investigations matching “${q}”` : 'Recent investigations'}</h2>
        <SearchForm
          label="Search investigations"
          name="q"
          value={draft}
          placeholder="entity value, words, verdict:malicious, type:ip"
          onValue={setDraft}
          onSearch={search}
        />
        <ErrorNote error={error} />
        {items === null && !error && <Loading what="investigations" />}
        {items && items.length === 0 && <p>No investigations{q ? ' match this search' : ' yet'}.</p>}
        {items && items.length > 0 && (
          <RecordTable
            caption="Investigations, newest first"
            columns={['Entity', 'Status', 'Verdict', 'Risk', 'Persona', 'Started', 'Started by']}
          >
            {items.map((item) => (
              <tr key={item.session_id}>
                <td>
                  <a href={sessionHref(item.session_id)}>
                    <EntityText type={item.entity.type} value={item.entity.value} />
                  </a>
                </td>
                <td>
                  <Badge kind={item.status}>{item.status}</Badge>
                </td>
                <td>{item.verdict ? <Badge kind={item.verdict}>{item.verdict}</Badge> : '—'}</td>
                <td>{item.risk_score ?? '—'}</td>
                <td>{item.persona}</td>
                <td>{when(item.created_at)}</td>
                <td>
                  <Starter kind={item.owner.kind} id={item.owner.id} name={item.owner.name} />
                </td>
              </tr>
            ))}
          </RecordTable>
        )}
        <ShowMore list={list} />
      </section>
    </>
  );
}
