/**
 * The DCSA Track & Trace 2.2 contract, in one place: the code lists the standard publishes, the
 * query the events endpoint (`GET /v2/events`) accepts, and the event shapes as Quayside reads
 * them. The service's DCSA client validates what carriers send against these; the simulated
 * carriers serve and check their queries against the same lists; tests build the published,
 * strict schemas from them (test/support/dcsa-domains.ts).
 *
 * Reading is tolerant: unknown members are ignored, every member but the event's time may be
 * missing, and codes are plain strings. A carrier sending a value outside these lists (a newer
 * list, its own code) keeps its event, stored and shown as sent (see `checkEvent` in
 * service/feeds/dcsa/client.ts and normalize/raw-events.ts).
 */
import { Type, type Static } from 'typebox';

/** T&T 2.2 EVENT_DOMAIN 1.0.4 code lists. */
export const DCSA_EVENT_TYPES = ['SHIPMENT', 'TRANSPORT', 'EQUIPMENT'] as const;
export const EVENT_CLASSIFIER_CODES = ['ACT', 'PLN', 'EST'] as const;
export const TRANSPORT_EVENT_TYPE_CODES = ['ARRI', 'DEPA'] as const;
export const EQUIPMENT_EVENT_TYPE_CODES = [
  'LOAD', // loaded onto the transport of the transport call
  'DISC', // discharged from it
  'GTIN', // gated in to a facility
  'GTOT', // gated out of a facility
  'STUF', // stuffed
  'STRP', // stripped
  'PICK', // picked up (carrier haulage)
  'DROP', // dropped off (carrier haulage)
  'INSP', // inspected
  'RSEA', // resealed
  'RMVD', // removed (seal)
] as const;
export const SHIPMENT_EVENT_TYPE_CODES = [
  'RECE',
  'DRFT',
  'PENA',
  'PENU',
  'REJE',
  'APPR',
  'ISSU',
  'SURR',
  'SUBM',
  'VOID',
  'CONF',
] as const;
export const DOCUMENT_TYPE_CODES = ['BKG', 'SHI', 'SRM', 'TRD', 'ARN'] as const;
export const DOCUMENT_REFERENCE_TYPES = ['BKG', 'TRD'] as const;
export const REFERENCE_TYPES = [
  'FF',
  'CN',
  'SI',
  'PO',
  'CR',
  'AAO',
  'ECR',
  'CSI',
  'BPR',
  'BID',
] as const;
export const MODES_OF_TRANSPORT = ['VESSEL', 'RAIL', 'TRUCK', 'BARGE'] as const;
export const EMPTY_INDICATOR_CODES = ['EMPTY', 'LADEN'] as const;
export const FACILITY_TYPE_CODES = [
  'BOCR',
  'CLOC',
  'COFS',
  'COYA',
  'OFFD',
  'DEPO',
  'INTE',
  'POTE',
  'PBPL',
  'BRTH',
  'RAMP',
] as const;
export const FACILITY_CODE_LIST_PROVIDERS = ['BIC', 'SMDG'] as const;
/** UN/LOCODE: two letters of country, three of place. */
export const UN_LOCATION_CODE_PATTERN = '^[A-Z]{2}[A-Z2-9]{3}$';

/** A comma-separated list of codes, as the events endpoint's multi-value filters take them. */
const codeList = (codes: readonly string[]): ReturnType<typeof Type.String> =>
  Type.String({ pattern: `^(${codes.join('|')})(,(${codes.join('|')}))*$` });
const dateTimeText = Type.String({ format: 'date-time' });

/** The query parameters `GET /v2/events` accepts (anything else is refused). */
export const DcsaEventsQuery = Type.Object(
  {
    eventType: Type.Optional(codeList(DCSA_EVENT_TYPES)),
    shipmentEventTypeCode: Type.Optional(codeList(SHIPMENT_EVENT_TYPE_CODES)),
    documentTypeCode: Type.Optional(codeList(DOCUMENT_TYPE_CODES)),
    carrierBookingReference: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
    bookingReference: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
    transportDocumentID: Type.Optional(Type.String({ format: 'uuid' })),
    transportDocumentReference: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    transportEventTypeCode: Type.Optional(codeList(TRANSPORT_EVENT_TYPE_CODES)),
    scheduleID: Type.Optional(Type.String()),
    transportCallID: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    vesselIMONumber: Type.Optional(Type.String({ pattern: '^[0-9]{7}$' })),
    carrierVoyageNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    exportVoyageNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    carrierServiceCode: Type.Optional(Type.String({ minLength: 1, maxLength: 5 })),
    UNLocationCode: Type.Optional(Type.String({ pattern: UN_LOCATION_CODE_PATTERN })),
    equipmentEventTypeCode: Type.Optional(codeList(EQUIPMENT_EVENT_TYPE_CODES)),
    equipmentReference: Type.Optional(Type.String({ minLength: 1, maxLength: 15 })),
    eventCreatedDateTime: Type.Optional(dateTimeText),
    'eventCreatedDateTime:gte': Type.Optional(dateTimeText),
    'eventCreatedDateTime:gt': Type.Optional(dateTimeText),
    'eventCreatedDateTime:lte': Type.Optional(dateTimeText),
    'eventCreatedDateTime:lt': Type.Optional(dateTimeText),
    'eventCreatedDateTime:eq': Type.Optional(dateTimeText),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]*$' })),
    cursor: Type.Optional(Type.String({ minLength: 1 })),
    sort: Type.Optional(
      Type.String({ pattern: '^(eventCreatedDateTime|eventDateTime)(:(ASC|DESC))?$' }),
    ),
  },
  { additionalProperties: false },
);

