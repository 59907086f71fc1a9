import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnSizingState,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { BoardColumn, BoardRow } from '../../shared/desktop';
import { BOARD_COLUMN_DEFS, type BoardLine } from './columns';
import { hasLeftTerminal } from '../../shared/container';

const ROW_HEIGHT = 36;

export interface BoardSort {
  column: BoardColumn;
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
  now: number;
  onOpen(row: BoardRow): void;
}

/**
 * The container board: TanStack Table for columns (sizing, visibility, sort state) and
 * TanStack Virtual for rows. Only the rows in view are ever rendered or held by the table, so
 * 100,000 containers cost the same as 100.
 */
export function BoardTable(props: Props) {
  const { total, rowAt, ensureRange, sort, now } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
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

  const { onRowsShown } = props;
  useEffect(() => {
    if (lines.length > 0 && lines.every((line) => line.row !== null)) onRowsShown?.();
  }, [lines, onRowsShown]);

  const sorting: SortingState = useMemo(() => {
    const column = BOARD_COLUMN_DEFS.find((def) => def.meta?.sortKey === sort.column);
    return column?.id ? [{ id: column.id, desc: sort.direction === 'desc' }] : [];
  }, [sort]);

  const table = useReactTable({
    data: lines,
    columns: BOARD_COLUMN_DEFS,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (line) => String(line.index),
    manualSorting: true,
    enableSortingRemoval: false,
    columnResizeMode: 'onChange',
    state: {
      sorting,
      columnSizing: props.columnSizing,
      columnVisibility: props.columnVisibility,
    },
    meta: { now },
    onColumnSizingChange: (updater) => {
      props.onColumnSizingChange(
        typeof updater === 'function' ? updater(props.columnSizing) : updater,
      );
    },
  });

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
      className="board"
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
                    {flexRender(header.column.columnDef.header, header.getContext())}
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
                    onDoubleClick={() => header.column.resetSize()}
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
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, width }}
              onKeyDown={(event) => onRowKeyDown(event, item.index, line.row)}
              onDoubleClick={() => line.row && props.onOpen(line.row)}
              onClick={(event) => {
                if (line.row && (event.target as HTMLElement).closest('a') === null)
                  props.onOpen(line.row);
              }}
            >
              {row.getVisibleCells().map((cellItem) => (
                <div
                  key={cellItem.id}
                  role="gridcell"
                  className="board__cell"
                  style={{ width: cellItem.column.getSize() }}
                >
                  {line.row ? (
                    flexRender(cellItem.column.columnDef.cell, cellItem.getContext())
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
}
