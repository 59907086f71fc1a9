import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnSizingState,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { BoardRow, BoardSortColumn } from '../../shared/desktop';
import { BOARD_COLUMN_DEFS, type BoardLine } from './columns';
import { hasLeftTerminal } from '../../shared/container';
import type { CostTables } from '../../shared/cost-clock';
import { fitColumnWidths } from './fit';
import './board-fit.css';

export type BoardDensity = 'comfortable' | 'compact';

/** A number per row object seen, so a row fetched again reads as changed. */
const rowVersions = new WeakMap<BoardRow, number>();
let nextRowVersion = 0;
function rowVersion(row: BoardRow): number {
  let version = rowVersions.get(row);
  if (version === undefined) rowVersions.set(row, (version = nextRowVersion++));
  return version;
}

const ROW_HEIGHTS: Record<BoardDensity, number> = { comfortable: 36, compact: 26 };
/** Cell padding (8 px each side) plus a little air. */
const CELL_CHROME = 20;
/** A header also holds its sort mark and the resize handle. */
const HEADER_CHROME = 34;

export interface BoardSort {
  column: BoardSortColumn;
  direction: 'asc' | 'desc';
}

interface Props {
  total: number | null;
  rowAt(index: number): BoardRow | null;
  ensureRange(start: number, end: number): void;
  /** Called after a commit in which every row in view is loaded (for the board's User Timing). */
  onRowsShown?(): void;
  sort: BoardSort;
  onSortChange(sort: BoardSort): void;
  columnSizing: ColumnSizingState;
  onColumnSizingChange(sizing: ColumnSizingState): void;
  columnVisibility: VisibilityState;
  density?: BoardDensity;
  /** Tariffs for the cost column (defaults when absent). */
  costs?: CostTables;
  now: number;
  onOpen(row: BoardRow): void;
  /** Rows ticked for a bulk action; without onSelect the tick boxes are not drawn. */
  selected?: ReadonlySet<string>;
  onSelect?(row: BoardRow, selected: boolean): void;
  /** The columns (default: the built-in ones; the board adds its custom field columns). */
  columns?: ColumnDef<BoardLine, unknown>[];
}

/**
 * The container board: TanStack Table for columns (sizing, visibility, sort state) and
 * TanStack Virtual for rows. Only the rows in view are ever rendered or held by the table, so
 * 100,000 containers cost the same as 100. Memoized: the board view re-renders for its counts,
 * costs and menus, and the rows need drawing only when their own props change.
 */
