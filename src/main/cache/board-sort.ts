/** Board sorting: a query's sort (a board column or a custom field) as one SQL ORDER BY. */
import {
  CUSTOM_FIELD_COLUMN_PREFIX,
  type BoardColumn,
  type BoardSortColumn,
  type ContainerQuery,
} from '../../shared/desktop';
import { customValueSql, TRUCKER_NAME } from './board-sql';

/** Board column -> SQL expression it sorts on. */
const SORT_COLUMNS: Record<BoardColumn, string> = {
  number: 'c.number',
  billOfLading: 's.bill_of_lading',
  lineScac: 's.line_scac',
  status: 'c.current_status',
  podLocode: 's.pod_locode',
  terminalName: 't.name',
  vessel: 's.vessel_name',
  voyage: 's.voyage_number',
  etaAt: 's.pod_eta_at',
  ataAt: 'coalesce(c.pod_arrived_at, s.pod_ata_at)',
  dischargedAt: 'c.pod_discharged_at',
  availableForPickup: 'c.available_for_pickup',
  ready: 'c.ready',
  holdsCount: 'c.holds_count',
  feesAmount: 'c.fees_amount',
  // The earliest deadline first: whichever source it is, it is the one that starts costing money.
  lfd: 'c.lfd_first_end_at',
  pickupAppointmentAt: 'c.pickup_appointment_at',
  terminalCheckedAt: 'c.terminal_checked_at',
  updatedAt: 'c.updated_at',
  customer: 's.customer_name',
  trucker: TRUCKER_NAME,
};

export function orderBy(q: ContainerQuery): { sql: string; params: unknown[] } {
  const column: BoardSortColumn = q.sort?.column ?? 'lfd';
  let expr: string;
  let params: unknown[] = [];
  if (column.startsWith(CUSTOM_FIELD_COLUMN_PREFIX)) {
    const slug = column.slice(CUSTOM_FIELD_COLUMN_PREFIX.length);
    if (!/^[a-z][a-z0-9_]{0,62}$/.test(slug)) {
      throw new RangeError(`Unknown board column: ${column}`);
    }
    expr = customValueSql('sort_key');
    // The expression appears twice below, each with the slug bound twice.
    params = [slug, slug, slug, slug];
  } else {
    const builtIn = SORT_COLUMNS[column as BoardColumn] as string | undefined;
    if (!builtIn) throw new RangeError(`Unknown board column: ${column}`);
    expr = builtIn;
  }
  const dir = q.sort?.direction === 'desc' ? 'DESC' : 'ASC';
  // Empty cells last in either direction; container number then id keep the order total.
  return { sql: `ORDER BY ${expr} IS NULL, ${expr} ${dir}, c.number ASC, c.id ASC`, params };
}
