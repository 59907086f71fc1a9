/**
 * The container export as a table of typed cells, written as CSV (csv.ts) or .xlsx (xlsx.ts):
 * what the board shows, in words a spreadsheet reader needs no legend for. Dates and times are
 * local to the place they happen (the terminal's zone, the ramp's for rail deadlines), written as
 * wall-clock values a spreadsheet reads as dates, with the zone in its own column. Deadlines,
 * readiness and hold names come from the shared container rules. The custom field columns the
 * board shows follow the built-in ones, typed by their field (numbers, dates, date-times local
 * to the port, the shown text for the rest).
 */
import { findLink } from '../../shared/find-link';
import { DateTime } from 'luxon';
import {
  LFD_SOURCES,
  deadlineMissedByAppointment,
  hasLeftTerminal,
  holdLabel,
  lfdCountdown,
  readinessText,
  rowHeadlineDeadline,
  rowPlaceZone,
  statusLabel,
  type FeeLike,
} from '../../shared/container';
import type { BoardQueries, BoardRow, ContainerQuery } from './board-query';
import type { CustomFieldColumn } from '../../shared/desktop';

export type ExportCell =
  | { kind: 'text'; value: string | null }
  | { kind: 'number'; value: number | null }
  | { kind: 'money'; value: number | null }
  /** A calendar date, `yyyy-MM-dd`. */
  | { kind: 'date'; value: string | null }
  /** A local wall-clock time, `yyyy-MM-dd HH:mm`. */
  | { kind: 'datetime'; value: string | null };

const text = (value: string | null | undefined): ExportCell => ({
  kind: 'text',
  value: value ?? null,
});
const money = (value: number | null): ExportCell => ({ kind: 'money', value });
const date = (value: string | null | undefined): ExportCell => ({
  kind: 'date',
  value: value ?? null,
});

/** An instant as the wall-clock time of `zone` (UTC when the zone is unknown). */
function localTime(iso: string | null, zone: string | null): ExportCell {
  if (!iso) return { kind: 'datetime', value: null };
  const at = DateTime.fromISO(iso, { zone: 'utc' });
  const inZone = zone ? at.setZone(zone) : at;
  const shown = inZone.isValid ? inZone : at;
  return { kind: 'datetime', value: at.isValid ? shown.toFormat('yyyy-MM-dd HH:mm') : null };
}

/** The fee types itemised in their own columns; `total` is the sum, never a fee of its own. */
const FEE_COLUMNS = [
  ['demurrage', 'Demurrage'],
  ['extended_dwell_time', 'Extended dwell fee'],
  ['exam', 'Exam fee'],
  ['other', 'Other fees'],
] as const;

export interface ExportRow {
  row: BoardRow;
  fees: readonly FeeLike[];
}

export interface ExportColumn {
  header: string;
  /** Width in characters, for the spreadsheet. */
  width: number;
  cell: (r: ExportRow, now: number) => ExportCell;
}

const feeOf = (fees: readonly FeeLike[], type: string): number | null => {
  const items = fees.filter((f) => f.type === type);
  return items.length ? Math.round(items.reduce((sum, f) => sum + f.amount, 0) * 100) / 100 : null;
};

