/**
 * CSV export of a board query (RFC 4180). Text cells that a spreadsheet would run as a formula
 * are prefixed with an apostrophe.
 */
import type { BoardQueries, BoardRow, ContainerQuery } from './board-query';

const COLUMNS: [header: string, value: (r: BoardRow) => string | number | boolean | null][] = [
  ['Container', (r) => r.number],
  ['BL', (r) => r.billOfLading],
  ['Line', (r) => r.lineScac],
  ['Status', (r) => r.status],
  ['POD', (r) => r.podLocode],
  ['Terminal', (r) => r.terminalName],
  ['Vessel', (r) => r.vessel],
  ['Voyage', (r) => r.voyage],
  ['ETA', (r) => r.etaAt],
  ['ATA', (r) => r.ataAt],
  ['Discharged', (r) => r.dischargedAt],
  ['Available', (r) => r.availableForPickup],
  ['Ready', (r) => r.ready],
  ['Holds', (r) => r.holdsCount],
  ['Fees', (r) => r.feesAmount],
  ['Currency', (r) => r.feesCurrency],
  ['LFD', (r) => r.lfd],
  ['LFD source', (r) => r.lfdSource],
  ['Appointment', (r) => r.pickupAppointmentAt],
  ['Terminal checked', (r) => r.terminalCheckedAt],
  ['Updated', (r) => r.updatedAt],
  ['POD time zone', (r) => r.podTimezone],
  ['Customer', (r) => r.customer],
];

export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Yields the CSV line by line (CRLF endings), header first. */
export function* containersCsv(
  board: BoardQueries,
  query: ContainerQuery,
  now: number,
): Generator<string> {
  yield `${COLUMNS.map(([h]) => csvCell(h)).join(',')}\r\n`;
  for (const row of board.allContainers(query, now)) {
    yield `${COLUMNS.map(([, get]) => csvCell(get(row))).join(',')}\r\n`;
  }
}
