/** The plan of every shipment in the world: what happens to each box and when. */
import type {
  MetroAreaRecord,
  RailTerminalRecord,
  VesselRecord,
} from '../../shared/reference-data';
import type { CallTime } from './services';

export type ScenarioKind =
  | 'lifecycle'
  | 'at_sea'
  | 'arriving'
  | 'transshipment'
  | 'eta_slip'
  | 'terminal_change'
  | 'bl_unknown'
  | 'discharged_holds'
  | 'available_lfd_tomorrow'
  | 'lfd_moved'
  | 'demurrage'
  | 'on_rail'
  | 'at_ramp'
  | 'picked_up'
  | 'returned'
  | 'booking_cancelled';

/** Where a container is in its journey at a given instant. */
export type Stage =
  | 'booked'
  | 'cancelled'
  | 'empty_out'
  | 'full_in'
  | 'loaded'
  | 'at_sea'
  | 'transshipment'
  | 'arrived'
  | 'berthed'
  | 'discharged'
  | 'available'
  | 'on_rail'
  | 'at_ramp'
  | 'available_at_ramp'
  | 'picked_up'
  | 'returned';

export interface Facility {
  kind: 'terminal' | 'rail_terminal';
  firms_code: string | null;
  smdg_code: string | null;
  name: string;
  locode: string;
  time_zone: string;
}

export interface HoldPlan {
  name: 'customs' | 'freight' | 'usda' | 'vacis' | 'tmf' | 'other';
  description: string | null;
  pendingFrom: number;
  holdFrom: number;
  releasedAt: number;
}

/** A last free day as first set and as later moved. */
export interface LfdPlan {
  setAt: number;
  lfd: number;
  moves: { at: number; lfd: number }[];
}

export interface VesselLeg {
  serviceCode: string;
  vessel: VesselRecord;
  operatorScac: string;
  load: CallTime;
  discharge: CallTime;
  /** Every call from load to discharge, both included. */
  calls: CallTime[];
}

export interface RailPlan {
  ramp: RailTerminalRecord;
  metro: MetroAreaRecord;
  facility: Facility;
  loadedAt: number;
  departedAt: number;
  arrivedAt: number;
  unloadedAt: number;
  availableAt: number;
  lfd: LfdPlan;
  trainId: string;
}

/** What an ISO 6346 size-type code (e.g. 45G1) says about a box. */
export interface Equipment {
  lengthFt: 20 | 40 | 45;
  height: 'standard' | 'high_cube';
  type: 'dry' | 'reefer';
}

export function equipmentOf(isoCode: string): Equipment {
  const lengthFt = isoCode[0] === '2' ? 20 : isoCode[0] === 'L' ? 45 : 40;
  return {
    lengthFt,
    height: isoCode[1] === '5' ? 'high_cube' : 'standard',
    type: isoCode[2] === 'R' ? 'reefer' : 'dry',
  };
}

export function describeEquipment(isoCode: string): string {
  const e = equipmentOf(isoCode);
  return `${e.lengthFt}' ${e.height === 'high_cube' ? 'high cube ' : ''}${e.type}`;
}

export interface ContainerPlan {
  number: string;
  /** ISO 6346 size-type code, as DCSA's ISOEquipmentCode. */
  isoCode: string;
  /** The carrier seal put on the box when it is stuffed (null for a box that never shipped). */
  sealNumber: string | null;
  emptyOutAt: number;
  fullInAt: number;
  loadedAt: number;
  /** Discharge and reload at each transshipment port, in order. */
  transshipments: { locode: string; dischargedAt: number; loadedAt: number }[];
  berthedAt: number;
  dischargedAt: number;
  terminalKnownFrom: number;
  availableAt: number;
  holds: HoldPlan[];
  terminalLfd: LfdPlan;
  lineLfd: LfdPlan | null;
  rail: RailPlan | null;
  appointment: { setAt: number; at: number } | null;
  fullOutAt: number;
  chassisNumber: string;
  emptyReturnedAt: number;
  emptyReturnLocode: string;
  yardLocation: string;
}

export interface ShipmentPlan {
  index: number;
  kind: ScenarioKind;
  scac: string;
  story: string;
  billOfLading: string;
  booking: string;
  bookingReceivedAt: number;
  bookingConfirmedAt: number;
  blIssuedAt: number;
  /** Before this instant the line answers queries by BL number with nothing. */
  blKnownFrom: number;
  cancelledAt: number | null;
  pol: string;
  pod: string;
  destination: string | null;
  legs: VesselLeg[];
  podFacility: Facility;
  podFacilityChange: { at: number; to: Facility } | null;
  containers: ContainerPlan[];
  /** The importer of record (an invented name). */
  customer: string;
  /** The customer's purchase-order numbers for the goods in the boxes. */
  references: string[];
}