export type DcsaEventType = (typeof DCSA_EVENT_TYPES)[number];
export type ModeOfTransport = (typeof MODES_OF_TRANSPORT)[number];

const DateTime = Type.String({ format: 'date-time' });
const OptionalString = Type.Optional(Type.Union([Type.String(), Type.Null()]));

export const DcsaVessel = Type.Object({
  /** Seven digits; some carriers send it as a number. */
  vesselIMONumber: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
  vesselName: OptionalString,
  vesselFlag: OptionalString,
  vesselCallSignNumber: OptionalString,
  vesselOperatorCarrierCode: OptionalString,
});

export const DcsaLocation = Type.Object({
  locationName: OptionalString,
  UNLocationCode: OptionalString,
  facilityCode: OptionalString,
  facilityCodeListProvider: OptionalString,
});

export const DcsaTransportCall = Type.Object({
  transportCallID: OptionalString,
  transportCallSequenceNumber: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  carrierServiceCode: OptionalString,
  /** Deprecated in 2.2 in favour of export/import voyage numbers; still widely sent. */
  carrierVoyageNumber: OptionalString,
  exportVoyageNumber: OptionalString,
  importVoyageNumber: OptionalString,
  UNLocationCode: OptionalString,
  /** SMDG terminal code or BIC facility code, per facilityCodeListProvider. */
  facilityCode: OptionalString,
  facilityCodeListProvider: OptionalString,
  /** e.g. POTE (port terminal), BRTH (berth), RAMP (rail ramp), DEPO (depot), INTE (inland terminal). */
  facilityTypeCode: OptionalString,
  otherFacility: OptionalString,
  modeOfTransport: OptionalString,
  location: Type.Optional(Type.Union([DcsaLocation, Type.Null()])),
  vessel: Type.Optional(Type.Union([DcsaVessel, Type.Null()])),
});

export const DcsaDocumentReference = Type.Object({
  documentReferenceType: Type.String(),
  documentReferenceValue: Type.String(),
});

export const DcsaReference = Type.Object({
  referenceType: Type.String(),
  referenceValue: Type.String(),
});

const baseEventMembers = {
  /**
   * Set by `checkEvent` (never sent by a carrier): the eventType as sent when it was none of
   * TRANSPORT, EQUIPMENT, SHIPMENT and the event was taken as the closest of those.
   */
  sentEventType: Type.Optional(Type.String()),
  eventID: OptionalString,
  /** When missing or unreadable, the event's own time stands in (see raw-events.ts). */
  eventCreatedDateTime: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** The one member an event cannot do without. */
  eventDateTime: DateTime,
  /** ACT, PLN or EST; any other value is kept and taken as not actual. */
  eventClassifierCode: OptionalString,
  documentReferences: Type.Optional(Type.Union([Type.Array(DcsaDocumentReference), Type.Null()])),
  references: Type.Optional(Type.Union([Type.Array(DcsaReference), Type.Null()])),
};

export const DcsaTransportEvent = Type.Object({
  ...baseEventMembers,
  eventType: Type.Literal('TRANSPORT'),
  transportEventTypeCode: OptionalString,
  delayReasonCode: OptionalString,
  changeRemark: OptionalString,
  transportCall: Type.Optional(Type.Union([DcsaTransportCall, Type.Null()])),
});

export const DcsaEquipmentEvent = Type.Object({
  ...baseEventMembers,
  eventType: Type.Literal('EQUIPMENT'),
  equipmentEventTypeCode: OptionalString,
  equipmentReference: OptionalString,
  ISOEquipmentCode: OptionalString,
  emptyIndicatorCode: OptionalString,
  transportCall: Type.Optional(Type.Union([DcsaTransportCall, Type.Null()])),
  /** Where the event happened when it is not tied to a transport call (e.g. STUF at a depot). */
  eventLocation: Type.Optional(Type.Union([DcsaLocation, Type.Null()])),
});

export const DcsaShipmentEvent = Type.Object({
  ...baseEventMembers,
  eventType: Type.Literal('SHIPMENT'),
  shipmentEventTypeCode: OptionalString,
  documentID: OptionalString,
  documentTypeCode: OptionalString,
  reason: OptionalString,
});

export type DcsaVessel = Static<typeof DcsaVessel>;
export type DcsaLocation = Static<typeof DcsaLocation>;
export type DcsaTransportCall = Static<typeof DcsaTransportCall>;
export type DcsaTransportEvent = Static<typeof DcsaTransportEvent>;
export type DcsaEquipmentEvent = Static<typeof DcsaEquipmentEvent>;
export type DcsaShipmentEvent = Static<typeof DcsaShipmentEvent>;
export type DcsaEvent = DcsaTransportEvent | DcsaEquipmentEvent | DcsaShipmentEvent;

export const EVENT_SCHEMA_BY_TYPE = {
  TRANSPORT: DcsaTransportEvent,
  EQUIPMENT: DcsaEquipmentEvent,
  SHIPMENT: DcsaShipmentEvent,
} as const;
