/**
 * The DCSA Track & Trace 2.2 document's event objects, strict (required members, enums, lengths,
 * formats), and validators built from the document itself. The document refers to its event
 * objects by URL (SwaggerHub domains EVENT_DOMAIN 1.0.4, DCSA_DOMAIN 1.0.3, ERROR_DOMAIN 1.0.0),
 * which cannot be fetched offline; the parts in use are written out here once, with the code lists
 * from the contract's one home, src/shared/feeds/dcsa.ts. What the simulated carriers serve and
 * the events the service's tests feed are both checked against them.
 */
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';
import {
  DOCUMENT_REFERENCE_TYPES,
  DOCUMENT_TYPE_CODES,
  EMPTY_INDICATOR_CODES,
  EQUIPMENT_EVENT_TYPE_CODES,
  EVENT_CLASSIFIER_CODES,
  FACILITY_CODE_LIST_PROVIDERS,
  FACILITY_TYPE_CODES,
  MODES_OF_TRANSPORT,
  REFERENCE_TYPES,
  SHIPMENT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_CODES,
  UN_LOCATION_CODE_PATTERN,
} from '../../src/shared/feeds/dcsa';
import { referenceFile } from './reference-files';

type Json = Record<string, unknown>;

const dateTime = { type: 'string', format: 'date-time' } as const;
const text = (maxLength?: number): Json =>
  maxLength ? { type: 'string', maxLength } : { type: 'string' };
const oneOf = (codes: readonly string[]): Json => ({ type: 'string', enum: [...codes] });

const UNLocationCode = {
  type: 'string',
  minLength: 5,
  maxLength: 5,
  pattern: UN_LOCATION_CODE_PATTERN,
};

const location = {
  type: 'object',
  properties: {
    locationName: text(100),
    UNLocationCode,
    facilityCode: text(6),
    facilityCodeListProvider: oneOf(FACILITY_CODE_LIST_PROVIDERS),
  },
};

const vessel = {
  type: 'object',
  properties: {
    vesselIMONumber: { type: 'string', pattern: '^[0-9]{7}$' },
    vesselName: text(35),
    vesselFlag: { type: 'string', minLength: 2, maxLength: 2 },
    vesselCallSignNumber: text(10),
    vesselOperatorCarrierCode: text(10),
    vesselOperatorCarrierCodeListProvider: oneOf(['SMDG', 'NMFTA']),
  },
};

const transportCall = {
  type: 'object',
  properties: {
    transportCallID: text(100),
    transportCallSequenceNumber: { type: 'integer' },
    carrierServiceCode: text(5),
    carrierVoyageNumber: text(50),
    exportVoyageNumber: text(50),
    importVoyageNumber: text(50),
    UNLocationCode,
    facilityCode: text(6),
    facilityCodeListProvider: oneOf(FACILITY_CODE_LIST_PROVIDERS),
    facilityTypeCode: oneOf(FACILITY_TYPE_CODES),
    otherFacility: text(50),
    modeOfTransport: oneOf(MODES_OF_TRANSPORT),
    location,
    vessel,
  },
  required: ['transportCallID', 'modeOfTransport'],
};

const documentReferences = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      documentReferenceType: oneOf(DOCUMENT_REFERENCE_TYPES),
      documentReferenceValue: text(100),
    },
    required: ['documentReferenceType', 'documentReferenceValue'],
  },
};

const references = {
  type: 'array',
  items: {
    type: 'object',
    properties: { referenceType: oneOf(REFERENCE_TYPES), referenceValue: text(100) },
    required: ['referenceType', 'referenceValue'],
  },
};

const baseEvent = {
  eventID: { type: 'string', format: 'uuid' },
  eventCreatedDateTime: dateTime,
  eventDateTime: dateTime,
  eventClassifierCode: oneOf(EVENT_CLASSIFIER_CODES),
  documentReferences,
  references,
};
const baseRequired = ['eventCreatedDateTime', 'eventType', 'eventClassifierCode', 'eventDateTime'];

