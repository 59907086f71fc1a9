/**
 * .xlsx export of a board query from the export table (export-table.ts), written with
 * write-excel-file: dates and times are real date cells holding the wall-clock value of their
 * place (a spreadsheet date has no zone; the zone columns say which), money as numbers.
 */
import writeXlsxFile, { type Cell } from 'write-excel-file/node';
import type { BoardQueries, ContainerQuery } from './board-query';
import { exportColumns, exportTable, type ExportCell } from './export-table';

/** A wall-clock value as the Date a spreadsheet shows unchanged (its fields read in UTC). */
const wallClock = (value: string): Date => new Date(`${value.replace(' ', 'T')}:00Z`);

function xlsxCell(cell: ExportCell): Cell {
  if (cell.value === null) return null;
  switch (cell.kind) {
    case 'text':
      return { type: String, value: cell.value };
    case 'number':
      return { type: Number, value: cell.value };
    case 'money':
      return { type: Number, value: cell.value, format: '#,##0.00' };
    case 'date':
      return { type: Date, value: new Date(`${cell.value}T00:00:00Z`), format: 'yyyy-mm-dd' };
    case 'datetime':
      return { type: Date, value: wallClock(cell.value), format: 'yyyy-mm-dd hh:mm' };
  }
}

/** The workbook's bytes and the number of container rows in it. */
export async function containersXlsx(
  board: BoardQueries,
  query: ContainerQuery,
  now: number,
): Promise<{ bytes: Buffer; rows: number }> {
  const columns = exportColumns(board, query);
  const header: Cell[] = columns.map((c) => ({
    type: String,
    value: c.header,
    fontWeight: 'bold',
  }));
  const data: Cell[][] = [header];
  for (const cells of exportTable(board, query, now, columns)) data.push(cells.map(xlsxCell));
  const bytes = await writeXlsxFile(data, {
    sheet: 'Containers',
    columns: columns.map((c) => ({ width: c.width })),
    stickyRowsCount: 1,
  }).toBuffer();
  return { bytes, rows: data.length - 1 };
}
