/**
 * The bookings a world keeps receiving after its opening scenarios, so that every stage of an
 * import (at sea, arriving, held, available with the last free day tomorrow, on rail, picked up,
 * returned) is present at any simulated time.
 *
 * The stream is a sequence of daily cohorts. Cohort `k` is a pure function of the seed, the
 * world's origin and `k`, so any cohort can be built on demand, dropped, and built again the same
 * after a restart. Each cohort plays three scenarios around its own target instant (one day after
 * the previous cohort's), chosen so that consecutive cohorts overlap in every stage:
 * - a box at a Pacific-zone terminal that is available all through the local day before its last
 *   free day (one zone, so that the local days of consecutive cohorts join without gaps);
 * - a box discharged just before the target and held until a day or more after it;
 * - a box on a train from about a day and a half before the target to half a day after it.
 * Before and after those moments each box also passes through booking, sea, arrival, pickup and
 * empty return, so the other stages fill up from the same cohorts.
 */
import { CONTAINER_NUMBER_SHAPE } from '../../shared/iso6346';
import { withSerialRemainder } from '../codes';
import { Rng } from '../prng';
import { port } from '../reference';
import { DAY, HOUR } from '../time';
import { buildShipment, type BuildContext } from './build';
import type { ScenarioKind, ShipmentPlan } from './plan';

/** A shipment stays in the world this long after its last box was returned (or cancelled). */
export const RETENTION_MS = 30 * DAY;
/** Bookings are received at most this long before their cohort's target instant. */
const BOOKING_LEAD_MS = 100 * DAY;
/** Every box of a cohort is returned at most this long after the cohort's target instant. */
const COMPLETION_MS = 25 * DAY;

const ROLES: { kind: ScenarioKind; story: string; podFilter?: (locode: string) => boolean }[] = [
  {
    kind: 'available_lfd_tomorrow',
    story: 'Import to a Pacific terminal',
    podFilter: (locode) => port(locode).time_zone === 'America/Los_Angeles',
  },
  { kind: 'discharged_holds', story: 'Import with holds' },
  { kind: 'on_rail', story: 'Import moving inland by rail' },
];

export class BookingStream {
  /** Target instant of cohort 0: 20:00 UTC of the origin's day (midday on the Pacific coast). */
  private readonly anchor: number;
  private readonly cohorts = new Map<number, ShipmentPlan[]>();

  constructor(
    private readonly ctx: BuildContext,
    /** Numbers of the opening scenarios, which the stream must not reuse. */
    private readonly taken: ReadonlySet<string>,
  ) {
    this.anchor = Math.floor(ctx.origin / DAY) * DAY + 20 * HOUR;
  }

  /**
   * Shipments whose booking was received by `at` and that are not yet retired (finished more
   * than the retention window ago). Cohorts outside the window are dropped from memory.
   */
  liveAt(at: number): ShipmentPlan[] {
    return this.liveSpan(at).shipments;
  }

  /** liveAt(at), with the instants until which it stays the same (see LiveSpan). */
  liveSpan(at: number): LiveSpan {
    const lo = Math.ceil((at - RETENTION_MS - COMPLETION_MS - this.anchor) / DAY);
    const hi = Math.floor((at + BOOKING_LEAD_MS - this.anchor) / DAY);
    for (const k of this.cohorts.keys()) if (k < lo - 1 || k > hi + 1) this.cohorts.delete(k);
    const span: LiveSpan = {
      shipments: [],
      // Cohorts past `hi` receive their bookings from here on (BOOKING_LEAD_MS before target).
      until: this.anchor + (hi + 1) * DAY - BOOKING_LEAD_MS,
      through: Infinity,
    };
    // Cohorts before `lo` are retired through and through: they never come back.
    for (let k = lo; k <= hi; k++) {
      for (const s of this.cohort(k)) {
        if (s.bookingReceivedAt > at) span.until = Math.min(span.until, s.bookingReceivedAt);
        else if (!isRetired(s, at)) {
          span.shipments.push(s);
          span.through = Math.min(span.through, lastLiveAt(s));
        }
      }
    }
    return span;
  }

  /** How many cohorts are held in memory (for tests of the working-set bound). */
  get heldCohorts(): number {
    return this.cohorts.size;
  }

  cohort(k: number): ShipmentPlan[] {
    let list = this.cohorts.get(k);
    if (list) return list;
    const target = this.anchor + k * DAY;
    const ctx = { ...this.ctx, origin: target };
    const tag = ((k % COHORT_TAGS) + COHORT_TAGS) % COHORT_TAGS;
    const used = new Set<string>();
    const unique = (make: () => string): string => {
      for (;;) {
        // Container serials carry the cohort (mod 997), so boxes of cohorts alive at the same
        // time never share a number, whichever cohorts happen to be built.
        let v = make();
        if (CONTAINER_NUMBER_SHAPE.test(v)) v = withSerialRemainder(v, COHORT_TAGS, tag);
        if (!used.has(v) && !this.taken.has(v)) {
          used.add(v);
          return v;
        }
      }
    };
    list = [];
    ROLES.forEach((role, r) => {
      const rng = new Rng(`${this.ctx.seed}:stream:${k}:${r}`);
      const index = STREAM_INDEX_BASE + (((k % 100_000) + 100_000) % 100_000) * ROLES.length + r;
      const plan = buildShipment(ctx, rng, role.kind, index, unique, {
        podFilter: role.podFilter,
        storyPrefix: role.story,
      });
      if (plan) list!.push(plan);
    });
    this.cohorts.set(k, list);
    return list;
  }
}

/** Cohorts whose boxes' serials differ in their remainder by this (a prime). */
const COHORT_TAGS = 997;
/** Indexes (which seed event ids) above those of the opening scenarios. */
const STREAM_INDEX_BASE = 10_000;

/** The instant the last box of a shipment was returned (or went back after a cancellation). */
export function finishedAt(s: ShipmentPlan): number {
  return Math.max(...s.containers.map((c) => c.emptyReturnedAt));
}

/** The last instant a shipment is in the world: its retention window after it finished. */
export function lastLiveAt(s: ShipmentPlan): number {
  return finishedAt(s) + RETENTION_MS;
}

export function isRetired(s: ShipmentPlan, at: number): boolean {
  return at > lastLiveAt(s);
}

/**
 * The shipments in the world at an instant, and how long they stay the same as time goes on:
 * from that instant up to (not including) `until`, when the next booking is received, and up
 * to (including) `through`, the last instant before one of them retires.
 */
export interface LiveSpan {
  shipments: ShipmentPlan[];
  until: number;
  through: number;
}
