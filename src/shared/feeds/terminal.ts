/**
 * The terminal feed contract: an HTTP JSON interface that a marine or rail terminal (or an
 * aggregator in front of several) exposes for container availability. Real terminals publish
 * this data in many proprietary shapes; Quayside's terminal adapter speaks this one, and a small
 * translation layer per terminal operator maps into it. The simulated world serves it natively.
 *
 *   GET  {baseUrl}/containers/{containerNumber}   -> 200 TerminalContainerStatus | 404 (not known here)
 *   POST {baseUrl}/containers/query               body TerminalQuery -> 200 TerminalQueryResult
 *
 * Requests carry `Authorization: Bearer <token>` when the source is configured with one.
 * All timestamps are UTC ISO 8601; the facility's IANA zone says how to show them.
 */
import { Type, type Static } from 'typebox';

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

export const TerminalHold = Type.Object({
  /** e.g. `customs`, `freight`, `usda`, `vacis`, `tmf`, `other` */
  name: Type.String({ minLength: 1 }),
  /**
   * `pending`, `hold` or `released`; `released` holds are reported for history and not shown.
   * Any other status a facility sends is kept and shown as sent (it is a plain string here so
   * that one new value never drops the box's whole record).
   */
  status: Type.String({ minLength: 1 }),
  description: Type.Union([Type.String(), Type.Null()]),
});

export const TerminalFee = Type.Object({
  /** `demurrage`, `exam`, `extended_dwell_time`, `other` or `total`; any other kept as sent. */
  type: Type.String({ minLength: 1 }),
  amount: Type.Number({ minimum: 0 }),
  currency_code: Type.String({ pattern: '^[A-Z]{3}$' }),
});

export const TerminalFacility = Type.Object({
  /**
   * `terminal` or `rail_terminal`. Any other kind a facility sends (`depot`, `off_dock`) is
   * kept with the record and read as a terminal: one new value never drops the box's record.
   */
  kind: Type.String({ minLength: 1 }),
  firms_code: Type.Union([Type.String(), Type.Null()]),
  smdg_code: Type.Union([Type.String(), Type.Null()]),
  /** The facility's own name, shown with its code where the reference data lacks the place. */
  name: Type.String(),
  /**
   * UN/LOCODE of the port or metro area the facility belongs to. A code of another shape is
   * kept out of the records (the rest of the answer is used).
   */
  locode: Type.String(),
  time_zone: Type.String(),
});

export const TerminalContainerStatus = Type.Object({
  container_number: Type.String({ pattern: '^[A-Z]{4}[0-9]{7}$' }),
  facility: TerminalFacility,
  /** When the facility produced this answer. */
  checked_at: DateTime,
  discharged_at: NullableDateTime,
  /** Unloaded from the train, for rail terminals. */
  rail_unloaded_at: NullableDateTime,
  available_for_pickup: Type.Boolean(),
  holds: Type.Array(TerminalHold),
  fees: Type.Array(TerminalFee),
  /** The facility's last free day (terminal LFD, or rail LFD for a rail terminal). */
  last_free_day: NullableDateTime,
  pickup_appointment_at: NullableDateTime,
  yard_location: Type.Union([Type.String(), Type.Null()]),
  full_out_at: NullableDateTime,
  full_out_chassis_number: Type.Union([Type.String(), Type.Null()]),
  empty_returned_at: NullableDateTime,
  /**
   * The number the trucker gives at the gate to pick the box up (a pickup, release or PIN
   * number), where the facility issues one; null or absent where it does not.
   */
  pickup_number: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
});

export const TerminalQuery = Type.Object({
  container_numbers: Type.Array(Type.String({ pattern: '^[A-Z]{4}[0-9]{7}$' }), {
    minItems: 1,
    maxItems: 100,
  }),
});

export const TerminalQueryResult = Type.Object({
  /** Only the containers the facility knows; unknown numbers are listed in `not_found`. */
  containers: Type.Array(TerminalContainerStatus),
  not_found: Type.Array(Type.String()),
});

export type TerminalHold = Static<typeof TerminalHold>;
export type TerminalFee = Static<typeof TerminalFee>;
export type TerminalFacility = Static<typeof TerminalFacility>;
export type TerminalContainerStatus = Static<typeof TerminalContainerStatus>;
export type TerminalQuery = Static<typeof TerminalQuery>;
export type TerminalQueryResult = Static<typeof TerminalQueryResult>;
