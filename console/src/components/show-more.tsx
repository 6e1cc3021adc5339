import type { PagedList } from '../hooks';

/** "Show more" under a paged list while the service has more; disabled while the next page loads. */
export function ShowMore({ list }: { list: PagedList<unknown> }) {
  if (!list.more) return null;
  return (
    <button type="button" class="secondary" onClick={list.more} disabled={list.loadingMore}>
      {list.loadingMore ? 'Loading…' : 'Show more'}
    </button>
  );
}
