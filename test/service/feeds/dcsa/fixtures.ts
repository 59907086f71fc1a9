/**
 * DCSA T&T 2.2 event documents for one import: Shanghai (CNSHA) -> transshipment at Singapore
 * (SGSIN) -> Los Angeles (USLAX) -> rail to Chicago (USCHI), container MSCU6639870, written from
 * the DCSA event model. A second journey uses a barge feeder from Zhuhai via Hong Kong.
 */
import type { DcsaEvent } from '../../../../src/shared/feeds/dcsa';

type Classifier = 'ACT' | 'PLN' | 'EST';
type Mode = 'VESSEL' | 'RAIL' | 'TRUCK' | 'BARGE';

export const CONTAINER = 'MSCU6639870';
export const BOOKING = 'MSCBK1234567';
export const BILL = 'MEDUSH123456';

export const VESSEL_1 = { vesselIMONumber: '9321483', vesselName: 'MSC AURORA', vesselFlag: 'PA' };
export const VESSEL_2 = { vesselIMONumber: '9811000', vesselName: 'MSC BOREAS', vesselFlag: 'LR' };

let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

interface CallOptions {
  locode: string;
  mode: Mode;
  vessel?: typeof VESSEL_1;
  facility?: string;
  facilityType?: string;
  exportVoyage?: string;
  importVoyage?: string;
}

function call(o: CallOptions) {
  return {
    transportCallID: `TC-${o.locode}-${o.mode}`,
    transportCallSequenceNumber: 1,
    carrierServiceCode: 'AE7',
    exportVoyageNumber: o.exportVoyage ?? '601W',
    importVoyageNumber: o.importVoyage ?? '601W',
    UNLocationCode: o.locode,
    ...(o.facility ? { facilityCode: o.facility, facilityCodeListProvider: 'SMDG' as const } : {}),
    ...(o.facilityType ? { facilityTypeCode: o.facilityType } : {}),
    modeOfTransport: o.mode,
    ...(o.vessel ? { vessel: o.vessel } : {}),
  };
}

export function transportEvent(
  code: 'ARRI' | 'DEPA',
  classifier: Classifier,
  at: string,
  c: CallOptions,
  createdAt = at,
): DcsaEvent {
  return {
    eventID: uuid(),
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventCreatedDateTime: createdAt,
    eventDateTime: at,
    transportEventTypeCode: code,
    transportCall: call(c),
    documentReferences: [
      { documentReferenceType: 'BKG', documentReferenceValue: BOOKING },
      { documentReferenceType: 'TRD', documentReferenceValue: BILL },
    ],
  };
}

export function equipmentEvent(
  code:
    | 'LOAD'
    | 'DISC'
    | 'GTIN'
    | 'GTOT'
    | 'STUF'
    | 'STRP'
    | 'PICK'
    | 'DROP'
    | 'INSP'
    | 'RSEA'
    | 'RMVD',
  classifier: Classifier,
  at: string,
  empty: 'EMPTY' | 'LADEN',
  c: CallOptions,
  createdAt = at,
  equipmentReference = CONTAINER,
): DcsaEvent {
  return {
    eventID: uuid(),
    eventType: 'EQUIPMENT',
    eventClassifierCode: classifier,
    eventCreatedDateTime: createdAt,
    eventDateTime: at,
    equipmentEventTypeCode: code,
    equipmentReference,
    ISOEquipmentCode: '45G1',
    emptyIndicatorCode: empty,
    transportCall: call(c),
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }],
  };
}

export function shipmentEvent(code: 'RECE' | 'CONF' | 'ISSU' | 'SURR', at: string): DcsaEvent {
  return {
    eventID: uuid(),
    eventType: 'SHIPMENT',
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: at,
    eventDateTime: at,
    shipmentEventTypeCode: code,
    documentID: code === 'CONF' || code === 'RECE' ? BOOKING : BILL,
    documentTypeCode: code === 'CONF' || code === 'RECE' ? 'BKG' : 'TRD',
  };
}

const shaTruck = { locode: 'CNSHA', mode: 'TRUCK' as const, facility: 'SIPGW' };
const shaVessel = {
  locode: 'CNSHA',
  mode: 'VESSEL' as const,
  vessel: VESSEL_1,
  facility: 'SIPGW',
  exportVoyage: '601W',
  importVoyage: '600E',
};
const sinInbound = {
  locode: 'SGSIN',
  mode: 'VESSEL' as const,
  vessel: VESSEL_1,
  facility: 'PPT',
  importVoyage: '601W',
  exportVoyage: '601W',
};
const sinOutbound = {
  locode: 'SGSIN',
  mode: 'VESSEL' as const,
  vessel: VESSEL_2,
  facility: 'PPT',
  importVoyage: '114S',
  exportVoyage: '115E',
};
const laxVessel = {
  locode: 'USLAX',
  mode: 'VESSEL' as const,
  vessel: VESSEL_2,
  facility: 'APMT',
  importVoyage: '115E',
  exportVoyage: '116W',
};
const laxRail = { locode: 'USLAX', mode: 'RAIL' as const, facility: 'APMT' };
const chiRail = { locode: 'USCHI', mode: 'RAIL' as const, facilityType: 'RAMP' };
const chiTruck = { locode: 'USCHI', mode: 'TRUCK' as const, facilityType: 'DEPO' };

