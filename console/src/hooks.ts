import { useEffect, useRef, useState } from 'preact/hooks';

/** What a page shows of one answer: the answer (null until it came), the error of the last try. */
export interface ApiState<T> {
  data: T | null;
  error: unknown;
  /** Asks again with the same inputs (after a change the page made itself). */
  reload: () => void;
}

/**
 * Loads one answer whenever `deps` change and keeps only the answer of the latest inputs: a page left
 * or re-asked before its answer came ignores it. `load` undefined means nothing to load (yet). With
 * `keep`, the previous answer stays on screen while the next one loads (a list refreshed after an
 * edit); otherwise the page starts over (null: its "Loading…" note shows).
 */
export function useApi<T>(
  load: (() => Promise<T>) | undefined,
  deps: readonly unknown[],
  options: { keep?: boolean } = {},
): ApiState<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown }>({ data: null, error: null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    setState((previous) => ({ data: options.keep ? previous.data : null, error: null }));
    if (!load) return;
    let live = true;
    load()
      .then((data) => live && setState({ data, error: null }))
      .catch((error: unknown) => live && setState((previous) => ({ data: previous.data, error })));
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { ...state, reload: () => setRound((n) => n + 1) };
}

/** A list the service answers in pages (`next_cursor`), grown by "Show more". */
export interface PagedList<Item> {
  /** Every item loaded so far; null while the first page loads. */
  items: Item[] | null;
  error: unknown;
  /** Loads the next page; null when there is none. */
  more: (() => Promise<void>) | null;
  loadingMore: boolean;
}

/**
 * The first page whenever `deps` change (the list starts over), then one more page per `more()`.
 * `fetchPage` gets the cursor of the page to load (undefined for the first); `itemsOf` picks the
 * items out of an answer. Answers for inputs the page has since left are ignored.
 */
export function usePagedList<Item, Page extends { next_cursor: string | null }>(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  itemsOf: (page: Page) => Item[],
  deps: readonly unknown[],
): PagedList<Item> {
  const [items, setItems] = useState<Item[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  // The inputs' generation: an answer is used only while the inputs that asked for it are current.
  const generation = useRef(0);
  const latest = useRef({ fetchPage, itemsOf });
  latest.current = { fetchPage, itemsOf };

  useEffect(() => {
    const asked = ++generation.current;
    setItems(null);
    setCursor(null);
    setError(null);
    setLoadingMore(false);
    latest.current
      .fetchPage(undefined)
      .then((page) => {
        if (asked !== generation.current) return;
        setItems(latest.current.itemsOf(page));
        setCursor(page.next_cursor);
      })
      .catch((caught: unknown) => asked === generation.current && setError(caught));
    return () => {
      generation.current++;
    };
  }, deps);

  const more = async () => {
    if (!cursor) return;
    const asked = generation.current;
    setLoadingMore(true);
    try {
      const page = await latest.current.fetchPage(cursor);
      if (asked !== generation.current) return;
      setItems((previous) => [...(previous ?? []), ...latest.current.itemsOf(page)]);
      setCursor(page.next_cursor);
    } catch (caught) {
      if (asked === generation.current) setError(caught);
    } finally {
      if (asked === generation.current) setLoadingMore(false);
    }
  };

  return { items, error, more: cursor ? more : null, loadingMore };
}
