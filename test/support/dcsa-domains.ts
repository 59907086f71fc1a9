/**
 * The DCSA event objects as the published Track & Trace 2.2 domains state them (strict: required
 * members, enums, lengths, formats), to check what the simulated carriers serve.
 *
 * The T&T 2.2 OpenAPI document refers to its event objects by URL (SwaggerHub domains
 * EVENT_DOMAIN 1.0.4, DCSA_DOMAIN 1.0.3, DOCUMENTATION_DOMAIN); these are the parts of those domains
 * the simulated world uses, written out so they can be checked offline. The code lists come from
 * the one home of the contract, src/shared/feeds/dcsa.ts.
 */
import {
  DOCUMENT_REFERENCE_TYPES,
  DOCUMENT_TYPE_CODES,
  EMPTY_INDICATOR_CODES,
  EVENT_CLASSIFIER_CODES,
  FACILITY_CODE_LIST_PROVIDERS,
  MODES_OF_TRANSPORT,
  PUBLISHED_EQUIPMENT_EVENT_TYPE_CODES,
  PUBLISHED_FACILITY_TYPE_CODES,
  REFERENCE_TYPES,
  SHIPMENT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_CODES,
  UN_LOCATION_CODE_PATTERN,
} from '../../src/shared/feeds/dcsa';

const dateTime = { type: 'string', format: 'date-time' } as const;
const str = (maxLength?: number): Record<string, unknown> =>
  maxLength ? { type: 'string', maxLength } : { type: 'string' };

const UNLocationCode = {
  type: 'string',
  minLength: 5,
  maxLength: 5,
  pattern: UN_LOCATION_CODE_PATTERN,
};

const vessel = {
  type: 'object',
  properties: {
    vesselIMONumber: { type: 'string', pattern: '^[0-9]{7}$' },
    vesselName: str(35),
    vesselFlag: { type: 'string', maxLength: 2 },
    vesselCallSignNumber: str(10),
    vesselOperatorCarrierCode: str(10),
    vesselOperatorCarrierCodeListProvider: { type: 'string', enum: ['SMDG', 'NMFTA'] },
  },
  required: ['vesselIMONumber'],
};

const transportCall = {
  type: 'object',
  properties: {
    transportCallID: str(100),
    carrierServiceCode: str(5),
    carrierVoyageNumber: str(50),
    transportCallSequenceNumber: { type: 'integer' },
    UNLocationCode,
    facilityCode: str(6),
    facilityCodeListProvider: { type: 'string', enum: FACILITY_CODE_LIST_PROVIDERS },
    facilityTypeCode: { type: 'string', enum: PUBLISHED_FACILITY_TYPE_CODES },
    otherFacility: str(50),
    modeOfTransport: { type: 'string', enum: MODES_OF_TRANSPORT },
    location: { type: 'object' },
    vessel,
  },
  required: ['transportCallID', 'modeOfTransport'],
};

const documentReferences = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      documentReferenceType: { type: 'string', enum: DOCUMENT_REFERENCE_TYPES },
      documentReferenceValue: { type: 'string' },
    },
    required: ['documentReferenceType', 'documentReferenceValue'],
  },
};

const references = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      referenceType: { type: 'string', enum: REFERENCE_TYPES },
      referenceValue: str(100),
    },
    required: ['referenceType', 'referenceValue'],
  },
};

const classifier = { type: 'string', enum: EVENT_CLASSIFIER_CODES };

const baseEvent = {
  eventID: { type: 'string', format: 'uuid' },
  eventCreatedDateTime: dateTime,
  eventDateTime: dateTime,
  eventClassifierCode: classifier,
};
const baseRequired = ['eventCreatedDateTime', 'eventType', 'eventClassifierCode', 'eventDateTime'];

export const shipmentEventSchema = {
  type: 'object',
  properties: {
    ...baseEvent,
    eventType: { type: 'string', enum: ['SHIPMENT'] },
    shipmentEventTypeCode: { type: 'string', enum: SHIPMENT_EVENT_TYPE_CODES },
    documentID: { type: 'string' },
    documentTypeCode: { type: 'string', maxLength: 3, enum: DOCUMENT_TYPE_CODES },
    reason: { type: 'string' },
    references,
  },
  required: [...baseRequired, 'documentID', 'shipmentEventTypeCode', 'documentTypeCode'],
};

export const transportEventSchema = {
  type: 'object',
  properties: {
    ...baseEvent,
    eventType: { type: 'string', enum: ['TRANSPORT'] },
    transportEventTypeCode: { type: 'string', enum: TRANSPORT_EVENT_TYPE_CODES },
    delayReasonCode: str(3),
    vesselScheduleChangeRemark: str(250),
    changeRemark: str(250),
    transportCall,
    documentReferences,
    references,
  },
  required: [...baseRequired, 'transportCall', 'transportEventTypeCode'],
};

export const equipmentEventSchema = {
  type: 'object',
  properties: {
    ...baseEvent,
    eventType: { type: 'string', enum: ['EQUIPMENT'] },
    equipmentEventTypeCode: { type: 'string', enum: PUBLISHED_EQUIPMENT_EVENT_TYPE_CODES },
    equipmentReference: str(15),
    ISOEquipmentCode: str(4),
    emptyIndicatorCode: { type: 'string', enum: EMPTY_INDICATOR_CODES },
    transportCall,
    documentReferences,
    references,
    seals: { type: 'array' },
  },
  required: [...baseRequired, 'emptyIndicatorCode', 'transportCall', 'equipmentEventTypeCode'],
};

/** DCSA error body (ERROR_DOMAIN 1.0.0). */
export const errorSchema = {
  type: 'object',
  properties: {
    httpMethod: {
      type: 'string',
      enum: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTION', 'PATCH'],
    },
    requestUri: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { reason: str(100), message: str(200) },
        required: ['reason', 'message'],
      },
    },
    statusCode: { type: 'integer' },
    statusCodeText: str(50),
    errorDateTime: dateTime,
  },
  required: ['httpMethod', 'requestUri', 'errors', 'statusCode', 'statusCodeText', 'errorDateTime'],
};

/** The schema each external `$ref` of the T&T 2.2 document names, keyed by the ref's last segment. */
export const DCSA_EXTERNAL_SCHEMAS: Record<string, object> = {
  transportEvent: transportEventSchema,
  shipmentEvent: shipmentEventSchema,
  equipmentEvent: equipmentEventSchema,
  error: errorSchema,
};