/** The whole journey, in the (unordered) way a carrier might list it. */
export function journeyEvents(): DcsaEvent[] {
  counter = 0;
  return [
    shipmentEvent('CONF', '2025-12-18T09:00:00Z'),
    transportEvent('DEPA', 'PLN', '2026-01-05T12:00:00Z', shaVessel, '2025-12-20T00:00:00Z'),
    transportEvent('ARRI', 'PLN', '2026-02-01T08:00:00Z', laxVessel, '2026-01-05T00:00:00Z'),
    equipmentEvent('GTOT', 'ACT', '2026-01-02T08:00:00Z', 'EMPTY', shaTruck),
    equipmentEvent('STUF', 'ACT', '2026-01-03T08:00:00Z', 'LADEN', shaTruck),
    equipmentEvent('GTIN', 'ACT', '2026-01-04T07:30:00Z', 'LADEN', shaTruck),
    transportEvent('DEPA', 'EST', '2026-01-05T18:00:00+08:00', shaVessel, '2026-01-04T00:00:00Z'),
    equipmentEvent('LOAD', 'ACT', '2026-01-05T10:00:00Z', 'LADEN', shaVessel),
    transportEvent('DEPA', 'ACT', '2026-01-05T20:00:00Z', shaVessel),
    // The same departure reported again, half an hour later: still one milestone.
    transportEvent('DEPA', 'ACT', '2026-01-05T20:30:00Z', shaVessel, '2026-01-06T00:00:00Z'),
    shipmentEvent('ISSU', '2026-01-06T02:00:00Z'),
    transportEvent('ARRI', 'EST', '2026-01-11T04:00:00Z', sinInbound, '2026-01-06T00:00:00Z'),
    transportEvent('ARRI', 'ACT', '2026-01-11T06:00:00Z', sinInbound),
    equipmentEvent('DISC', 'ACT', '2026-01-11T12:00:00Z', 'LADEN', sinInbound),
    equipmentEvent('LOAD', 'ACT', '2026-01-13T09:00:00Z', 'LADEN', sinOutbound),
    transportEvent('DEPA', 'EST', '2026-01-13T14:00:00Z', sinOutbound, '2026-01-10T00:00:00Z'),
    transportEvent('DEPA', 'ACT', '2026-01-13T15:00:00Z', sinOutbound),
    transportEvent('ARRI', 'EST', '2026-02-02T10:00:00Z', laxVessel, '2026-01-20T00:00:00Z'),
    transportEvent('ARRI', 'ACT', '2026-02-02T09:30:00Z', laxVessel),
    transportEvent('ARRI', 'ACT', '2026-02-02T11:00:00Z', { ...laxVessel, facilityType: 'BRTH' }),
    equipmentEvent('DISC', 'ACT', '2026-02-03T04:00:00Z', 'LADEN', laxVessel),
    equipmentEvent('INSP', 'ACT', '2026-02-04T04:00:00Z', 'LADEN', laxRail),
    equipmentEvent('LOAD', 'ACT', '2026-02-05T10:00:00Z', 'LADEN', laxRail),
    transportEvent('DEPA', 'ACT', '2026-02-05T20:00:00Z', laxRail),
    transportEvent('ARRI', 'EST', '2026-02-09T12:00:00Z', chiRail, '2026-02-05T21:00:00Z'),
    transportEvent('ARRI', 'ACT', '2026-02-09T08:00:00Z', chiRail),
    equipmentEvent('DISC', 'ACT', '2026-02-09T14:00:00Z', 'LADEN', chiRail),
    equipmentEvent('GTOT', 'ACT', '2026-02-11T09:00:00Z', 'LADEN', chiTruck),
    equipmentEvent('STRP', 'ACT', '2026-02-12T09:00:00Z', 'LADEN', chiTruck),
    equipmentEvent('GTIN', 'ACT', '2026-02-14T16:00:00Z', 'EMPTY', chiTruck),
  ];
}

/** A barge feeder from Zhuhai to the Hong Kong mother vessel, then Los Angeles. */
export function feederJourneyEvents(): DcsaEvent[] {
  counter = 100;
  const zhuBarge = {
    locode: 'CNZUH',
    mode: 'BARGE' as const,
    exportVoyage: 'B12',
    importVoyage: 'B11',
  };
  const hkgBarge = {
    locode: 'HKHKG',
    mode: 'BARGE' as const,
    exportVoyage: 'B12',
    importVoyage: 'B12',
  };
  const hkgVessel = {
    locode: 'HKHKG',
    mode: 'VESSEL' as const,
    vessel: VESSEL_2,
    exportVoyage: '115E',
    importVoyage: '114S',
  };
  const lax = { locode: 'USLAX', mode: 'VESSEL' as const, vessel: VESSEL_2, importVoyage: '115E' };
  return [
    equipmentEvent('LOAD', 'ACT', '2026-03-01T08:00:00Z', 'LADEN', zhuBarge),
    transportEvent('DEPA', 'ACT', '2026-03-01T10:00:00Z', zhuBarge),
    transportEvent('ARRI', 'ACT', '2026-03-01T20:00:00Z', hkgBarge),
    equipmentEvent('DISC', 'ACT', '2026-03-02T01:00:00Z', 'LADEN', hkgBarge),
    equipmentEvent('LOAD', 'ACT', '2026-03-03T05:00:00Z', 'LADEN', hkgVessel),
    transportEvent('DEPA', 'ACT', '2026-03-03T12:00:00Z', hkgVessel),
    transportEvent('ARRI', 'EST', '2026-03-18T12:00:00Z', lax, '2026-03-03T13:00:00Z'),
  ];
}
