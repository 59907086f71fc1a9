/**
 * The simulated outside world: liner services moving vessels along real sea lanes, and the
 * shipments and boxes riding them. Deterministic from a seed; every answer is a pure function of
 * the plan and an instant, so the protocol faces can ask "what is true now" with any clock.
 */
import { Rng } from '../prng';
import { line } from '../reference';
import { DAY, HOUR } from '../time';
import { buildShipments } from './build';
import type { ContainerPlan, ShipmentPlan, Stage } from './plan';
import { BookingStream, isRetired, lastLiveAt, type LiveSpan } from './stream';
import { Service, SERVICE_SPECS, type VesselState } from './services';
import type { VesselRecord } from '../../shared/reference-data';

export interface TrackableNumber {
  request_type: 'bill_of_lading' | 'booking_number' | 'container';
  request_number: string;
  scac: string;
  story: string;
}

export interface ContainerStory {
  number: string;
  scac: string;
  billOfLading: string;
  booking: string;
  story: string;
  stage: Stage;
  shipment: ShipmentPlan;
  container: ContainerPlan;
}

/** Worlds are laid out relative to this many days before their origin. */
const ANCHOR_DAYS = 400;

/** A booking the world received, as a tracking request for it would name it. */
export interface NewBooking {
  request_type: 'booking_number';
  request_number: string;
  scac: string;
  /**
   * When the line first has equipment on the booking (its first empty went out): from then on a
   * tracking request for the number finds containers instead of waiting for a manifest.
   */
  trackableFrom: number;
  customer: string;
  references: string[];
}

export class World {
  readonly services: Service[];
  /** The opening scenarios laid out around the origin (what `sim list` prints). */
  readonly shipments: ShipmentPlan[];
  private readonly stream: BookingStream;
  private readonly byContainer = new Map<
    string,
    { shipment: ShipmentPlan; container: ContainerPlan }
  >();
  /** The last answer of shipmentsAt, and the instants it holds for (see LiveSpan). */
  private live: (LiveSpan & { from: number }) | null = null;
  private liveByContainer = new Map<string, { shipment: ShipmentPlan; container: ContainerPlan }>();

  /**
   * @param seed  any integer; the same seed gives the same world
   * @param origin  the instant (epoch ms, rounded down to the hour) the scenarios are placed around
   */
  constructor(
    readonly seed: number,
    readonly origin: number,
  ) {
    const anchor = origin - ANCHOR_DAYS * DAY;
    this.services = SERVICE_SPECS.map((spec) => new Service(spec, anchor, seed));
    this.shipments = buildShipments({ seed, origin, services: this.services });
    for (const shipment of this.shipments) {
      for (const container of shipment.containers)
        this.byContainer.set(container.number, { shipment, container });
    }
    const taken = new Set<string>(this.byContainer.keys());
    for (const s of this.shipments) taken.add(s.billOfLading).add(s.booking);
    this.stream = new BookingStream({ seed, origin, services: this.services }, taken);
  }

  /**
   * Every shipment the lines know of at `at`: the opening scenarios and the bookings received
   * since, less those finished more than the retention window ago. Ordered by booking.
   */
  shipmentsAt(at: number): ShipmentPlan[] {
    // Every request of the protocol faces asks at a new instant; the answer changes only when a
    // booking is received or a shipment retires.
    const live = this.live;
    if (live && at >= live.from && at < live.until && at <= live.through) return live.shipments;
    const span = this.stream.liveSpan(at);
    const opening = this.shipments.filter((s) => !isRetired(s, at));
    const through = opening.reduce((min, s) => Math.min(min, lastLiveAt(s)), span.through);
    const shipments = [...opening, ...span.shipments];
    this.liveByContainer = new Map();
    for (const shipment of shipments)
      for (const container of shipment.containers)
        if (!this.liveByContainer.has(container.number))
          this.liveByContainer.set(container.number, { shipment, container });
    this.live = { from: at, until: span.until, through, shipments };
    return shipments;
  }

  /**
   * Bookings that became trackable (see `NewBooking.trackableFrom`) in `(from, to]`, oldest
   * first: what a customer of the world would start tracking. Only the stream's bookings; the
   * opening scenarios are in `demoTrackingRequests`.
   */
  bookingsTrackableBetween(from: number, to: number): NewBooking[] {
    return this.stream
      .liveAt(to)
      .map((s) => ({ s, at: trackableFrom(s) }))
      .filter(({ at }) => at > from && at <= to)
      .sort((a, b) => a.at - b.at || a.s.index - b.s.index)
      .map(({ s, at }) => ({
        request_type: 'booking_number',
        request_number: s.booking,
        scac: s.scac,
        trackableFrom: at,
        customer: s.customer,
        references: s.references,
      }));
  }

  /** How many of the stream's daily cohorts are held in memory. */
  get heldCohorts(): number {
    return this.stream.heldCohorts;
  }

  static originFor(now: number): number {
    return Math.floor(now / HOUR) * HOUR;
  }

