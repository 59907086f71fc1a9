/**
 * The desktop board's query (BoardQueries.containers: a filter and a sort, one window of 100 rows
 * plus the total for the scrollbar) over 100k cached containers, as a ratio to the raw SQLite
 * query returning the same window of rows (same joins, filter, order and limit; no count, no row
 * mapping). Median of several rounds.
 *
 *   npx tsx bench/board-query.ts [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cache } from '../src/main/cache/cache';
import type { ContainerQuery } from '../src/shared/desktop';
import { BOARD_CONTAINERS, fillBoardCache, rawBoardWindowSql } from './lib/board-cache';
import { quick } from './lib/load';
import { median, reportResult } from './lib/report';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-board-'));
const cache = Cache.open(path.join(root, 'cache'));
try {
  const t0 = performance.now();
  await fillBoardCache(cache, root);
  console.log(
    `cached ${BOARD_CONTAINERS} containers in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const query: ContainerQuery = {
    line: ['MSCU', 'MAEU'],
    status: ['on_ship', 'available'],
    sort: { column: 'etaAt', direction: 'asc' },
    offset: 2000,
    limit: 100,
  };
  const now = Date.UTC(2026, 0, 15);
  // The same rows straight from SQLite: the board's joins, filter, order and window.
  const raw = cache.db.prepare(
    rawBoardWindowSql(
      'c.current_status IN (?, ?) AND s.line_scac IN (?, ?)',
      's.pod_eta_at',
      'ASC',
    ),
  );
  const rawRows = () =>
    raw.all('on_ship', 'available', 'MSCU', 'MAEU', 100, 2000) as { id: string }[];
  const board = cache.board.containers(query, now);
  const same = rawRows();
  if (board.rows.length !== 100 || board.rows.some((r, i) => r.id !== same[i]!.id)) {
    throw new Error('the raw query does not return the board rows');
  }
  console.log(`board window: ${board.rows.length} of ${board.total} matching rows`);

  const rounds = quick ? 3 : 7;
  const iterations = 3;
  const time = (fn: () => unknown) => {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) fn();
    return (performance.now() - start) / iterations;
  };
  const boardMs: number[] = [];
  const rawMs: number[] = [];
  time(() => cache.board.containers(query, now));
  time(rawRows);
  for (let r = 0; r < rounds; r++) {
    rawMs.push(time(rawRows));
    boardMs.push(time(() => cache.board.containers(query, now)));
  }
  reportResult({
    name: 'board query (100k cached, filter + sort)',
    value: median(boardMs),
    baseline: median(rawMs),
    unit: 'ms',
    target: null,
    note: `2 lines x 2 statuses, sorted by ETA, rows 2000-2099 of ${board.total}; BoardQueries.containers includes the total count the board needs. Baseline: the raw SQLite query for the same 100 rows. No target set by the issue.`,
  });
} finally {
  cache.close();
  fs.rmSync(root, { recursive: true, force: true });
}
