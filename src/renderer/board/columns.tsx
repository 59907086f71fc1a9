/**
 * The container board's columns. Each sorts server-side on one BoardColumn (query.sort); cells
 * render from a BoardRow only, so a row can be drawn the moment its page arrives.
 */
import { countOf, formatCount } from '../../shared/words';
import type { ReactNode } from 'react';
import { createColumnHelper, type CellContext, type ColumnDef } from '@tanstack/react-table';
import {
  customFieldColumnKey,
  type BoardCustomValue,
  type BoardRow,
  type BoardSortColumn,
  type CustomFieldColumn,
} from '../../shared/desktop';
import {
  deadlineMissedByAppointment,
  rowHeadlineDeadline,
  rowPlaceZone,
  hasLeftTerminal,
  holdDescription,
  holdLabel,
  lfdCountdown,
  lfdUrgencyOf,
  readinessText,
  type LfdDeadline,
} from '../../shared/container';
import { DEFAULT_COST_TABLES, containerCost, type CostTables } from '../../shared/cost-clock';
import {
  STALE_AFTER_MS,
  formatDate,
  formatLocalDate,
  formatMoney,
  formatRelative,
  formatShortDateTime,
  formatLocalDay,
  localDateZoneName,
  statusLabel,
} from '../lib/format';
import { DateTime } from 'luxon';

/** A board line: its position in the whole result and the row once its page has loaded. */
export interface BoardLine {
  index: number;
  row: BoardRow | null;
}

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** The server-side sort key behind this column. */
    sortKey: BoardSortColumn;
    /** Readable name for the column chooser. */
    label: string;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TableMeta<TData> {
    now: number;
    /** The tariff and per diem tables of the settings (the cost clock). */
    costs?: CostTables;
    /** The rows chosen for a bulk action, by id, and how a row's box is ticked. */
    selected?: ReadonlySet<string>;
    onSelect?: (row: BoardRow, selected: boolean) => void;
  }
}

/** Why a container cannot be picked up yet, in a few words. */
export const notReadyReason = (row: BoardRow): string =>
  readinessText({ ...row, ready: false }).replace(/^Not ready: /, '');

const helper = createColumnHelper<BoardLine>();

const cell =
  (render: (row: BoardRow, now: number, costs: CostTables) => ReactNode) =>
  (context: CellContext<BoardLine, unknown>): ReactNode => {
    const line = context.row.original.row;
    const meta = context.table.options.meta;
    return line ? render(line, meta?.now ?? 0, meta?.costs ?? DEFAULT_COST_TABLES) : null;
  };

const text = (value: string | null) => value ?? '—';

/** "23 Nov": a last free day as the calendar date of its zone. */
const lfdDay = (d: LfdDeadline) => formatLocalDay(d.date, d.zone);
const lfdZoneName = (d: LfdDeadline) => localDateZoneName(d.date, d.zone);
const sourceName = (d: LfdDeadline) => d.source ?? 'LFD';

/** What the LFD cell says about one deadline, for its tooltip and the detail view. */
export function describeDeadline(d: LfdDeadline): string {
  return `${d.source ? `${d.source} LFD` : 'LFD'} ${lfdDay(d)} (${d.zone}, ${lfdZoneName(d)})`;
}

/**
 * The headline deadline (the earliest that counts where the box is, passed or not) with its
 * countdown to the end of its day; below it the other deadlines, each marked when past.
 */
export function LfdCell({ row, now }: { row: BoardRow; now: number }) {
  const driving = rowHeadlineDeadline(row);
  if (!driving) return <span className="muted">—</span>;
  const done = hasLeftTerminal(row.status);
  const urgency = done ? 'done' : lfdUrgencyOf(driving.date, driving.zone, now);
  const others = row.deadlines.filter((d) => d !== driving);
  const lateFor = done
    ? null
    : deadlineMissedByAppointment(row.pickupAppointmentAt, row.deadlines, row.location.kind);
  return (
    <span
      className={`lfd lfd--${urgency}`}
      title={row.deadlines.map(describeDeadline).join('\n')}
      data-testid="lfd-cell"
    >
      <span className="lfd__main">
        <span className="lfd__date">{lfdDay(driving)}</span>
        <span className="lfd__countdown">
          {done
            ? statusLabel(row.status).toLowerCase()
            : lfdCountdown(driving.date, driving.zone, now)}
        </span>
        <span className="lfd__source">{sourceName(driving)}</span>
      </span>
      {others.length > 0 || lateFor ? (
        <span className="lfd__more">
          {lateFor ? (
            <span className="lfd__flag">appointment after {sourceName(lateFor)} LFD · </span>
          ) : null}
          {others.map((d) => (
            <span key={d.source ?? 'lfd'} className="lfd__other">
              {' '}
              {lfdDay(d)} {sourceName(d)}
              {now >= d.endsAt ? ' (past)' : ''}
            </span>
          ))}
        </span>
      ) : null}
    </span>
  );
}