const shipmentEvent = {
  type: 'object',
  properties: {
    ...baseEvent,
    eventType: oneOf(['SHIPMENT']),
    // Only what happened is published for documents: no plans or estimates.
    eventClassifierCode: oneOf(['ACT']),
    shipmentEventTypeCode: oneOf(SHIPMENT_EVENT_TYPE_CODES),
    documentID: text(100),
    documentTypeCode: oneOf(DOCUMENT_TYPE_CODES),
    reason: text(250),
  },
  required: [...baseRequired, 'documentID', 'shipmentEventTypeCode', 'documentTypeCode'],
};

const transportEvent = {
  type: 'object',
  properties: {
    ...baseEvent,
    eventType: oneOf(['TRANSPORT']),
    transportEventTypeCode: oneOf(TRANSPORT_EVENT_TYPE_CODES),
    delayReasonCode: text(3),
    vesselScheduleChangeRemark: text(250),
    changeRemark: text(250),
    transportCall,
  },
  required: [...baseRequired, 'transportCall', 'transportEventTypeCode'],
};

const equipmentEvent = {
  type: 'object',
  properties: {
    ...baseEvent,
    eventType: oneOf(['EQUIPMENT']),
    equipmentEventTypeCode: oneOf(EQUIPMENT_EVENT_TYPE_CODES),
    equipmentReference: text(15),
    ISOEquipmentCode: text(4),
    emptyIndicatorCode: oneOf(EMPTY_INDICATOR_CODES),
    transportCall,
    /** Where the event happened when it is not tied to a transport call (e.g. STUF at a depot). */
    eventLocation: location,
    seals: { type: 'array' },
  },
  required: [...baseRequired, 'equipmentEventTypeCode', 'emptyIndicatorCode'],
};

/** DCSA error body (ERROR_DOMAIN 1.0.0). */
const error = {
  type: 'object',
  properties: {
    httpMethod: oneOf(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTION', 'PATCH']),
    requestUri: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { reason: text(100), message: text(200) },
        required: ['reason', 'message'],
      },
    },
    statusCode: { type: 'integer' },
    statusCodeText: text(50),
    errorDateTime: dateTime,
  },
  required: ['httpMethod', 'requestUri', 'errors', 'statusCode', 'statusCodeText', 'errorDateTime'],
};

/** The schema each external `$ref` of the T&T 2.2 document names, keyed by the ref's last segment. */
const EXTERNAL_SCHEMAS: Record<string, Json> = {
  transportEvent,
  shipmentEvent,
  equipmentEvent,
  error,
};

export function loadDcsaDocument(): Json {
  return yaml.load(readFileSync(referenceFile('dcsa-tnt-v2.2.0.yaml'), 'utf8')) as Json;
}

/** Replaces every SwaggerHub `$ref` with the matching offline schema. */
function resolveExternal(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolveExternal);
  if (!node || typeof node !== 'object') return node;
  const obj = node as Json;
  if (typeof obj.$ref === 'string' && obj.$ref.startsWith('https://')) {
    const local = EXTERNAL_SCHEMAS[obj.$ref.split('/').pop()!];
    if (!local) throw new Error(`no offline schema for ${obj.$ref}`);
    return local;
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolveExternal(v)]));
}

export interface DcsaValidators {
  document: Json;
  /** The 200 body of GET /v2/events: an array of events. */
  eventsPage: ValidateFunction;
  singleEvent: ValidateFunction;
  error: ValidateFunction;
}

export function dcsaValidators(): DcsaValidators {
  const document = loadDcsaDocument();
  const paths = document.paths as Record<string, Record<string, Json>>;
  const responses = paths['/v2/events']!.get!.responses as Record<string, Json>;
  const content = (r: Json): Json =>
    ((r.content as Json)['application/json'] as Json).schema as Json;
  const single = (paths['/v2/events/{eventID}']!.get!.responses as Record<string, Json>)['200']!;
  // strict off: the OpenAPI 3.0 keywords (example, nullable, discriminator) are not JSON Schema.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return {
    document,
    eventsPage: ajv.compile(resolveExternal(content(responses['200']!)) as Json),
    singleEvent: ajv.compile(resolveExternal(content(single)) as Json),
    error: ajv.compile(resolveExternal(content(responses.default!)) as Json),
  };
}
