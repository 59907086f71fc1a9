/**
 * The DCSA Track & Trace events a carrier publishes about its shipments. Each event carries the
 * instant it was created: the carrier server only shows events whose creation time has come, so
 * plans (PLN) and estimates (EST) of the future appear early and actuals (ACT) as they happen.
 *
 * Conventions a consumer can rely on:
 * - SHIPMENT: BKG RECE and CONF; TRD ISSU when the bill of lading is issued; BKG VOID (with a
 *   reason) when a booking is cancelled.
 * - TRANSPORT (vessel): DEPA at each load port and ARRI at each discharge port, as PLN (created at
 *   booking confirmation), EST (re-estimates: after sailing, on a slip, on a terminal change) and
 *   ACT. At the port of discharge the ACT ARRI without a facility is the arrival at the port; a
 *   second ACT ARRI naming the terminal (facilityTypeCode POTE) is the vessel berthed.
 * - TRANSPORT (rail): DEPA from the port and ARRI (EST, then ACT) at the inland ramp, with
 *   modeOfTransport RAIL and facilityTypeCode RAMP.
 * - EQUIPMENT: GTOT EMPTY (empty out), GTIN LADEN (full in), LOAD, DISC (also at transshipment
 *   ports and for rail), GTOT LADEN (full out), GTIN EMPTY (empty returned).
 * - Facilities: US terminals and ramps carry their CBP FIRMS code in facilityCode with no
 *   facilityCodeListProvider (DCSA lists only BIC and SMDG) and the name in otherFacility;
 *   European terminals carry their SMDG code with provider SMDG.
 */
import { hashString, Rng } from '../prng';
import { isoString } from '../../shared/clock';
import type { DcsaEventType } from '../../shared/feeds/dcsa';
import { MINUTE } from '../time';
import type { ContainerPlan, Facility, ShipmentPlan, VesselLeg } from '../world/plan';
import type { CallTime } from '../world/services';

export interface DcsaEventRecord {
  createdAt: number;
  eventDateTime: number;
  eventType: DcsaEventType;
  /** Set on equipment events. */
  equipmentReference: string | null;
  typeCode: string;
  shipment: ShipmentPlan;
  body: Record<string, unknown>;
}

