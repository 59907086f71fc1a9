/**
 * What every board read shares: the fixed SQL fragments the board's queries are assembled from
 * (nothing from outside ever becomes SQL text), the raw row and how it becomes a BoardRow, and the
 * board's connection (BoardDb: its statements and the positions scans walk in steps).
 */
import type Database from 'better-sqlite3';
import { ACTIVE_HOLD_STATUS, containerLocation, type LfdDeadline } from '../../shared/container';
import type { StoredDeadline } from './projection';
import type { BoardRow } from '../../shared/desktop';
import { preparedStatements } from './prepared';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The assigned trucker's name (a subquery, so no read of the board joins another table). */
export const TRUCKER_NAME = '(SELECT tr.company_name FROM truckers tr WHERE tr.id = c.trucker_id)';

/** A box's port zone: its own, else its shipment's (every read that dates a box uses it). */
export const POD_TIMEZONE = 'coalesce(c.pod_timezone, s.pod_timezone) AS podTimezone';

export const SELECT_ROW = `SELECT c.id, c.shipment_id AS shipmentId, c.number,
  s.bill_of_lading AS billOfLading, s.line_scac AS lineScac, c.current_status AS status,
  s.pod_locode AS podLocode, s.pod_name AS podName, t.name AS terminalName,
  s.vessel_name AS vessel, s.voyage_number AS voyage, s.pod_eta_at AS etaAt,
  coalesce(c.pod_arrived_at, s.pod_ata_at) AS ataAt, c.pod_discharged_at AS dischargedAt,
  c.availability_known AS availabilityKnown, c.available_for_pickup AS availableForPickup,
  c.ready, c.holds_count AS holdsCount,
  (SELECT group_concat(json_extract(h.value, '$.name'), char(31))
     FROM json_each(c.json, '$.attributes.holds_at_pod_terminal') AS h
     WHERE json_extract(h.value, '$.status') = '${ACTIVE_HOLD_STATUS}') AS holdNames,
  c.fees_amount AS feesAmount,
  c.fees_currency AS feesCurrency, c.lfd, c.lfd_source AS lfdSource,
  c.pickup_appointment_at AS pickupAppointmentAt, c.picked_up_at AS pickedUpAt,
  c.terminal_checked_at AS terminalCheckedAt,
  c.updated_at AS updatedAt, ${POD_TIMEZONE},
  s.customer_name AS customer, c.trucker_id AS truckerId, ${TRUCKER_NAME} AS trucker,
  c.lfd_deadlines AS deadlines,
  json_extract(c.json, '$.attributes.final_destination_timezone') AS destinationTimezone,
  json_extract(c.json, '$.attributes.pod_rail_departed_at') AS railDepartedAt,
  json_extract(c.json, '$.attributes.ind_rail_unloaded_at') AS railUnloadedAt,
  json_extract(s.json, '$.attributes.destination_name') AS destinationName`;

/** The rows that cost or may cost by tomorrow (the parameter: tomorrow's instant). */
export const COSTS = '(c.lfd_first_end_at <= ? OR c.fees_amount > 0 OR c.picked_up_at IS NOT NULL)';

export const FROM = `FROM containers c
  LEFT JOIN shipments s ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = c.pod_terminal_id`;

/**
 * The same rows for counting when no terminal is filtered on: without the terminal join SQLite
 * counts from the indexes alone (a line's containers at 1M: 90 ms instead of 250).
 */
export const FROM_WITHOUT_TERMINAL = `FROM containers c
  LEFT JOIN shipments s ON s.id = c.shipment_id`;

/** The rows of a window found by their ids (`w.window_id`, see containers). */
export const WINDOW_ROWS = `JOIN containers c ON c.id = w.window_id
  LEFT JOIN shipments s ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = c.pod_terminal_id`;

/**
 * The same rows read in the containers' own order (by rowid), never through an index of theirs.
 * A shipment is found by its id only (the index of its UNIQUE id): otherwise a filter on a
 * shipment column can make SQLite start from the shipments and scan the range once for each
 * (a line's cost page at 100k: 166 ms instead of 1).
 */