export const BoardTable = memo(function BoardTable(props: Props) {
  const { total, rowAt, ensureRange, sort, now } = props;
  const density = props.density ?? 'comfortable';
  const rowHeight = ROW_HEIGHTS[density];
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    // Rows drawn beyond the visible ones: enough for a wheel step; every one costs each redraw.
    overscan: 6,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (total) ensureRange(firstIndex, lastIndex);
  }, [ensureRange, firstIndex, lastIndex, total]);

  const lines: BoardLine[] = useMemo(
    () => items.map((item) => ({ index: item.index, row: rowAt(item.index) })),
    [items, rowAt],
  );

  // Widths fitted to the content shown so far (a column only grows as more rows are seen) and
  // spread over the board's width; a width the user dragged wins over the fitted one.
  const natural = useRef<Record<string, number>>({});
  /** Each column's header label with its chrome: the least a fitted column is given. */
  const labels = useRef<Record<string, number>>({});
  const [boardWidth, setBoardWidth] = useState(0);
  const [fitted, setFitted] = useState<ColumnSizingState>({});
  const [measured, setMeasured] = useState(0);
  const visibleKey = JSON.stringify(props.columnVisibility);
  const measure = useCallback(() => {
    const root = scrollRef.current;
    if (!root) return;
    const widths: Record<string, number> = {};
    // A cell's content, and a header's label inside its sort button: a column is never
    // narrower than its header (a "—" column once cut "Cost" to "COS").
    const fits = root.querySelectorAll<HTMLElement>(
      '[data-col] > .board__fit, [data-col] > .board__sort > .board__fit',
    );
    for (const fit of fits) {
      const cell = fit.closest<HTMLElement>('[data-col]')!;
      const id = cell.dataset.col ?? '';
      const header = cell.getAttribute('role') === 'columnheader';
      const width = fit.getBoundingClientRect().width + (header ? HEADER_CHROME : CELL_CHROME);
      widths[id] = Math.max(widths[id] ?? 0, width);
      if (header) labels.current[id] = width;
    }
    const next = { ...natural.current };
    let grew = false;
    for (const [id, width] of Object.entries(widths)) {
      if (width > (next[id] ?? 0)) grew = true;
      next[id] = Math.max(next[id] ?? 0, width);
    }
    natural.current = next;
    setBoardWidth(root.clientWidth);
    // Wider content (a sync's new text) refits the columns even when the board kept its width.
    if (grew) setMeasured((count) => count + 1);
  }, []);
  useEffect(() => {
    const root = scrollRef.current;
    if (!root || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setBoardWidth(root.clientWidth));
    observer.observe(root);
    return () => observer.disconnect();
  }, []);

  const { onRowsShown } = props;
  // A row a sync fetched again (same id, maybe wider text) is a new object and is measured again.
  const loadedKey = lines.map((line) => (line.row ? rowVersion(line.row) : '')).join();
  useEffect(() => {
    if (lines.length > 0 && lines.every((line) => line.row !== null)) onRowsShown?.();
  }, [lines, onRowsShown]);
  useEffect(() => {
    const frame = window.requestAnimationFrame(measure);
    return () => window.cancelAnimationFrame(frame);
  }, [loadedKey, visibleKey, density, measure]);

  const columns = props.columns ?? BOARD_COLUMN_DEFS;
  const sorting: SortingState = useMemo(() => {
    const column = columns.find((def) => def.meta?.sortKey === sort.column);
    return column?.id ? [{ id: column.id, desc: sort.direction === 'desc' }] : [];
  }, [sort, columns]);

  const sizing = useMemo(
    () => ({ ...fitted, ...props.columnSizing }),
    [fitted, props.columnSizing],
  );

  const table = useReactTable({
    data: lines,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (line) => String(line.index),
    manualSorting: true,
    enableSortingRemoval: false,
    columnResizeMode: 'onChange',
    state: {
      sorting,
      columnSizing: sizing,
      columnVisibility: props.columnVisibility,
    },
    meta: { now, costs: props.costs, selected: props.selected, onSelect: props.onSelect },
    onColumnSizingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sizing) : updater;
      // Keep only what the user changed; the rest stays fitted to the content.
      const chosen: ColumnSizingState = {};
      for (const [id, width] of Object.entries(next))
        if (props.columnSizing[id] !== undefined || fitted[id] !== width) chosen[id] = width;
      props.onColumnSizingChange(chosen);
    },
  });

  const visibleIds = table
    .getVisibleLeafColumns()
    .map((column) => column.id)
    .join();
  useEffect(() => {
    const ids = visibleIds.split(',').filter(Boolean);
    const measured = Object.fromEntries(
      ids.filter((id) => natural.current[id] !== undefined).map((id) => [id, natural.current[id]!]),
    );
    if (Object.keys(measured).length < ids.length || boardWidth <= 0) return;
    // Columns the user sized keep their width; the others share what is left.
    const userWidth = ids.reduce((sum, id) => sum + (props.columnSizing[id] ?? 0), 0);
    const free = Object.fromEntries(
      Object.entries(measured).filter(([id]) => props.columnSizing[id] === undefined),
    );
    const next = fitColumnWidths(free, boardWidth - userWidth, undefined, labels.current);
    setFitted((previous) => (JSON.stringify(previous) === JSON.stringify(next) ? previous : next));
  }, [visibleIds, boardWidth, props.columnSizing, measured]);

  const width = table.getTotalSize();
  const rows = table.getRowModel().rows;

  /** Arrow keys move between rows, Enter opens one; focus follows the virtual window. */
  const onRowKeyDown = (
    event: KeyboardEvent<HTMLDivElement>,
    index: number,
    row: BoardRow | null,
  ) => {
    const move = (to: number) => {
      event.preventDefault();
      const target = Math.max(0, Math.min((total ?? 1) - 1, to));
      virtualizer.scrollToIndex(target);
      window.requestAnimationFrame(() => {
        scrollRef.current?.querySelector<HTMLElement>(`[data-index="${target}"]`)?.focus();
      });
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'PageDown') move(index + 15);
    else if (event.key === 'PageUp') move(index - 15);
    else if (event.key === 'Home' && event.ctrlKey) move(0);
    else if (event.key === 'End' && event.ctrlKey) move((total ?? 1) - 1);
    else if (event.key === 'Enter' && row) {
      event.preventDefault();
      props.onOpen(row);
    }
  };

  return (
    <div
      className={`board board--${density}`}
      ref={scrollRef}
      role="grid"
      aria-label="Containers"
      aria-rowcount={(total ?? 0) + 1}
      aria-colcount={table.getVisibleLeafColumns().length}
      data-testid="board"
    >
      <div className="board__head" role="rowgroup" style={{ width }}>
        {table.getHeaderGroups().map((group) => (
          <div key={group.id} role="row" aria-rowindex={1} className="board__row board__row--head">
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              return (
                <div
                  key={header.id}
                  role="columnheader"
                  data-col={header.column.id}
                  className="board__cell board__cell--head"
                  style={{ width: header.getSize() }}
                  aria-sort={
                    sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'
                  }
                >
                  <button
                    type="button"
                    className="board__sort"
                    onClick={() => {
                      const sortKey = header.column.columnDef.meta?.sortKey;
                      if (!sortKey) return;
                      // A new column starts ascending; clicking the sorted column flips it.
                      const direction =
                        sort.column === sortKey && sort.direction === 'asc' ? 'desc' : 'asc';
                      props.onSortChange({ column: sortKey, direction });
                    }}
                    title={`Sort by ${header.column.columnDef.meta?.label ?? header.id}`}
                  >
                    <span className="board__fit">
                      {flexRender(header.column.columnDef.header, header.getContext())}
                    </span>
                    <span aria-hidden="true" className="board__sort-mark">
                      {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                    </span>
                  </button>
                  <div
                    role="separator"
                    aria-orientation="vertical"
                    aria-label={`Resize ${header.column.columnDef.meta?.label ?? header.id}`}
                    className={`board__resizer${header.column.getIsResizing() ? ' is-resizing' : ''}`}
                    onMouseDown={header.getResizeHandler()}
                    onTouchStart={header.getResizeHandler()}
                    title="Drag to resize; double-click to fit the content"
                    onDoubleClick={() => {
                      const { [header.column.id]: _dropped, ...rest } = props.columnSizing;
                      props.onColumnSizingChange(rest);
                    }}
                  />
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div
        role="rowgroup"
        className="board__body"
        style={{ height: virtualizer.getTotalSize(), width }}
      >
        {rows.map((row, position) => {
          const item = items[position];
          if (!item) return null;
          const line = row.original;
          return (
            <div
              key={item.key}
              role="row"
              tabIndex={0}
              data-index={item.index}
              aria-rowindex={item.index + 2}
              aria-busy={line.row ? undefined : true}
              className={`board__row${line.row ? '' : ' board__row--loading'}${line.row && hasLeftTerminal(line.row.status) ? ' board__row--done' : ''}`}
              style={{ transform: `translateY(${item.start}px)`, height: rowHeight, width }}
              onKeyDown={(event) => onRowKeyDown(event, item.index, line.row)}
              onDoubleClick={() => line.row && props.onOpen(line.row)}
              onClick={(event) => {
                if (line.row && (event.target as HTMLElement).closest('a, input') === null)
                  props.onOpen(line.row);
              }}
            >
              {row.getVisibleCells().map((cellItem) => (
                <div
                  key={cellItem.id}
                  role="gridcell"
                  data-col={cellItem.column.id}
                  className="board__cell"
                  style={{ width: cellItem.column.getSize() }}
                >
                  {line.row ? (
                    <span className="board__fit">
                      {flexRender(cellItem.column.columnDef.cell, cellItem.getContext())}
                    </span>
                  ) : (
                    <span className="skeleton" aria-hidden="true" />
                  )}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
});
