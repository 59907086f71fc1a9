/**
 * DCSA events -> raw events: one flat record per carrier event that keeps the carrier's own
 * identity of the event (`TRANSPORT/DEPA`, `EQUIPMENT/LOAD`, `SHIPMENT/ISSU`), its classifier
 * (actual, planned, estimated), the time in UTC and where and on what it happened. Raw events are
 * what /containers/{id}/raw_events serves (including estimates) and what transport events and
 * shipment facts are derived from.
 *
 * Bad data is reported as issues, never thrown: an event whose time cannot be real is dropped;
 * a malformed UN/LOCODE or IMO number is cleared; a well-formed but unknown UN/LOCODE is kept
 * (with the carrier's name for the place) and reported. A code outside the DCSA lists is kept
 * as sent (in `original_event`, `classifier`, `empty_indicator`, `unlisted`) and gives the
 * event no meaning it might not have: it names no milestone (transport-events.ts).
 */
import type {
  DcsaEvent,
  DcsaEventType,
  DcsaTransportCall,
  ModeOfTransport,
} from '../../../shared/feeds/dcsa';
import {
  EMPTY_INDICATOR_CODES,
  EQUIPMENT_EVENT_TYPE_CODES,
  EVENT_CLASSIFIER_CODES,
  FACILITY_TYPE_CODES,
  MODES_OF_TRANSPORT,
  SHIPMENT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_CODES,
} from '../../../shared/feeds/dcsa';

export interface RawEvent {
  data_source: 'shipping_line';
  /** The carrier's eventID, when sent. */
  source_event_id: string | null;
  /**
   * The carrier's identity of the event as sent: `<eventType>/<type code>`, e.g.
   * `EQUIPMENT/LOAD` (a code outside the DCSA lists, e.g. `EQUIPMENT/RMVD2`, stays as sent).
   */
  original_event: string;
  /** The generic eventType the event is read as (the sent one, or the closest; see checkEvent). */
  event_type: DcsaEventType;
  /** The type code as sent, upper case ('' when none was sent). */
  event_code: string;
  /** ACT, PLN, EST, or the value sent ('' when none). */
  classifier: string;
  /** True for planned and estimated events (anything not actual). */
  estimated: boolean;
  /** When it happened or is expected to happen, UTC ISO 8601. */
  timestamp: string;
  /** When the carrier created this version of the event (eventCreatedDateTime), UTC ISO 8601. */
  reported_at: string;
  location_locode: string | null;
  /** The carrier's own name for the place (DCSA `location.locationName`), when sent. */
  location_name: string | null;
  facility_code: string | null;
  facility_code_list_provider: string | null;
  /** The facility's SMDG terminal code, when the carrier identified it with one. */
  facility_smdg_code: string | null;
  facility_type_code: string | null;
  vessel_imo: string | null;
  vessel_name: string | null;
  voyage_number: string | null;
  /** VESSEL, RAIL, TRUCK or BARGE; null when none was sent or the sent one is unlisted. */
  mode_of_transport: ModeOfTransport | null;
  /** EMPTY, LADEN, or the value sent. */
  empty_indicator: string | null;
  equipment_reference: string | null;
  /** Members sent with a value outside the DCSA code lists, by member name, as sent. */
  unlisted: Record<string, string>;
  /** Position in the carrier's feed; keeps ordering stable for events at the same instant. */
  sequence: number;
}

export type FeedIssueKind =
  | 'impossible_timestamp'
  | 'actual_in_future'
  | 'invalid_locode'
  | 'unknown_locode'
  | 'invalid_vessel_imo'
  | 'unlisted_code';

export interface FeedIssue {
  kind: FeedIssueKind;
  source_event_id: string | null;
  original_event: string;
  detail: string;
  /** True when the event was left out because of the issue. */
  dropped: boolean;
}

export interface RawEventOptions {
  /** Current time (epoch ms); when given, actual events far in the future are dropped. */
  now?: number;
  /** How far in the future an actual event may lie (carrier clock skew). Default 6 hours. */
  futureToleranceMs?: number;
  /** Reference-data lookup; a well-formed code it does not know is reported as `unknown_locode`. */
  isKnownLocode?: (locode: string) => boolean;
}

