/**
 * CSV export of a board query (RFC 4180) from the export table (export-table.ts): dates as
 * `yyyy-MM-dd` and times as `yyyy-MM-dd HH:mm` local to their place, which spreadsheets read as
 * dates. Text cells that a spreadsheet would run as a formula are prefixed with an apostrophe.
 */
import type { BoardQueries, ContainerQuery } from './board-query';
import { exportColumns, exportTable, type ExportCell } from './export-table';
import { csvCell } from '../../shared/csv-cell';

const csvOf = (cell: ExportCell): string =>
  cell.kind === 'money' && cell.value !== null ? cell.value.toFixed(2) : csvCell(cell.value);

/** Yields the CSV line by line (CRLF endings), header first. */
export function* containersCsv(
  board: BoardQueries,
  query: ContainerQuery,
  now: number,
): Generator<string> {
  const columns = exportColumns(board, query);
  yield `${columns.map((c) => csvCell(c.header)).join(',')}\r\n`;
  for (const cells of exportTable(board, query, now, columns)) {
    yield `${cells.map(csvOf).join(',')}\r\n`;
  }
}
