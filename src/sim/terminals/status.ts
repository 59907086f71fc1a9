/** What a marine terminal or rail ramp reports about a box at a given instant. */
import type {
  TerminalContainerStatus,
  TerminalFee,
  TerminalHold,
} from '../../shared/feeds/terminal';
import { isoString } from '../../shared/clock';
import { podFacilityAt } from '../carriers/events';
import { DAY } from '../time';
import type { ContainerPlan, LfdPlan, ShipmentPlan } from '../world/plan';

/** The last free day in force at `at` (null before it is first set). */
export function lfdAt(plan: LfdPlan, at: number): number | null {
  if (!(at >= plan.setAt)) return null;
  let lfd = plan.lfd;
  for (const m of plan.moves) if (at >= m.at) lfd = m.lfd;
  return lfd;
}

const iso = (t: number, at: number): string | null =>
  at >= t && Number.isFinite(t) ? isoString(t) : null;

/**
 * Demurrage grows by the day once the last free day has ended: 150 USD a day for four days, then
 * 300 USD a day. It stops growing when the box leaves.
 */
export function demurrageUsd(lfd: number | null, at: number, outAt: number): number {
  if (lfd === null) return 0;
  const freeEnds = lfd + DAY;
  const until = Math.min(at, outAt);
  if (until <= freeEnds) return 0;
  const days = Math.ceil((until - freeEnds) / DAY);
  return Math.min(days, 4) * 150 + Math.max(0, days - 4) * 300;
}

function feesFor(
  c: ContainerPlan,
  lfd: number | null,
  at: number,
  since: number,
  outAt: number,
  withExams: boolean,
): TerminalFee[] {
  const fees: TerminalFee[] = [];
  const demurrage = demurrageUsd(lfd, at, outAt);
  if (demurrage > 0) fees.push({ type: 'demurrage', amount: demurrage, currency_code: 'USD' });
  if (withExams) {
    const exam = c.holds
      .filter((h) => (h.name === 'vacis' || h.name === 'usda') && at >= h.holdFrom)
      .reduce((sum, h) => sum + (h.name === 'vacis' ? 350 : 275), 0);
    if (exam > 0) fees.push({ type: 'exam', amount: exam, currency_code: 'USD' });
  }
  // Extended dwell: 75 USD a day beyond seven days on the facility.
  const dwellDays = Math.floor((Math.min(at, outAt) - since) / DAY);
  if (dwellDays > 7)
    fees.push({ type: 'extended_dwell_time', amount: (dwellDays - 7) * 75, currency_code: 'USD' });
  if (fees.length)
    fees.push({
      type: 'total',
      amount: fees.reduce((s, f) => s + f.amount, 0),
      currency_code: 'USD',
    });
  return fees;
}

function holdsAt(c: ContainerPlan, at: number): TerminalHold[] {
  return c.holds
    .filter((h) => at >= h.pendingFrom)
    .map((h) => ({
      name: h.name,
      status: at >= h.releasedAt ? 'released' : at >= h.holdFrom ? 'hold' : 'pending',
      description: h.description,
    }));
}

/**
 * The status the facility holding the box reports at `at`, or null when no facility knows it
 * (not yet pre-advised, or a booking that never shipped). The facility is the discharge terminal
 * until the box leaves on rail, then the inland ramp.
 */
export function terminalStatusAt(
  s: ShipmentPlan,
  c: ContainerPlan,
  at: number,
): TerminalContainerStatus | null {
  if (s.cancelledAt !== null) return null;
  const r = c.rail;
  if (r && at >= r.departedAt) {
    const lfd = lfdAt(r.lfd, at);
    return {
      container_number: c.number,
      facility: r.facility,
      checked_at: isoString(at),
      discharged_at: null,
      rail_unloaded_at: iso(r.unloadedAt, at),
      available_for_pickup: at >= r.availableAt && at < c.fullOutAt,
      holds: [],
      fees: at >= r.unloadedAt ? feesFor(c, lfd, at, r.unloadedAt, c.fullOutAt, false) : [],
      last_free_day: lfd === null ? null : isoString(lfd),
      pickup_appointment_at:
        c.appointment && at >= c.appointment.setAt ? isoString(c.appointment.at) : null,
      yard_location:
        at >= r.unloadedAt
          ? `Track ${(c.yardLocation.charCodeAt(0) % 9) + 1} / ${c.yardLocation}`
          : null,
      full_out_at: iso(c.fullOutAt, at),
      full_out_chassis_number: at >= c.fullOutAt ? c.chassisNumber : null,
      empty_returned_at: c.emptyReturnLocode === r.metro.locode ? iso(c.emptyReturnedAt, at) : null,
    };
  }
  if (at < c.terminalKnownFrom) return null;
  const facility = podFacilityAt(s, at);
  const lfd = r ? null : lfdAt(c.terminalLfd, at);
  const outAt = r ? r.departedAt : c.fullOutAt;
  return {
    container_number: c.number,
    facility,
    checked_at: isoString(at),
    discharged_at: iso(c.dischargedAt, at),
    rail_unloaded_at: null,
    available_for_pickup: !r && at >= c.availableAt && at < c.fullOutAt,
    holds: holdsAt(c, at),
    fees: at >= c.dischargedAt ? feesFor(c, lfd, at, c.dischargedAt, outAt, true) : [],
    last_free_day: lfd === null ? null : isoString(lfd),
    pickup_appointment_at:
      !r && c.appointment && at >= c.appointment.setAt ? isoString(c.appointment.at) : null,
    yard_location: at >= c.dischargedAt ? c.yardLocation : null,
    full_out_at: r ? null : iso(c.fullOutAt, at),
    full_out_chassis_number: !r && at >= c.fullOutAt ? c.chassisNumber : null,
    empty_returned_at: !r && c.emptyReturnLocode === s.pod ? iso(c.emptyReturnedAt, at) : null,
  };
}
