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
  const batch = query.batch_id ?? '';
  const [draft, setDraft] = useState(q);
  const [batchDraft, setBatchDraft] = useState(batch);
  useEffect(() => setDraft(q), [q]);
  useEffect(() => setBatchDraft(batch), [batch]);
  const list = usePagedList(
    (cursor) =>
      api<SessionsAnswer>('GET', '/sessions', {
        // A batch is listed whole (at most 100), on its own: the service takes no search with it.
        query: batch ? { batch_id: batch, limit: 100 } : { q, limit: 25, cursor },
      }),
    (page) => page.results,
    [q, batch],
  );
  const { items, error } = list;

  const search = () => {
    const text = draft.trim();
    route(pageHref(text ? `/sessions?q=${encodeURIComponent(text)}` : '/sessions'));
  };
  const filterBatch = () => {
    const id = batchDraft.trim();
    route(pageHref(id ? `/sessions?batch_id=${encodeURIComponent(id)}` : '/sessions'));
  };
  const title = batch
    ? `Investigations of batch ${batch}`
    : q
      ? `Investigations matching “${q}”`
      : 'Recent investigations';

  return (
    <>
      <PageTitle>Investigations</PageTitle>
      <StartInvestigationForm />
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">{title}</h2>
        <SearchForm
          label="Search investigations"
          name="q"
          value={draft}
          placeholder="entity value, words, verdict:malicious, type:ip"
          onValue={setDraft}
          onSearch={search}
        />
        <SearchForm
          label="Batch ID"
          name="batch_id"
          value={batchDraft}
          placeholder="b_… (from POST /api/v1/investigations/batch)"
          onValue={setBatchDraft}
          onSearch={filterBatch}
          button="Show the batch"
        />
        {batch && (
          <p>
            Showing only the sessions of batch <code>{batch}</code>.{' '}
            <a href={pageHref('/sessions')}>Show all investigations</a>
          </p>
        )}
        <ErrorNote error={error} />
        {items === null && !error && <Loading what="investigations" />}
        {items && items.length === 0 && (
          <p>No investigations{batch ? ' in this batch' : q ? ' match this search' : ' yet'}.</p>
        )}
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
                  <Starter
                    kind={item.owner.kind}
                    id={item.owner.id}
                    name={item.owner.name}
                    via={item.owner.via}
                  />
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
