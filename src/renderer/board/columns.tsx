/**
 * The container board's columns. Each sorts server-side on one BoardColumn (query.sort); cells
 * render from a BoardRow only, so a row can be drawn the moment its page arrives.
 */
import type { ReactNode } from 'react';
import { createColumnHelper, type CellContext, type ColumnDef } from '@tanstack/react-table';
import type { BoardColumn, BoardRow } from '../../shared/desktop';
import { describeNotReady, hasLeftTerminal, readiness } from '../../shared/container';
import {
  STALE_AFTER_MS,
  countdown,
  formatDate,
  formatMoney,
  formatRelative,
  formatShortDateTime,
  lfdUrgency,
  statusLabel,
} from '../lib/format';

/** A board line: its position in the whole result and the row once its page has loaded. */
export interface BoardLine {
  index: number;
  row: BoardRow | null;
}

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** The server-side sort key behind this column. */
    sortKey: BoardColumn;
    /** Readable name for the column chooser. */
    label: string;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TableMeta<TData> {
    now: number;
  }
}

/** Why a container cannot be picked up yet, in a few words. */
export function notReadyReason(row: BoardRow): string {
  const facts = {
    status: row.status,
    activeHoldCount: row.holdsCount,
    arrivedAt: row.ataAt,
    dischargedAt: row.dischargedAt,
    fullOutAt: null,
    availabilityKnown: row.availabilityKnown,
    availableForPickup: row.availableForPickup,
  };
  const state = readiness(facts);
  // The cache's verdict stands; a row it holds back for a reason the row does not show is unreleased.
  return state.ready ? 'not released' : describeNotReady(state.reason, facts);
}

const helper = createColumnHelper<BoardLine>();

const cell =
  (render: (row: BoardRow, now: number) => ReactNode) =>
  (context: CellContext<BoardLine, unknown>): ReactNode => {
    const line = context.row.original.row;
    return line ? render(line, context.table.options.meta?.now ?? 0) : null;
  };

const text = (value: string | null) => value ?? '—';

export function LfdCell({ row, now }: { row: BoardRow; now: number }) {
  if (!row.lfd) return <span className="muted">—</span>;
  const urgency = hasLeftTerminal(row.status) ? 'done' : lfdUrgency(row.lfd, now);
  return (
    <span
      className={`lfd lfd--${urgency}`}
      title={`Last free day from the ${row.lfdSource ?? 'unknown'} source`}
    >
      <span className="lfd__date">{formatDate(row.lfd, row.podTimezone)}</span>
      <span className="lfd__countdown">
        {urgency === 'done' ? statusLabel(row.status).toLowerCase() : countdown(row.lfd, now)}
      </span>
      {row.lfdSource ? <span className="lfd__source">{row.lfdSource}</span> : null}
    </span>
  );
}