/** "Ready · $1,275 due" / "Not ready: 2 holds · $300 due": readiness with the money owed. */
export function ReadinessCell({ row }: { row: BoardRow }) {
  const owed =
    row.feesAmount !== null && row.feesAmount > 0
      ? ` · ${formatMoney(row.feesAmount, row.feesCurrency)} due`
      : '';
  return row.ready ? (
    <span className={`chip ${owed ? 'chip--warn' : 'chip--ok'}`}>Ready{owed}</span>
  ) : (
    <span className="chip chip--muted">
      Not ready: {notReadyReason(row)}
      {owed}
    </span>
  );
}

/**
 * The cost clock of a row: at the terminal, demurrage accrued and what tomorrow adds
 * ("$300 · +$250 tomorrow"); after pickup, the empty-return deadline and per diem.
 */
export function CostCell({ row, now, costs }: { row: BoardRow; now: number; costs: CostTables }) {
  const { demurrage, perDiem } = containerCost(row, costs, now);
  if (perDiem) {
    const overdue = now >= perDiem.endsAt;
    return (
      <span
        className={`cost cost--per-diem${overdue ? ' cost--overdue' : ''}`}
        title={`Empty return free through ${formatLocalDate(perDiem.date, perDiem.zone)}; then ${formatMoney(perDiem.perDay, perDiem.currency)} a day (${perDiem.scac === '*' ? 'default' : perDiem.scac} per diem)`}
        data-testid="per-diem"
      >
        {overdue
          ? `Per diem ${formatMoney(perDiem.accrued, perDiem.currency)} · +${formatMoney(perDiem.perDay, perDiem.currency)}/day`
          : `Return empty: ${perDiem.countdown}`}
      </span>
    );
  }
  if (!demurrage || (demurrage.accrued === 0 && demurrage.tomorrow === 0))
    return <span className="num muted">{formatMoney(row.feesAmount, row.feesCurrency)}</span>;
  return (
    <span
      className="cost num"
      title={`${countOf(demurrage.daysCharged, 'day')} past free time; ${demurrage.accruedSource === 'terminal' ? 'as the terminal reports' : 'estimated from the tariff'}`}
      data-testid="cost-clock"
    >
      {demurrage.accrued > 0 ? formatMoney(demurrage.accrued, demurrage.currency) : null}
      {demurrage.accrued > 0 && demurrage.tomorrow > 0 ? ' · ' : null}
      {demurrage.tomorrow > 0 ? (
        <span className="cost__tomorrow">
          +{formatMoney(demurrage.tomorrow, demurrage.currency)} tomorrow
        </span>
      ) : null}
    </span>
  );
}

/** Hold chips by their readable names, wrapping onto a second line inside the row. */
export function HoldsCell({ row }: { row: BoardRow }) {
  if (row.holdsCount === 0) return <span className="muted">None</span>;
  const names = row.holdNames.length > 0 ? row.holdNames : [];
  return (
    <span className="chips chips--cell">
      {names.map((name) => (
        <span key={name} className="chip chip--danger" title={holdDescription(name)}>
          {holdLabel(name)}
        </span>
      ))}
      {names.length === 0 ? (
        <span className="chip chip--danger">{countOf(row.holdsCount, 'hold')}</span>
      ) : null}
    </span>
  );
}

/**
 * The tick box that picks a row for a bulk action (assigning a trucker), drawn in the number's
 * cell so the number stays the row's first cell and its name.
 */
function SelectBox({ row, context }: { row: BoardRow; context: CellContext<BoardLine, unknown> }) {
  const meta = context.table.options.meta;
  if (!meta?.onSelect) return null;
  return (
    <input
      type="checkbox"
      className="board__select"
      aria-label={`Select ${row.number}`}
      checked={meta.selected?.has(row.id) ?? false}
      onClick={(event) => event.stopPropagation()}
      onChange={(event) => meta.onSelect?.(row, event.target.checked)}
    />
  );
}