export const FROM_BY_POSITION = `FROM containers c NOT INDEXED
  LEFT JOIN shipments s INDEXED BY sqlite_autoindex_shipments_1 ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = c.pod_terminal_id`;

export type RawRow = Omit<
  BoardRow,
  'availabilityKnown' | 'availableForPickup' | 'ready' | 'holdNames' | 'deadlines' | 'location'
> & {
  holdNames: string | null;
  availabilityKnown: number;
  availableForPickup: number | null;
  ready: number;
  deadlines: string | null;
  railDepartedAt: string | null;
  railUnloadedAt: string | null;
  destinationName: string | null;
};

/** A row's stored deadlines (JSON), as the shared LFD rule lists them. */
export const parseDeadlines = (json: string | null): LfdDeadline[] =>
  json ? (JSON.parse(json) as StoredDeadline[]).map(({ dueFrom: _dueFrom, ...d }) => d) : [];

export const toBoardRow = ({
  railDepartedAt,
  railUnloadedAt,
  destinationName,
  deadlines,
  ...r
}: RawRow): BoardRow => ({
  ...r,
  availabilityKnown: r.availabilityKnown === 1,
  availableForPickup: r.availableForPickup === null ? null : r.availableForPickup === 1,
  ready: r.ready === 1,
  // Names are joined with the unit separator, which no hold name contains.
  holdNames: r.holdNames ? r.holdNames.split('\u001f') : [],
  deadlines: parseDeadlines(deadlines),
  location: containerLocation({
    status: r.status,
    terminalName: r.terminalName,
    podName: r.podName,
    destinationName,
    railDepartedAt,
    railUnloadedAt,
  }),
  // Filled by BoardCustomValues.withCustomFields, one query per batch of rows.
  customFields: {},
});

/**
 * SQL expression: one stored column of a custom field's value for the container `c`, its own
 * value or else its shipment's. The api_slug is bound twice (the two `?`), never written into
 * the SQL; `column` is one of the fixed names below.
 */
export const customValueSql = (column: 'sort_key' | 'search_text' | 'choices') =>
  `coalesce(
    (SELECT v.${column} FROM custom_field_values v
      WHERE v.entity_id = c.id AND v.entity_type = 'container' AND v.api_slug = ?),
    (SELECT v.${column} FROM custom_field_values v
      WHERE v.entity_id = c.shipment_id AND v.entity_type = 'shipment' AND v.api_slug = ?))`;

export const iso = (ms: number) => new Date(ms).toISOString();

/** The board's connection: its prepared statements and what its scans and kept counts read. */
export class BoardDb {
  /** The connection's statement of each SQL text, prepared on first use. */
  readonly stmt: (sql: string) => Database.Statement;

  constructor(readonly db: Database.Database) {
    this.stmt = preparedStatements(db);
  }

  /**
   * What identifies the database's contents for this connection: rows it changed
   * (total_changes(), counting even rolled-back writes, which only costs a recount) and commits
   * of other connections (data_version). Equal states, equal counts.
   */
  dataState(): string {
    const { changes } = this.stmt('SELECT total_changes() AS changes').get() as {
      changes: number;
    };
    const { data_version: version } = this.stmt('PRAGMA data_version').get() as {
      data_version: number;
    };
    return `${version}:${changes}`;
  }

  /**
   * Calls `read` for each range of `span` container positions, yielding after each: the steps
   * of a scan that must leave the main thread free in between.
   */
  *positionRanges(
    span: number,
    read: (after: number, upTo: number) => void,
  ): Generator<void, void> {
    for (let after = 0; ; after += span) {
      read(after, after + span);
      if (after + span >= this.lastPosition()) return;
      yield;
    }
  }

  /** The last container position (rowid) in use, 0 when there is none. */
  lastPosition(): number {
    const { last } = this.stmt('SELECT max(seq) AS last FROM containers').get() as {
      last: number | null;
    };
    return last ?? 0;
  }
}