export const BOARD_COLUMN_DEFS: ColumnDef<BoardLine, unknown>[] = [
  helper.display({
    id: 'number',
    header: 'Container',
    size: 120,
    meta: { sortKey: 'number', label: 'Container' },
    cell: cell((r) => <span className="mono strong">{r.number}</span>),
  }),
  helper.display({
    id: 'status',
    header: 'Status',
    size: 110,
    meta: { sortKey: 'status', label: 'Status' },
    cell: cell((r) => (
      <span className={`status status--${r.status}`}>{statusLabel(r.status)}</span>
    )),
  }),
  helper.display({
    id: 'lfd',
    header: 'LFD',
    size: 215,
    meta: { sortKey: 'lfd', label: 'Last free day' },
    cell: cell((r, now) => <LfdCell row={r} now={now} />),
  }),
  helper.display({
    id: 'ready',
    header: 'Readiness',
    size: 160,
    meta: { sortKey: 'ready', label: 'Readiness' },
    cell: cell((r) =>
      r.ready ? (
        <span className="chip chip--ok">Ready</span>
      ) : (
        <span className="chip chip--muted">Not ready: {notReadyReason(r)}</span>
      ),
    ),
  }),
  helper.display({
    id: 'holds',
    header: 'Holds',
    size: 120,
    meta: { sortKey: 'holdsCount', label: 'Holds' },
    cell: cell((r) =>
      r.holdsCount > 0 ? (
        <span className="chips">
          {(r.holdNames.length > 0 ? r.holdNames : [`${r.holdsCount} holds`]).map((name) => (
            <span key={name} className="chip chip--danger">
              {name}
            </span>
          ))}
        </span>
      ) : (
        <span className="muted">None</span>
      ),
    ),
  }),
  helper.display({
    id: 'pod',
    header: 'POD / terminal',
    size: 170,
    meta: { sortKey: 'podLocode', label: 'POD and terminal' },
    cell: cell((r) => (
      <span title={[r.podName, r.terminalName].filter(Boolean).join(' · ')}>
        <span className="mono">{text(r.podLocode)}</span>
        {r.terminalName ? <span className="muted"> · {r.terminalName}</span> : null}
      </span>
    )),
  }),
  helper.display({
    id: 'lineScac',
    header: 'Line',
    size: 60,
    meta: { sortKey: 'lineScac', label: 'Line' },
    cell: cell((r) => text(r.lineScac)),
  }),
  helper.display({
    id: 'arrival',
    header: 'ETA / ATA',
    size: 100,
    meta: { sortKey: 'etaAt', label: 'ETA or ATA' },
    cell: cell((r) =>
      r.ataAt ? (
        <span title={formatShortDateTime(r.ataAt, r.podTimezone)}>
          ATA {formatDate(r.ataAt, r.podTimezone)}
        </span>
      ) : r.etaAt ? (
        <span className="muted" title={formatShortDateTime(r.etaAt, r.podTimezone)}>
          ETA {formatDate(r.etaAt, r.podTimezone)}
        </span>
      ) : (
        '—'
      ),
    ),
  }),
  helper.display({
    id: 'discharged',
    header: 'Discharged',
    size: 90,
    meta: { sortKey: 'dischargedAt', label: 'Discharged' },
    cell: cell((r) => formatDate(r.dischargedAt, r.podTimezone)),
  }),
  helper.display({
    id: 'appointment',
    header: 'Appointment',
    size: 130,
    meta: { sortKey: 'pickupAppointmentAt', label: 'Appointment' },
    cell: cell((r) => formatShortDateTime(r.pickupAppointmentAt, r.podTimezone)),
  }),
  helper.display({
    id: 'fees',
    header: 'Fees',
    size: 90,
    meta: { sortKey: 'feesAmount', label: 'Fees' },
    cell: cell((r) => <span className="num">{formatMoney(r.feesAmount, r.feesCurrency)}</span>),
  }),
  helper.display({
    id: 'vessel',
    header: 'Vessel / voyage',
    size: 170,
    meta: { sortKey: 'vessel', label: 'Vessel and voyage' },
    cell: cell((r) => (
      <span>
        {text(r.vessel)}
        {r.voyage ? <span className="muted"> {r.voyage}</span> : null}
      </span>
    )),
  }),
  helper.display({
    id: 'billOfLading',
    header: 'BL',
    size: 140,
    meta: { sortKey: 'billOfLading', label: 'Bill of lading' },
    cell: cell((r) => <span className="mono">{text(r.billOfLading)}</span>),
  }),
  helper.display({
    id: 'terminalChecked',
    header: 'Terminal checked',
    size: 130,
    meta: { sortKey: 'terminalCheckedAt', label: 'Terminal last checked' },
    cell: cell((r, now) =>
      r.terminalCheckedAt ? (
        now - Date.parse(r.terminalCheckedAt) > STALE_AFTER_MS ? (
          <span className="stale" title="Terminal data older than 7 days">
            {formatRelative(r.terminalCheckedAt, now)} (stale)
          </span>
        ) : (
          formatRelative(r.terminalCheckedAt, now)
        )
      ) : (
        <span className="muted">never</span>
      ),
    ),
  }),
  helper.display({
    id: 'updated',
    header: 'Updated',
    size: 110,
    meta: { sortKey: 'updatedAt', label: 'Updated' },
    cell: cell((r, now) => formatRelative(r.updatedAt, now)),
  }),
  helper.display({
    id: 'customer',
    header: 'Customer',
    size: 140,
    meta: { sortKey: 'customer', label: 'Customer' },
    cell: cell((r) => text(r.customer)),
  }),
];
