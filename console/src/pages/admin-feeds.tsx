import { useState } from 'preact/hooks';
import { refreshOutcome } from '../../../shared/domain/feeds/refresh-outcome';
import { api } from '../api';
import { AdminOnly } from '../components/admin-only';
import { ErrorNote, Loading, PageTitle } from '../components/common';
import { RecordTable } from '../components/record-table';
import { when } from '../format';
import { useApi } from '../hooks';
import type { Feed, FeedsAnswer, Me } from '../types';
import { useAction } from '../use-action';

export function FeedsPage({ me }: { me: Me }) {
  return (
    <AdminOnly me={me}>
      <Feeds />
    </AdminOnly>
  );
}

const STATUS_LABEL: Record<Feed['status'], string> = {
  ok: 'OK',
  error: 'Error (last good copy kept)',
  stale: 'Stale',
  disabled: 'Disabled',
};

function Feeds() {
  const listed = useApi(() => api<FeedsAnswer>('GET', '/admin/feeds'), [], { keep: true });
  const [refreshed, setRefreshed] = useState<FeedsAnswer | null>(null);
  const refreshing = useAction();
  const feeds = (refreshed ?? listed.data)?.feeds ?? null;

  const refresh = () =>
    refreshing.run(async () =>
      setRefreshed(await api<FeedsAnswer>('POST', '/admin/feeds/refresh', { body: {} })),
    );

  return (
    <>
      <PageTitle>Public threat feeds</PageTitle>
      <p>
        Feeds downloaded in bulk and matched inside the tenant by every investigation's <code>feeds</code>{' '}
        tool; nothing about an investigated entity is sent to them. A feed that fails keeps its last good
        copy.
      </p>
      <p>
        <button type="button" onClick={refresh} disabled={refreshing.busy}>
          {refreshing.busy ? 'Refreshing…' : 'Refresh enabled feeds now'}
        </button>
      </p>
      {refreshed && <RefreshOutcome feeds={refreshed.feeds} />}
      <ErrorNote error={refreshing.error ?? listed.error} />
      {feeds === null && !listed.error && <Loading what="the feeds" />}
      {feeds && (
        <RecordTable
          caption="Public threat feeds"
          columns={['Feed', 'Enabled', 'Status', 'Indicators', 'Last refresh', 'Error or how to enable']}
        >
          {feeds.map((feed) => (
            <tr key={feed.name}>
              <td>
                <code class="nowrap">{feed.name}</code>
              </td>
              <td>{feed.enabled ? 'Yes' : 'No'}</td>
              <td>{STATUS_LABEL[feed.status]}</td>
              <td>{feed.indicator_count.toLocaleString('en')}</td>
              <td>{feed.last_refreshed_at ? when(feed.last_refreshed_at) : 'Never'}</td>
              <td class="small">{feed.error ?? feed.how_to_enable ?? ''}</td>
            </tr>
          ))}
        </RecordTable>
      )}
    </>
  );
}

/** What the last Refresh did, said where the button is (a live region: screen readers hear it too). */
function RefreshOutcome({ feeds }: { feeds: Feed[] }) {
  const outcome = refreshOutcome(feeds);
  return (
    <section class="panel compact" role="status" aria-label="Refresh result">
      <p>{outcome.headline}</p>
      {outcome.results.length > 0 && (
        <ul>
          {outcome.results.map((result) => (
            <li key={result.name} class={result.ok ? undefined : 'error'}>
              <code>{result.name}</code>: {result.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
