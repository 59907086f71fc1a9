import { useCallback, useEffect, useRef, useState } from 'react';
import type { BoardRow, ContainerQuery } from '../../shared/desktop';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';

export const PAGE_SIZE = 100;

interface Page {
  version: number;
  rows: BoardRow[];
}

interface PagesState {
  key: string;
  total: number | null;
  pages: Map<number, Page>;
  error: string | null;
}

/**
 * Windowed paging over listContainers: only the pages the table shows are fetched. A new query
 * starts from scratch; a new data version refetches visible pages but keeps showing the old rows
 * until the fresh ones arrive, so a background sync never blanks the board.
 */
export function useBoardPages(query: ContainerQuery, dataVersion: number) {
  const key = JSON.stringify(query);
  const [state, setState] = useState<PagesState>({
    key,
    total: null,
    pages: new Map(),
    error: null,
  });
  const inflight = useRef(new Set<string>());
  // User Timing for the board: 'board-query' spans from asking for a new filter or sort (the
  // 'board-query:start' mark) to its rows on screen. Always on; marks cost next to nothing.
  const timing = useRef<{ key: string; start: number; shown: boolean } | null>(null);
  const current =
    state.key === key ? state : { key, total: null, pages: new Map<number, Page>(), error: null };

  const fetchPage = useCallback(
    (page: number) => {
      const token = `${key}|${dataVersion}|${page}`;
      if (inflight.current.has(token)) return;
      inflight.current.add(token);
      if (timing.current?.key !== key) {
        const mark = performance.mark('board-query:start', { detail: key });
        timing.current = { key, start: mark.startTime, shown: false };
      }
      const parsed = JSON.parse(key) as ContainerQuery;
      quayside.listContainers({ ...parsed, offset: page * PAGE_SIZE, limit: PAGE_SIZE }).then(
        (result) => {
          inflight.current.delete(token);
          setState((previous) => {
            const base =
              previous.key === key
                ? previous
                : { key, total: null, pages: new Map<number, Page>(), error: null };
            const pages = new Map(base.pages);
            pages.set(page, { version: dataVersion, rows: result.rows });
            return { key, total: result.total, pages, error: null };
          });
        },
        (failure: unknown) => {
          inflight.current.delete(token);
          setState((previous) => ({
            ...(previous.key === key
              ? previous
              : { key, total: null, pages: new Map<number, Page>() }),
            key,
            error: describeFailure(failure),
          }));
        },
      );
    },
    [key, dataVersion],
  );

  /** Makes sure the rows from `start` to `end` (inclusive) are loaded or loading. */
  const ensureRange = useCallback(
    (start: number, end: number) => {
      const first = Math.floor(Math.max(start, 0) / PAGE_SIZE);
      const last = Math.floor(Math.max(end, 0) / PAGE_SIZE);
      for (let page = first; page <= last; page += 1) {
        const loaded = current.pages.get(page);
        if (!loaded || loaded.version !== dataVersion) fetchPage(page);
      }
    },
    [current.pages, dataVersion, fetchPage],
  );

  // The first page tells us the total, which sizes the scrollbar.
  useEffect(() => {
    const loaded = current.pages.get(0);
    if (!loaded || loaded.version !== dataVersion) fetchPage(0);
  }, [current.pages, dataVersion, fetchPage]);

  /** Called once the rows in view (or the empty state) for the current query are committed. */
  const onRowsShown = useCallback(() => {
    const started = timing.current;
    if (!started || started.key !== key || started.shown) return;
    started.shown = true;
    performance.measure('board-query', { start: started.start, detail: key });
  }, [key]);

  // No rows to show: the empty state is what the query rendered.
  useEffect(() => {
    if (current.total === 0) onRowsShown();
  }, [current.total, onRowsShown]);

  const rowAt = useCallback(
    (index: number): BoardRow | null =>
      current.pages.get(Math.floor(index / PAGE_SIZE))?.rows[index % PAGE_SIZE] ?? null,
    [current.pages],
  );

  return { total: current.total, error: current.error, rowAt, ensureRange, onRowsShown };
}