const deadlineOf = (row: BoardRow, source: string) =>
  row.deadlines.find((d) => d.source === source) ?? null;

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { header: 'Container', width: 14, cell: ({ row }) => text(row.number) },
  { header: 'BL', width: 16, cell: ({ row }) => text(row.billOfLading) },
  { header: 'Line', width: 6, cell: ({ row }) => text(row.lineScac) },
  { header: 'Status', width: 14, cell: ({ row }) => text(statusLabel(row.status)) },
  { header: 'Readiness', width: 24, cell: ({ row }) => text(readinessText(row)) },
  {
    header: 'Holds',
    width: 24,
    cell: ({ row }) => text(row.holdNames.map(holdLabel).join('; ') || null),
  },
  {
    header: 'Location',
    width: 28,
    cell: ({ row }) =>
      text(
        row.location.kind === 'terminal'
          ? row.location.name
          : `${row.location.kind === 'rail' ? 'Rail to ' : 'Ramp: '}${row.location.name ?? ''}`,
      ),
  },
  { header: 'POD', width: 7, cell: ({ row }) => text(row.podLocode) },
  { header: 'Terminal', width: 24, cell: ({ row }) => text(row.terminalName) },
  { header: 'Vessel', width: 18, cell: ({ row }) => text(row.vessel) },
  { header: 'Voyage', width: 8, cell: ({ row }) => text(row.voyage) },
  { header: 'ETA', width: 17, cell: ({ row }) => localTime(row.etaAt, row.podTimezone) },
  { header: 'ATA', width: 17, cell: ({ row }) => localTime(row.ataAt, row.podTimezone) },
  {
    header: 'Discharged',
    width: 17,
    cell: ({ row }) => localTime(row.dischargedAt, row.podTimezone),
  },
  {
    header: 'First LFD',
    width: 11,
    cell: ({ row }) => date(rowHeadlineDeadline(row)?.date),
  },
  {
    header: 'First LFD source',
    width: 10,
    cell: ({ row }) => {
      const d = rowHeadlineDeadline(row);
      return text(d ? (d.source ?? 'unknown') : null);
    },
  },
  {
    header: 'Free time',
    width: 16,
    cell: ({ row }, now) => {
      const d = rowHeadlineDeadline(row);
      if (!d) return text(null);
      return text(
        hasLeftTerminal(row.status) ? 'left terminal' : lfdCountdown(d.date, d.zone, now),
      );
    },
  },
  ...LFD_SOURCES.map((source): ExportColumn => ({
    header: `${source.charAt(0).toUpperCase()}${source.slice(1)} LFD`,
    width: 11,
    cell: ({ row }) => date(deadlineOf(row, source)?.date),
  })),
  {
    header: 'Appointment',
    width: 17,
    cell: ({ row }) => localTime(row.pickupAppointmentAt, rowPlaceZone(row)),
  },
  {
    header: 'Appointment time zone',
    width: 20,
    cell: ({ row }) => text(row.pickupAppointmentAt ? rowPlaceZone(row) : null),
  },
  {
    header: 'Appointment after LFD',
    width: 10,
    cell: ({ row }) =>
      text(
        row.pickupAppointmentAt
          ? deadlineMissedByAppointment(row.pickupAppointmentAt, row.deadlines, row.location.kind)
            ? 'Yes'
            : 'No'
          : null,
      ),
  },
  ...FEE_COLUMNS.map(([type, header]): ExportColumn => ({
    header,
    width: 12,
    cell: ({ fees }) => money(feeOf(fees, type)),
  })),
  { header: 'Fees total', width: 12, cell: ({ row }) => money(row.feesAmount) },
  { header: 'Currency', width: 8, cell: ({ row }) => text(row.feesCurrency) },
  {
    header: 'Terminal checked',
    width: 17,
    cell: ({ row }) => localTime(row.terminalCheckedAt, row.podTimezone),
  },
  { header: 'Port time zone', width: 20, cell: ({ row }) => text(row.podTimezone) },
  {
    header: 'Rail LFD time zone',
    width: 20,
    cell: ({ row }) => text(deadlineOf(row, 'rail')?.zone ?? null),
  },
  { header: 'Customer', width: 18, cell: ({ row }) => text(row.customer) },
  // Opens the app on this box from a spreadsheet, a TMS or an email.
  { header: 'Link', width: 34, cell: ({ row }) => text(findLink(row.number)) },
];

/** The export column of one custom field: its value typed as the field is. */
function customFieldColumn(field: CustomFieldColumn): ExportColumn {
  return {
    header: field.label,
    width: Math.min(Math.max(field.label.length, 10), 30),
    cell: ({ row }) => {
      const found = row.customFields[field.slug];
      if (!found) return text(null);
      const { value } = found;
      if (field.dataType === 'number' && typeof value === 'number') {
        return { kind: 'number', value };
      }
      if (field.dataType === 'date' && typeof value === 'string') return date(value);
      if (field.dataType === 'datetime' && typeof value === 'string') {
        return localTime(value, row.podTimezone);
      }
      return text(found.text);
    },
  };
}

/** The columns of an export: the built-in ones, then the custom fields the query names. */
export function exportColumns(board: BoardQueries, query: ContainerQuery): ExportColumn[] {
  const wanted = query.customFieldColumns ?? [];
  if (wanted.length === 0) return [...EXPORT_COLUMNS];
  const fields = new Map(board.customFieldColumns().map((f) => [f.slug, f]));
  const custom = [...new Set(wanted)].flatMap((slug) => {
    const field = fields.get(slug);
    return field ? [customFieldColumn(field)] : [];
  });
  return [...EXPORT_COLUMNS, ...custom];
}

/** The export's rows, in board order, as typed cells. */
export function* exportTable(
  board: BoardQueries,
  query: ContainerQuery,
  now: number,
  columns: readonly ExportColumn[] = exportColumns(board, query),
): Generator<ExportCell[]> {
  for (const r of board.exportRows(query, now)) {
    yield columns.map((column) => column.cell(r, now));
  }
}