  /** The box with this number among the shipments known at `at`. */
  findContainer(
    number: string,
    at: number,
  ): { shipment: ShipmentPlan; container: ContainerPlan } | undefined {
    this.shipmentsAt(at);
    return this.liveByContainer.get(number);
  }

  shipmentsOf(scac: string, at: number): ShipmentPlan[] {
    return this.shipmentsAt(at).filter((s) => s.scac === scac);
  }

  containerStory(number: string, at: number): ContainerStory | undefined {
    const hit = this.findContainer(number, at);
    if (!hit) return undefined;
    return {
      number,
      scac: hit.shipment.scac,
      billOfLading: hit.shipment.billOfLading,
      booking: hit.shipment.booking,
      story: hit.shipment.story,
      stage: stageAt(hit.shipment, hit.container, at),
      shipment: hit.shipment,
      container: hit.container,
    };
  }

  /** Every vessel of every service with where it is at `at`. */
  vessels(
    at: number,
  ): { vessel: VesselRecord; serviceCode: string; operatorScac: string; state: VesselState }[] {
    return this.services.flatMap((s) =>
      s.vessels.map((vessel, i) => ({
        vessel,
        serviceCode: s.code,
        operatorScac: s.spec.scac,
        state: s.state(i, at),
      })),
    );
  }

  trackableNumbers(): TrackableNumber[] {
    const out: TrackableNumber[] = [];
    for (const s of this.shipments) {
      out.push({
        request_type: 'bill_of_lading',
        request_number: s.billOfLading,
        scac: s.scac,
        story: s.story,
      });
      out.push({
        request_type: 'booking_number',
        request_number: s.booking,
        scac: s.scac,
        story: s.story,
      });
      // Container numbers only for a line tracked by them (the reference data says which).
      if (!line(s.scac).tracks_by.includes('container')) continue;
      for (const c of s.containers) {
        out.push({
          request_type: 'container',
          request_number: c.number,
          scac: s.scac,
          story: s.story,
        });
      }
    }
    return out;
  }

  /**
   * About 25 tracking requests at varied stages for seeding a demo account: one or two of each
   * scenario, alternating between BL, booking and container numbers.
   */
  demoTrackingRequests(): {
    request_type: TrackableNumber['request_type'];
    request_number: string;
    scac: string;
    /** The customer the shipment is for, and its purchase-order numbers. */
    customer: string;
    references: string[];
  }[] {
    const rng = new Rng(`${this.seed}:demo`);
    const byKind = new Map<string, ShipmentPlan[]>();
    for (const s of this.shipments) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
    // One shipment of every scenario first, then a second of each until there are 25.
    const lists = [...byKind.values()];
    const chosen = [...lists.map((l) => l[0]!), ...lists.flatMap((l) => l.slice(1, 2))].slice(
      0,
      25,
    );
    return chosen.map((s, i) => {
      const kind = i % 3;
      const forWhom = { customer: s.customer, references: s.references };
      if (kind === 0 || s.kind === 'bl_unknown')
        return {
          request_type: 'bill_of_lading',
          request_number: s.billOfLading,
          scac: s.scac,
          ...forWhom,
        };
      if (kind === 1 || s.kind === 'booking_cancelled')
        return {
          request_type: 'booking_number',
          request_number: s.booking,
          scac: s.scac,
          ...forWhom,
        };
      return {
        request_type: 'container',
        request_number: rng.pick(s.containers).number,
        scac: s.scac,
        ...forWhom,
      };
    });
  }
}

/** The first empty out, plus the hour a line takes at most to publish it. */
function trackableFrom(s: ShipmentPlan): number {
  return Math.min(...s.containers.map((c) => c.emptyOutAt)) + HOUR;
}

/** Where a container is at instant `at`. */
export function stageAt(shipment: ShipmentPlan, c: ContainerPlan, at: number): Stage {
  if (shipment.cancelledAt !== null) {
    if (at >= c.emptyReturnedAt) return 'cancelled';
    if (at >= c.emptyOutAt) return 'empty_out';
    return at >= shipment.cancelledAt ? 'cancelled' : 'booked';
  }
  if (at >= c.emptyReturnedAt) return 'returned';
  if (at >= c.fullOutAt) return 'picked_up';
  if (c.rail) {
    if (at >= c.rail.availableAt) return 'available_at_ramp';
    if (at >= c.rail.unloadedAt) return 'at_ramp';
    if (at >= c.rail.loadedAt) return 'on_rail';
  }
  if (at >= c.availableAt && !c.rail) return 'available';
  if (at >= c.dischargedAt) return 'discharged';
  const lastLeg = shipment.legs[shipment.legs.length - 1]!;
  if (at >= c.berthedAt) return 'berthed';
  if (at >= lastLeg.discharge.arrive) return 'arrived';
  for (const t of c.transshipments)
    if (at >= t.dischargedAt && at < t.loadedAt) return 'transshipment';
  if (at >= shipment.legs[0]!.load.depart) return 'at_sea';
  if (at >= c.loadedAt) return 'loaded';
  if (at >= c.fullInAt) return 'full_in';
  if (at >= c.emptyOutAt) return 'empty_out';
  return 'booked';
}
