/**
 * The simulated outside world, reachable only over real protocols: carriers (DCSA Track & Trace
 * 2.2 over HTTP, plus the line-deadlines extension), AIS (NMEA 0183 over TCP) and terminals
 * (the terminal feed contract over HTTP). Everything is deterministic from the seed and runs on an
 * injected clock (ScaledClock for `--sim-speed`, ManualClock in tests).
 */
import type { Clock } from '../shared/clock';
import type { TerminalContainerStatus } from '../shared/feeds/terminal';
import { startAisServer, type AisFaults } from './ais/server';
import type { SimTokenIssuer } from './carriers/auth';
import { startCarrierServer } from './carriers/server';
import type { SimSubscriptions } from './carriers/subscriptions';
import type { ErrorRates } from './faults';
import { terminalStatusAt } from './terminals/status';
import { startTerminalServer } from './terminals/server';
import { World, type ContainerStory, type NewBooking, type TrackableNumber } from './world/world';
import type { VesselRecord } from '../shared/reference-data';
import type { VesselState } from './world/services';

export type { ErrorRates } from './faults';
export type { TrackableNumber, ContainerStory, NewBooking } from './world/world';
export { World } from './world/world';

/** Fixed origin used when only the numbers of a seed are wanted (they do not depend on it). */
const LISTING_ORIGIN = Date.UTC(2026, 0, 1);

/** Every BL, booking and container number of a seed's world, with its SCAC and a one-line story. */
export function listTrackableNumbers(seed: number): TrackableNumber[] {
  return new World(seed, LISTING_ORIGIN).trackableNumbers();
}

/** About 25 tracking requests at varied stages, for seeding a demo account. */
export function demoTrackingRequests(seed: number): {
  request_type: 'bill_of_lading' | 'booking_number' | 'container';
  request_number: string;
  scac: string;
}[] {
  return demoShipments(seed).map(({ request_type, request_number, scac }) => ({
    request_type,
    request_number,
    scac,
  }));
}

/** The same requests with the invented customer each shipment is for and its PO numbers. */
export function demoShipments(seed: number): ReturnType<World['demoTrackingRequests']> {
  return new World(seed, LISTING_ORIGIN).demoTrackingRequests();
}

/** The world as seen at the clock's current time. */
export class SimWorld {
  constructor(
    readonly model: World,
    readonly clock: Clock,
  ) {}

  get seed(): number {
    return this.model.seed;
  }

  containerStory(number: string): ContainerStory | undefined {
    return this.model.containerStory(number, this.clock.now());
  }

  terminalStatus(number: string): TerminalContainerStatus | null {
    const now = this.clock.now();
    const hit = this.model.findContainer(number, now);
    return hit ? terminalStatusAt(hit.shipment, hit.container, now) : null;
  }

  vessels(): {
    vessel: VesselRecord;
    serviceCode: string;
    operatorScac: string;
    state: VesselState;
  }[] {
    return this.model.vessels(this.clock.now());
  }

  trackableNumbers(): TrackableNumber[] {
    return this.model.trackableNumbers();
  }

  demoTrackingRequests(): ReturnType<World['demoTrackingRequests']> {
    return this.model.demoTrackingRequests();
  }
}

/** On a world's first start, bookings trackable this long before its origin are followed too. */
export const FIRST_START_LOOKBACK_MS = 21 * 24 * 60 * 60 * 1000;
/** How often (real time) the follower asks the world for new bookings. */
const FOLLOW_POLL_MS = 1_000;

export interface BookingFollower {
  /** Simulated time up to which every booking has been handed to `track`. */
  readonly upTo: number;
  /** Stops polling and waits for a hand-over in progress. */
  stop(): Promise<void>;
}

/**
 * Hands every booking that becomes trackable after `since` to `track`, oldest first, as the
 * world's clock reaches it: how the embedded composition keeps tracking the living world through
 * the service's normal tracking-request path. A failed hand-over is retried on the next poll
 * (so `track` should ignore a booking it already tracks).
 */