export const BOARD_COLUMN_DEFS: ColumnDef<BoardLine, unknown>[] = [
  helper.display({
    id: 'number',
    header: 'Container',
    size: 140,
    meta: { sortKey: 'number', label: 'Container' },
    cell: (context) => {
      const r = context.row.original.row;
      if (!r) return null;
      return (
        <>
          <SelectBox row={r} context={context} />
          <span className="mono strong">{r.number || '—'}</span>
        </>
      );
    },
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
    cell: cell((r) => <ReadinessCell row={r} />),
  }),
  helper.display({
    id: 'holds',
    header: 'Holds',
    size: 120,
    meta: { sortKey: 'holdsCount', label: 'Holds' },
    cell: cell((r) => <HoldsCell row={r} />),
  }),
  // Money beside the deadline and the holds that run it up: in view at 1280 px whatever the
  // widths of the columns after it.
  helper.display({
    id: 'fees',
    header: 'Cost',
    size: 110,
    meta: { sortKey: 'feesAmount', label: 'Cost (fees, demurrage, per diem)' },
    cell: cell((r, now, costs) => <CostCell row={r} now={now} costs={costs} />),
  }),
  helper.display({
    id: 'pod',
    header: 'Location',
    size: 170,
    meta: { sortKey: 'podLocode', label: 'Location (terminal or rail ramp)' },
    cell: cell((r) => (
      <span title={[r.podLocode, r.podName, r.terminalName].filter(Boolean).join(' · ')}>
        {r.location.kind === 'terminal' ? (
          <>
            <span className="mono">{text(r.podLocode)}</span>
            {r.location.name ? <span className="muted"> · {r.location.name}</span> : null}
          </>
        ) : (
          <span>
            {r.location.kind === 'rail' ? 'Rail to ' : 'Ramp: '}
            {r.location.name}
          </span>
        )}
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
    cell: cell((r) => formatShortDateTime(r.pickupAppointmentAt, rowPlaceZone(r))),
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
  helper.display({
    id: 'trucker',
    header: 'Trucker',
    size: 130,
    meta: { sortKey: 'trucker', label: 'Trucker' },
    cell: cell((r) =>
      r.trucker ? (
        r.trucker
      ) : r.truckerId ? (
        <span className="muted" title="Assigned to a trucker this desktop has not synced yet">
          Assigned
        </span>
      ) : (
        <span className="muted">—</span>
      ),
    ),
  }),
];

/** Says where a value comes from when it is the shipment's (the container has none of its own). */
export const INHERITED_VALUE_NOTE = "The shipment's value: this container has none of its own";

/** A custom field value as its field's type reads best; the text the service gave otherwise. */
export function CustomFieldCell({
  field,
  found,
  zone,
}: {
  field: CustomFieldColumn;
  found: BoardCustomValue | undefined;
  zone: string | null;
}) {
  if (!found) return <span className="muted">—</span>;
  const { value } = found;
  let shown: ReactNode = found.text;
  if (field.dataType === 'number' && typeof value === 'number') {
    shown = <span className="num">{formatCount(value)}</span>;
  } else if (field.dataType === 'date' && typeof value === 'string') {
    const day = DateTime.fromISO(value, { zone: 'utc' });
    shown = day.isValid ? day.toFormat('d LLL yyyy') : found.text;
  } else if (field.dataType === 'datetime' && typeof value === 'string') {
    shown = formatShortDateTime(value, zone);
  } else if (field.dataType === 'boolean' && typeof value === 'boolean') {
    shown = <span className={`chip ${value ? 'chip--ok' : 'chip--muted'}`}>{found.text}</span>;
  } else if (field.dataType === 'enum' || field.dataType === 'enum_multi') {
    shown = (
      <span className="chips chips--cell">
        {found.text
          .split(', ')
          .filter(Boolean)
          .map((label) => (
            <span key={label} className="chip">
              {label}
            </span>
          ))}
      </span>
    );
  }
  return found.fromShipment ? (
    <span className="custom-value custom-value--inherited" title={INHERITED_VALUE_NOTE}>
      {shown}
      <span className="muted" aria-label="(from the shipment)">
        {' '}
        ↑
      </span>
    </span>
  ) : (
    <span className="custom-value" title={found.text}>
      {shown}
    </span>
  );
}

/** One optional board column per custom field, sorted server-side by its api_slug. */
export function customFieldColumnDefs(
  fields: readonly CustomFieldColumn[],
): ColumnDef<BoardLine, unknown>[] {
  return fields.map((field) =>
    helper.display({
      id: customFieldColumnKey(field.slug),
      header: field.label,
      size: field.dataType === 'number' || field.dataType === 'boolean' ? 90 : 140,
      meta: { sortKey: customFieldColumnKey(field.slug), label: field.label },
      cell: cell((r) => (
        <CustomFieldCell field={field} found={r.customFields[field.slug]} zone={r.podTimezone} />
      )),
    }),
  );
}