/** A stable UUID (version 4 layout) derived from a label, so event IDs survive restarts. */
export function stableUuid(label: string): string {
  let hex = '';
  for (let i = 0; hex.length < 32; i++)
    hex += hashString(`${label}#${i}`).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const documentReferences = (s: ShipmentPlan): Record<string, string>[] => [
  { documentReferenceType: 'BKG', documentReferenceValue: s.booking },
  { documentReferenceType: 'TRD', documentReferenceValue: s.billOfLading },
];

const facilityFields = (f: Facility | null): Record<string, unknown> => {
  if (!f) return {};
  if (f.smdg_code && !f.firms_code) {
    return {
      facilityCode: f.smdg_code.slice(0, 6),
      facilityCodeListProvider: 'SMDG',
      facilityTypeCode: 'POTE',
    };
  }
  // US FIRMS codes have no DCSA code list provider; the code is sent alone with the facility name.
  return {
    facilityCode: f.firms_code,
    facilityTypeCode: f.kind === 'rail_terminal' ? 'RAMP' : 'POTE',
    otherFacility: f.name.slice(0, 50),
  };
};

function vesselCall(
  leg: VesselLeg,
  call: CallTime,
  facility: Facility | null,
): Record<string, unknown> {
  return {
    transportCallID: `${leg.vessel.imo}-${call.voyage}-${call.locode}-${call.cycle}`,
    carrierServiceCode: leg.serviceCode,
    carrierVoyageNumber: call.voyage,
    transportCallSequenceNumber: call.callIndex + 1,
    UNLocationCode: call.locode,
    ...facilityFields(facility),
    modeOfTransport: 'VESSEL',
    vessel: {
      vesselIMONumber: leg.vessel.imo,
      vesselName: leg.vessel.name.slice(0, 35),
      vesselOperatorCarrierCode: leg.operatorScac,
      vesselOperatorCarrierCodeListProvider: 'NMFTA',
    },
  };
}

function landCall(
  id: string,
  locode: string,
  mode: 'TRUCK' | 'RAIL',
  facility: Facility | null,
  typeCode?: string,
): Record<string, unknown> {
  return {
    transportCallID: id.slice(0, 100),
    UNLocationCode: locode,
    ...facilityFields(facility),
    ...(typeCode ? { facilityTypeCode: typeCode } : {}),
    modeOfTransport: mode,
  };
}

/** The facility where the box is discharged at the port of discharge, as known at `at`. */
export function podFacilityAt(s: ShipmentPlan, at: number): Facility {
  return s.podFacilityChange && at >= s.podFacilityChange.at
    ? s.podFacilityChange.to
    : s.podFacility;
}

export function buildEvents(s: ShipmentPlan, seed: number): DcsaEventRecord[] {
  const out: DcsaEventRecord[] = [];
  const rng = new Rng(`${seed}:events:${s.index}`);
  const lag = (): number => rng.range(4, 45) * MINUTE;
  const push = (
    key: string,
    createdAt: number,
    eventDateTime: number,
    eventType: DcsaEventType,
    typeCode: string,
    classifier: 'ACT' | 'PLN' | 'EST',
    fields: Record<string, unknown>,
    equipmentReference: string | null = null,
  ): void => {
    if (!Number.isFinite(createdAt) || !Number.isFinite(eventDateTime)) return;
    out.push({
      createdAt,
      eventDateTime,
      eventType,
      equipmentReference,
      typeCode,
      shipment: s,
      body: {
        eventID: stableUuid(`${seed}:${s.index}:${key}:${classifier}:${createdAt}`),
        eventCreatedDateTime: isoString(createdAt),
        eventType,
        eventClassifierCode: classifier,
        eventDateTime: isoString(eventDateTime),
        ...fields,
      },
    });
  };

  // Shipment events: booking received and confirmed, bill of lading issued, or booking voided.
  const shipment = (
    key: string,
    at: number,
    code: string,
    docType: 'BKG' | 'TRD',
    reason?: string,
  ): void =>
    push(key, at, at, 'SHIPMENT', code, 'ACT', {
      shipmentEventTypeCode: code,
      documentTypeCode: docType,
      documentID: docType === 'BKG' ? s.booking : s.billOfLading,
      ...(reason ? { reason } : {}),
    });
  shipment('bkg-rece', s.bookingReceivedAt, 'RECE', 'BKG');
  shipment('bkg-conf', s.bookingConfirmedAt, 'CONF', 'BKG');
  if (s.cancelledAt !== null) {
    shipment('bkg-void', s.cancelledAt, 'VOID', 'BKG', 'Booking cancelled at the shipper request');
  } else {
    shipment('trd-issu', s.blIssuedAt, 'ISSU', 'TRD');
  }

  // Transport events: departure from each load port and arrival at each discharge port.
  const transport = (
    key: string,
    code: 'ARRI' | 'DEPA',
    leg: VesselLeg,
    call: CallTime,
    facility: Facility | null,
    planned: number,
    actual: number,
    changes: { at: number; time: number; facility: Facility | null; remark?: string }[],
    actualFacility: Facility | null,
  ): void => {
    const fields = (f: Facility | null, remark?: string): Record<string, unknown> => ({
      transportEventTypeCode: code,
      ...(remark ? { changeRemark: remark } : {}),
      transportCall: vesselCall(leg, call, f),
      documentReferences: documentReferences(s),
    });
    push(`${key}-pln`, s.bookingConfirmedAt, planned, 'TRANSPORT', code, 'PLN', fields(facility));
    for (const [i, c] of changes.entries()) {
      if (c.at < actual)
        push(
          `${key}-est${i}`,
          Math.max(c.at, s.bookingConfirmedAt),
          c.time,
          'TRANSPORT',
          code,
          'EST',
          fields(c.facility, c.remark),
        );
    }
    push(`${key}-act`, actual + lag(), actual, 'TRANSPORT', code, 'ACT', fields(actualFacility));
  };

  if (s.cancelledAt === null) {
    s.legs.forEach((leg, i) => {
      const last = i === s.legs.length - 1;
      const dischargeFacility = last ? s.podFacility : null;
      transport(
        `dep${i}`,
        'DEPA',
        leg,
        leg.load,
        null,
        leg.load.plannedDepart,
        leg.load.depart,
        [{ at: leg.load.depart - 2 * 86_400_000, time: leg.load.depart, facility: null }],
        null,
      );
      // The line re-estimates the arrival once the vessel sails, with a slip it already knows of
      // (one that began at or before the load port), so no estimate is already behind the vessel.
      const sailedAt = leg.load.depart + lag();
      const slipKnownAtSailing =
        leg.discharge.slipKnownAt !== null && leg.discharge.slipKnownAt <= sailedAt;
      const arrivalChanges: {
        at: number;
        time: number;
        facility: Facility | null;
        remark?: string;
      }[] = [
        {
          at: sailedAt,
          time: slipKnownAtSailing ? leg.discharge.arrive : leg.discharge.plannedArrive,
          facility: dischargeFacility,
        },
      ];
      if (leg.discharge.slipKnownAt !== null && !slipKnownAtSailing) {
        arrivalChanges.push({
          at: leg.discharge.slipKnownAt,
          time: leg.discharge.arrive,
          facility: dischargeFacility,
          remark: 'Port congestion',
        });
      }
      if (last && s.podFacilityChange) {
        const t = arrivalChanges[arrivalChanges.length - 1]!;
        arrivalChanges.push({
          at: s.podFacilityChange.at,
          time: t.time,
          facility: s.podFacilityChange.to,
          remark: 'Discharge terminal changed',
        });
      }
      arrivalChanges.sort((a, b) => a.at - b.at);
      // Plans and estimates name the expected discharge terminal; the actual arrival is at the
      // port (no facility), followed by the arrival at the terminal berth (facility-level).
      transport(
        `arr${i}`,
        'ARRI',
        leg,
        leg.discharge,
        dischargeFacility,
        leg.discharge.plannedArrive,
        leg.discharge.arrive,
        arrivalChanges,
        null,
      );
      if (last) {
        const berthedAt = Math.min(...s.containers.map((c) => c.berthedAt));
        const finalFacility = podFacilityAt(s, Infinity);
        push(`berth${i}-act`, berthedAt + lag(), berthedAt, 'TRANSPORT', 'ARRI', 'ACT', {
          transportEventTypeCode: 'ARRI',
          transportCall: vesselCall(leg, leg.discharge, finalFacility),
          documentReferences: documentReferences(s),
        });
      }
    });
  }

  // Equipment events for each box.
  for (const c of s.containers) equipmentEvents(s, c, push, lag);
  return out.sort((a, b) => a.createdAt - b.createdAt);
}

type Push = (
  key: string,
  createdAt: number,
  eventDateTime: number,
  eventType: DcsaEventType,
  typeCode: string,
  classifier: 'ACT' | 'PLN' | 'EST',
  fields: Record<string, unknown>,
  equipmentReference?: string | null,
) => void;

function equipmentEvents(s: ShipmentPlan, c: ContainerPlan, push: Push, lag: () => number): void {
  const eq = (
    key: string,
    at: number,
    code: string,
    empty: boolean,
    call: Record<string, unknown>,
  ): void =>
    push(
      `${c.number}:${key}`,
      at + lag(),
      at,
      'EQUIPMENT',
      code,
      'ACT',
      {
        equipmentEventTypeCode: code,
        equipmentReference: c.number,
        ISOEquipmentCode: c.isoCode,
        emptyIndicatorCode: empty ? 'EMPTY' : 'LADEN',
        ...(!empty && c.sealNumber
          ? { seals: [{ sealNumber: c.sealNumber, sealSource: 'CAR', sealType: 'BLT' }] }
          : {}),
        transportCall: call,
        documentReferences: documentReferences(s),
      },
      c.number,
    );
  const depot = (locode: string, key: string): Record<string, unknown> =>
    landCall(`${locode}-DEPOT-${c.number}-${key}`, locode, 'TRUCK', null, 'DEPO');

  eq('empty-out', c.emptyOutAt, 'GTOT', true, depot(s.pol, 'out'));
  if (s.cancelledAt !== null) {
    eq('empty-in', c.emptyReturnedAt, 'GTIN', true, depot(c.emptyReturnLocode, 'in'));
    return;
  }
  const first = s.legs[0]!;
  const lastLeg = s.legs[s.legs.length - 1]!;
  eq(
    'full-in',
    c.fullInAt,
    'GTIN',
    false,
    landCall(`${s.pol}-GATE-${c.number}`, s.pol, 'TRUCK', null, 'POTE'),
  );
  eq('load', c.loadedAt, 'LOAD', false, vesselCall(first, first.load, null));
  c.transshipments.forEach((t, i) => {
    const inbound = s.legs[i]!;
    const outbound = s.legs[i + 1]!;
    eq(`ts${i}-disc`, t.dischargedAt, 'DISC', false, vesselCall(inbound, inbound.discharge, null));
    eq(`ts${i}-load`, t.loadedAt, 'LOAD', false, vesselCall(outbound, outbound.load, null));
  });
  const facility = podFacilityAt(s, Infinity);
  eq('disc', c.dischargedAt, 'DISC', false, vesselCall(lastLeg, lastLeg.discharge, facility));
  if (c.rail) {
    const r = c.rail;
    const railCall = (locode: string, f: Facility | null, key: string): Record<string, unknown> =>
      landCall(`${r.trainId}-${locode}-${key}`, locode, 'RAIL', f);
    eq('rail-load', r.loadedAt, 'LOAD', false, railCall(s.pod, facility, 'o'));
    eq('rail-disc', r.unloadedAt, 'DISC', false, railCall(r.metro.locode, r.facility, 'd'));
    push(`${c.number}:rail-dep`, r.departedAt + lag(), r.departedAt, 'TRANSPORT', 'DEPA', 'ACT', {
      transportEventTypeCode: 'DEPA',
      transportCall: railCall(s.pod, facility, 'o'),
      documentReferences: documentReferences(s),
    });
    push(
      `${c.number}:rail-arr-est`,
      r.departedAt + lag(),
      r.arrivedAt,
      'TRANSPORT',
      'ARRI',
      'EST',
      {
        transportEventTypeCode: 'ARRI',
        transportCall: railCall(r.metro.locode, r.facility, 'd'),
        documentReferences: documentReferences(s),
      },
    );
    push(`${c.number}:rail-arr`, r.arrivedAt + lag(), r.arrivedAt, 'TRANSPORT', 'ARRI', 'ACT', {
      transportEventTypeCode: 'ARRI',
      transportCall: railCall(r.metro.locode, r.facility, 'd'),
      documentReferences: documentReferences(s),
    });
    eq(
      'full-out',
      c.fullOutAt,
      'GTOT',
      false,
      landCall(`${r.metro.locode}-GATE-${c.number}`, r.metro.locode, 'TRUCK', r.facility),
    );
  } else {
    eq(
      'full-out',
      c.fullOutAt,
      'GTOT',
      false,
      landCall(`${s.pod}-GATE-${c.number}`, s.pod, 'TRUCK', facility),
    );
  }
  eq('empty-in', c.emptyReturnedAt, 'GTIN', true, depot(c.emptyReturnLocode, 'in'));
}

/**
 * Every line's events over the shipments the world knows at a given instant. Each shipment's
 * events are built once and kept while the shipment is in the world; a line's merged list is
 * rebuilt only when its set of shipments changes (a booking arrives or an old one is retired).
 */
export class CarrierEventLog {
  private readonly byShipment = new WeakMap<ShipmentPlan, DcsaEventRecord[]>();
  private readonly byScac = new Map<
    string,
    { shipments: ShipmentPlan[]; events: DcsaEventRecord[] }
  >();

  constructor(
    private readonly world: {
      seed: number;
      shipmentsOf(scac: string, at: number): ShipmentPlan[];
    },
  ) {}

  /** The line's events (created or not yet) of shipments known at `at`, by creation time. */
  eventsOf(scac: string, at: number): DcsaEventRecord[] {
    const shipments = this.world.shipmentsOf(scac, at);
    const cached = this.byScac.get(scac);
    if (
      cached &&
      cached.shipments.length === shipments.length &&
      cached.shipments.every((s, i) => s === shipments[i])
    )
      return cached.events;
    const events = shipments
      .flatMap((s) => {
        let list = this.byShipment.get(s);
        if (!list) {
          list = buildEvents(s, this.world.seed);
          this.byShipment.set(s, list);
        }
        return list;
      })
      .sort((a, b) => a.createdAt - b.createdAt);
    this.byScac.set(scac, { shipments, events });
    return events;
  }
}