export function followNewBookings(
  world: SimWorld,
  opts: {
    since: number;
    track: (booking: NewBooking) => Promise<void>;
    onError?: (err: unknown) => void;
    pollMs?: number;
  },
): BookingFollower {
  let upTo = opts.since;
  let running: Promise<void> | null = null;
  const poll = async (): Promise<void> => {
    const now = world.clock.now();
    for (const booking of world.model.bookingsTrackableBetween(upTo, now)) {
      await opts.track(booking);
      upTo = booking.trackableFrom;
    }
    upTo = Math.max(upTo, now);
  };
  const timer = setInterval(() => {
    if (running) return;
    running = poll()
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => {
        running = null;
      });
  }, opts.pollMs ?? FOLLOW_POLL_MS);
  timer.unref();
  return {
    get upTo() {
      return upTo;
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

export interface StartSimWorldOptions {
  seed: number;
  clock: Clock;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Fault injection on the carrier and terminal HTTP faces. */
  errorRates?: ErrorRates;
  /** Damage on the AIS stream; realistic defaults when omitted. */
  aisFaults?: AisFaults;
  /** When set, the HTTP faces require `Authorization: Bearer <token>`. */
  authToken?: string;
  /** Each simulated carrier requires its own credentials (OAuth2, API-key header or bearer). */
  carrierAuth?: boolean;
  /** Real seconds a simulated carrier's OAuth2 token stays valid. */
  tokenLifetimeSeconds?: number;
  ports?: { carriers?: number; ais?: number; terminal?: number };
  /**
   * The instant the world's scenarios are placed around; by default the clock's current hour.
   * Pass the origin of an earlier run to continue that same world after a restart.
   */
  origin?: number;
}

export interface RunningSimWorld {
  carriers: Record<string, { dcsaBaseUrl: string }>;
  ais: { host: string; port: number };
  terminal: { baseUrl: string };
  world: SimWorld;
  /**
   * A feeds document (the shape of a user's feeds.yaml once parsed) pointing at this world's
   * loopback servers with the credentials they require; load it with `parseFeedsConfig`.
   */
  feedsDocument(): Record<string, unknown>;
  /** The carriers' OAuth2 token issuer, for tests that expire or revoke tokens. */
  carrierTokens: SimTokenIssuer;
  /** Pushes due DCSA subscription callbacks now (they also go out every real second). */
  pushCarrierSubscriptions(): Promise<number>;
  /** The subscriptions the simulated carriers hold, for tests. */
  carrierSubscriptions: SimSubscriptions;
  close(): Promise<void>;
}

export async function startSimWorld(opts: StartSimWorldOptions): Promise<RunningSimWorld> {
  const host = opts.host ?? '127.0.0.1';
  const model = new World(opts.seed, opts.origin ?? World.originFor(opts.clock.now()));
  const common = { world: model, clock: opts.clock, host };
  const carriers = await startCarrierServer({
    ...common,
    port: opts.ports?.carriers,
    errorRates: opts.errorRates,
    authToken: opts.authToken,
    carrierAuth: opts.carrierAuth,
    tokenLifetimeSeconds: opts.tokenLifetimeSeconds,
  });
  const terminal = await startTerminalServer({
    ...common,
    port: opts.ports?.terminal,
    errorRates: opts.errorRates,
    authToken: opts.authToken,
  }).catch(async (err: unknown) => {
    await carriers.close();
    throw err;
  });
  const ais = await startAisServer({
    ...common,
    port: opts.ports?.ais,
    faults: opts.aisFaults,
  }).catch(async (err: unknown) => {
    await Promise.all([carriers.close(), terminal.close()]);
    throw err;
  });
  return {
    carriers: carriers.carriers,
    ais: { host, port: ais.port },
    terminal: { baseUrl: terminal.baseUrl },
    world: new SimWorld(model, opts.clock),
    carrierTokens: carriers.tokens,
    pushCarrierSubscriptions: carriers.pushSubscriptions,
    carrierSubscriptions: carriers.subscriptions,
    feedsDocument: () => ({
      ...carriers.feedsDocument(),
      ais: [{ type: 'nmea_tcp', host, port: ais.port }],
      terminals: {
        sim: {
          url: terminal.baseUrl,
          ...(opts.authToken ? { auth: { type: 'bearer', token: opts.authToken } } : {}),
        },
      },
    }),
    close: async () => {
      await Promise.all([carriers.close(), terminal.close(), ais.close()]);
    },
  };
}
