/**
 * The stages a dispatcher watches, as the world's plans put each box in them. The booking stream
 * keeps every one of these populated; tests and `sim` tooling count boxes by them.
 */
import { podFacilityAt } from '../carriers/events';
import { lfdAt } from '../terminals/status';
import { DAY, localMidnight } from '../time';
import type { ContainerPlan, ShipmentPlan } from './plan';
import { stageAt } from './world';

export const DEMO_STAGES = [
  'at_sea',
  'arriving',
  'held',
  'lfd_tomorrow',
  'on_rail',
  'picked_up',
  'returned',
] as const;
export type DemoStage = (typeof DEMO_STAGES)[number];

/** A box is "arriving" while its vessel is this close to the port of discharge, until discharge. */
export const ARRIVING_WITHIN_MS = 2 * DAY;

/** The watched stage of a box at `at`, or null when it is in none (booked, loading, available). */
export function demoStageAt(s: ShipmentPlan, c: ContainerPlan, at: number): DemoStage | null {
  const stage = stageAt(s, c, at);
  switch (stage) {
    case 'returned':
    case 'picked_up':
    case 'on_rail':
      return stage;
    case 'arrived':
    case 'berthed':
      return 'arriving';
    case 'at_sea':
    case 'transshipment': {
      const arrive = s.legs[s.legs.length - 1]!.discharge.arrive;
      return arrive - at <= ARRIVING_WITHIN_MS ? 'arriving' : 'at_sea';
    }
    case 'discharged':
    case 'available':
    case 'available_at_ramp': {
      if (
        stage !== 'available_at_ramp' &&
        c.holds.some((h) => at >= h.holdFrom && at < h.releasedAt)
      )
        return 'held';
      if (stage === 'discharged') return null;
      // The earliest deadline in force is the one a dispatcher watches: the ramp's for a box at
      // the ramp; the terminal's or the line's (both at the port) for a box at the terminal.
      const atRamp = stage === 'available_at_ramp';
      const deadlines = (atRamp ? [c.rail!.lfd] : [c.terminalLfd, c.lineLfd])
        .map((plan) => (plan ? lfdAt(plan, at) : null))
        .filter((lfd): lfd is number => lfd !== null);
      if (deadlines.length === 0) return null;
      const zone = atRamp ? c.rail!.facility.time_zone : podFacilityAt(s, at).time_zone;
      return Math.min(...deadlines) === localMidnight(zone, at, 1) ? 'lfd_tomorrow' : null;
    }
    default:
      return null;
  }
}