export interface RawEventResult {
  events: RawEvent[];
  issues: FeedIssue[];
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
/** Earliest and latest instants a container event can plausibly carry. */
const EARLIEST_PLAUSIBLE = Date.UTC(1990, 0, 1);
const LATEST_PLAUSIBLE = Date.UTC(2100, 0, 1);
const DEFAULT_FUTURE_TOLERANCE_MS = 6 * 3600_000;

export function toRawEvents(
  events: readonly DcsaEvent[],
  options: RawEventOptions = {},
): RawEventResult {
  const out: RawEvent[] = [];
  const issues: FeedIssue[] = [];
  events.forEach((event, sequence) => {
    const raw = toRawEvent(event, sequence, options, issues);
    if (raw) out.push(raw);
  });
  out.sort(compareRawEvents);
  return { events: out, issues };
}

/** Chronological order; the feed order breaks ties. */
export function compareRawEvents(a: RawEvent, b: RawEvent): number {
  return a.timestamp.localeCompare(b.timestamp) || a.sequence - b.sequence;
}

function toRawEvent(
  event: DcsaEvent,
  sequence: number,
  options: RawEventOptions,
  issues: FeedIssue[],
): RawEvent | null {
  const code = eventCode(event);
  const sentType = event.sentEventType ?? event.eventType;
  const original = code === '' ? sentType : `${sentType}/${code}`;
  const sourceId = event.eventID ?? null;
  const report = (kind: FeedIssueKind, detail: string, dropped: boolean) =>
    issues.push({ kind, source_event_id: sourceId, original_event: original, detail, dropped });

  const at = Date.parse(event.eventDateTime);
  if (!Number.isFinite(at) || at < EARLIEST_PLAUSIBLE || at >= LATEST_PLAUSIBLE) {
    report(
      'impossible_timestamp',
      `eventDateTime ${event.eventDateTime} is not a plausible time`,
      true,
    );
    return null;
  }
  // When the carrier made this version matters only to rank estimates: the event's own time
  // stands in for a missing or unreadable one.
  let reported = Date.parse(event.eventCreatedDateTime ?? '');
  if (!Number.isFinite(reported) || reported < EARLIEST_PLAUSIBLE || reported >= LATEST_PLAUSIBLE) {
    if (event.eventCreatedDateTime != null)
      report(
        'impossible_timestamp',
        `eventCreatedDateTime ${event.eventCreatedDateTime} is not a plausible time`,
        false,
      );
    reported = at;
  }
  const classifier = (event.eventClassifierCode ?? '').trim().toUpperCase();
  const unlisted: Record<string, string> = {};
  const checkListed = (member: string, value: string, list: readonly string[]) => {
    if (value === '' || list.includes(value)) return;
    unlisted[member] = value;
    report(
      'unlisted_code',
      `${member} ${JSON.stringify(value)} is not in the DCSA code list`,
      false,
    );
  };
  if (event.sentEventType !== undefined) {
    unlisted.eventType = event.sentEventType;
    report(
      'unlisted_code',
      `eventType ${JSON.stringify(event.sentEventType)} is not in the DCSA code list; read as ${event.eventType}`,
      false,
    );
  }
  checkListed(CODE_MEMBER[event.eventType], code, CODE_LIST[event.eventType]);
  checkListed('eventClassifierCode', classifier, EVENT_CLASSIFIER_CODES);
  if (
    classifier === 'ACT' &&
    options.now !== undefined &&
    at > options.now + (options.futureToleranceMs ?? DEFAULT_FUTURE_TOLERANCE_MS)
  ) {
    report(
      'actual_in_future',
      `actual event dated ${event.eventDateTime} lies in the future`,
      true,
    );
    return null;
  }

  const call: DcsaTransportCall | null =
    event.eventType === 'SHIPMENT' ? null : (event.transportCall ?? null);
  const eventLocation = event.eventType === 'EQUIPMENT' ? (event.eventLocation ?? null) : null;

  const rawLocode =
    call?.UNLocationCode ?? call?.location?.UNLocationCode ?? eventLocation?.UNLocationCode ?? null;
  let locode: string | null = null;
  if (rawLocode !== null && rawLocode.trim() !== '') {
    const candidate = rawLocode.trim().toUpperCase();
    if (!LOCODE.test(candidate)) {
      report(
        'invalid_locode',
        `UNLocationCode ${JSON.stringify(rawLocode)} is not a UN/LOCODE`,
        false,
      );
    } else {
      locode = candidate;
      if (options.isKnownLocode && !options.isKnownLocode(candidate)) {
        report('unknown_locode', `UN/LOCODE ${candidate} is not in the reference data`, false);
      }
    }
  }

  const facilityCode = call?.facilityCode ?? eventLocation?.facilityCode ?? null;
  const provider =
    (
      call?.facilityCodeListProvider ??
      eventLocation?.facilityCodeListProvider ??
      null
    )?.toUpperCase() ?? null;

  let vesselImo: string | null = null;
  const imoValue = call?.vessel?.vesselIMONumber ?? null;
  if (imoValue !== null && imoValue !== '') {
    vesselImo = normalizeImo(imoValue);
    if (vesselImo === null)
      report(
        'invalid_vessel_imo',
        `vesselIMONumber ${JSON.stringify(imoValue)} is not a valid IMO number`,
        false,
      );
  }

  const inbound = code === 'ARRI' || code === 'DISC';
  const voyage = inbound
    ? (call?.importVoyageNumber ?? call?.carrierVoyageNumber ?? call?.exportVoyageNumber ?? null)
    : (call?.exportVoyageNumber ?? call?.carrierVoyageNumber ?? call?.importVoyageNumber ?? null);

  const mode = (call?.modeOfTransport ?? '').trim().toUpperCase();
  checkListed('modeOfTransport', mode, MODES_OF_TRANSPORT);
  const emptyIndicator =
    event.eventType === 'EQUIPMENT'
      ? (event.emptyIndicatorCode ?? '').trim().toUpperCase() || null
      : null;
  if (emptyIndicator !== null)
    checkListed('emptyIndicatorCode', emptyIndicator, EMPTY_INDICATOR_CODES);
  const facilityType = call?.facilityTypeCode?.trim().toUpperCase() || null;
  if (facilityType !== null) checkListed('facilityTypeCode', facilityType, FACILITY_TYPE_CODES);
  const locationName =
    call?.location?.locationName?.trim() || eventLocation?.locationName?.trim() || null;

  return {
    data_source: 'shipping_line',
    source_event_id: sourceId,
    original_event: original,
    event_type: event.eventType,
    event_code: code,
    classifier,
    estimated: classifier !== 'ACT',
    timestamp: new Date(at).toISOString(),
    reported_at: new Date(reported).toISOString(),
    location_locode: locode,
    location_name: locationName,
    facility_code: facilityCode,
    facility_code_list_provider: provider,
    facility_smdg_code: provider === 'SMDG' ? facilityCode : null,
    facility_type_code: facilityType,
    vessel_imo: vesselImo,
    vessel_name: call?.vessel?.vesselName?.trim() || null,
    voyage_number: voyage?.trim() || null,
    mode_of_transport: (MODES_OF_TRANSPORT as readonly string[]).includes(mode)
      ? (mode as ModeOfTransport)
      : null,
    empty_indicator: emptyIndicator,
    equipment_reference:
      event.eventType === 'EQUIPMENT'
        ? event.equipmentReference?.trim().toUpperCase() || null
        : null,
    unlisted,
    sequence,
  };
}

function eventCode(event: DcsaEvent): string {
  const sent =
    event.eventType === 'TRANSPORT'
      ? event.transportEventTypeCode
      : event.eventType === 'EQUIPMENT'
        ? event.equipmentEventTypeCode
        : event.shipmentEventTypeCode;
  return (sent ?? '').trim().toUpperCase();
}

const CODE_MEMBER = {
  TRANSPORT: 'transportEventTypeCode',
  EQUIPMENT: 'equipmentEventTypeCode',
  SHIPMENT: 'shipmentEventTypeCode',
} as const;

const CODE_LIST: Record<DcsaEventType, readonly string[]> = {
  TRANSPORT: TRANSPORT_EVENT_TYPE_CODES,
  EQUIPMENT: EQUIPMENT_EVENT_TYPE_CODES,
  SHIPMENT: SHIPMENT_EVENT_TYPE_CODES,
};

/** Returns the seven-digit IMO number when its check digit is right, else null. */
export function normalizeImo(value: string | number): string | null {
  const digits = String(value)
    .trim()
    .replace(/^IMO\s*/i, '');
  if (!/^\d{7}$/.test(digits)) return null;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  return sum % 10 === Number(digits[6]) ? digits : null;
}

/**
 * The raw events that concern one container: its own equipment events plus the shipment's
 * transport (vessel, rail, truck) events, which apply to every container on the shipment.
 */
export function rawEventsForContainer(
  events: readonly RawEvent[],
  equipmentReference: string,
): RawEvent[] {
  const ref = equipmentReference.toUpperCase();
  return events.filter(
    (e) =>
      e.event_type === 'TRANSPORT' ||
      (e.event_type === 'EQUIPMENT' && e.equipment_reference === ref),
  );
}
