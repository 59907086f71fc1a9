/**
 * DCSA event subscriptions (push) for carriers configured with `subscriptions: true`.
 *
 * - After a successful line lookup the engine calls `ensure`: one subscription per tracked
 *   shipment, with a callback URL on this service (`{callback base}/feeds/dcsa/callbacks/{id}`,
 *   `id` ours, never the carrier's) and a fresh secret, sealed at rest.
 * - The callback route (feeds/dcsa/callback.ts) verifies each delivery against `lookup`, then
 *   `receive` hands the events to the engine, which merges them into the shipment's last known
 *   events and applies them through the same path as a poll.
 * - While callbacks arrive, the line is polled only every `quietMs` as a safety net; once the
 *   subscription has been quiet that long, polling returns to its usual interval.
 * - When a shipment stops being tracked, its subscription is deleted at the carrier.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/clock';
import type { CarrierRegistry, DcsaEvent, DcsaQuery } from '../feeds';
import type { CallbackSubscription } from '../feeds/dcsa/callback';
import type { LineSubscriptionStore } from '../store/line-subscriptions';

/** Where the service answers subscription callbacks (no API key: carriers sign instead). */
export const CALLBACK_PATH = '/feeds/dcsa/callbacks';

export interface LineSubscriptionsOptions {
  registry: CarrierRegistry;
  store: LineSubscriptionStore;
  clock: Clock;
  /** The URL carriers reach this service at; null while unknown (nothing is subscribed then). */
  callbackBase: () => string | null;
  /** Silence after which polling returns to its usual interval. */
  quietMs: number;
  /** Applies pushed events to the shipment (the engine's push entry point). */
  apply: (shipmentId: string, events: DcsaEvent[]) => Promise<void>;
  warn: (detail: Record<string, unknown>, message: string) => void;
}

interface Held {
  shipmentId: string;
  scac: string;
  secret: string;
  /** When the carrier was last heard from: the last callback, else the subscription's creation. */
  heardAt: number;
}

export class LineSubscriptions {
  private readonly byId = new Map<string, Held>();
  private readonly byShipment = new Map<string, string>();
  private readonly creating = new Set<string>();
  /** Carriers that answered they offer no subscriptions: not asked again until restart. */
  private readonly declined = new Set<string>();

  constructor(private readonly options: LineSubscriptionsOptions) {}

  async load(): Promise<void> {
    for (const row of await this.options.store.all()) {
      this.hold(row.id, {
        shipmentId: row.shipment_id,
        scac: row.scac,
        secret: row.secret,
        heardAt: Date.parse(row.last_callback_at ?? row.created_at),
      });
    }
  }

  /**
   * Holds subscription `id` if the store has it and it is not held yet: with several instances
   * on one database, another instance may have created it, and the carrier calls any of them.
   */
  async loadOne(id: string): Promise<void> {
    if (this.byId.has(id) || !/^[0-9a-f-]{36}$/i.test(id)) return;
    const row = await this.options.store.byId(id);
    if (!row) return;
    this.hold(row.id, {
      shipmentId: row.shipment_id,
      scac: row.scac,
      secret: row.secret,
      heardAt: Date.parse(row.last_callback_at ?? row.created_at),
    });
  }

  /** Number of subscriptions held. */
  get size(): number {
    return this.byId.size;
  }

  /** For the callback verifier: the subscription behind a callback URL's id. */
  lookup(id: string): CallbackSubscription | null {
    const held = this.byId.get(id);
    return held ? { scac: held.scac, secret: held.secret } : null;
  }

  /** Subscribes the shipment at its carrier when the carrier is set up for push and none exists. */
  async ensure(shipment: { id: string; scac: string }, query: DcsaQuery): Promise<void> {
    const client = this.options.registry.subscriptions(shipment.scac);
    if (!client || this.declined.has(client.scac)) return;
    if (this.byShipment.has(shipment.id) || this.creating.has(shipment.id)) return;
    const base = this.options.callbackBase();
    if (!base) return;
    this.creating.add(shipment.id);
    try {
      const id = randomUUID();
      const result = await client.create(
        query,
        `${base.replace(/\/+$/, '')}${CALLBACK_PATH}/${id}`,
      );
      if (result.outcome !== 'created') {
        if (result.outcome === 'rejected' && result.status === 404) this.declined.add(client.scac);
        this.options.warn(
          { scac: client.scac, shipment: shipment.id, outcome: result.outcome },
          'carrier subscription not created; the line is polled instead',
        );
        return;
      }
      const now = this.options.clock.now();
      await this.options.store.add({
        id,
        shipment_id: shipment.id,
        scac: client.scac,
        carrier_subscription_id: result.subscriptionID,
        secret: result.secret,
        created_at: new Date(now).toISOString(),
        last_callback_at: null,
      });
      this.hold(id, {
        shipmentId: shipment.id,
        scac: client.scac,
        secret: result.secret,
        heardAt: now,
      });
    } finally {
      this.creating.delete(shipment.id);
    }
  }

  /** Time to the shipment's next poll: longer while its subscription is alive. */
  pollDelay(shipmentId: string, usualMs: number): number {
    const id = this.byShipment.get(shipmentId);
    const held = id ? this.byId.get(id) : undefined;
    if (!held) return usualMs;
    const alive = this.options.clock.now() - held.heardAt < this.options.quietMs;
    return alive ? Math.max(usualMs, this.options.quietMs) : usualMs;
  }

  /** A verified delivery: applied, and the subscription counts as alive again. */
  async receive(delivery: { subscriptionId: string; events: DcsaEvent[] }): Promise<void> {
    const held = this.byId.get(delivery.subscriptionId);
    if (!held) return;
    await this.options.apply(held.shipmentId, delivery.events);
    held.heardAt = this.options.clock.now();
    await this.options.store.recordCallback(
      delivery.subscriptionId,
      new Date(held.heardAt).toISOString(),
    );
  }

  /**
   * Deletes the subscriptions of shipments no longer tracked. One the carrier cannot be reached
   * for is kept and tried again on the next call.
   */
  async releaseStopped(): Promise<void> {
    for (const row of await this.options.store.ofStoppedShipments()) {
      const client = this.options.registry.subscriptions(row.scac);
      const result = client ? await client.delete(row.carrier_subscription_id) : null;
      if (result && result.outcome !== 'deleted' && result.outcome !== 'rejected') {
        this.options.warn(
          { scac: row.scac, shipment: row.shipment_id, outcome: result.outcome },
          'carrier subscription not deleted yet; retrying later',
        );
        continue;
      }
      await this.options.store.remove(row.id);
      this.byId.delete(row.id);
      this.byShipment.delete(row.shipment_id);
    }
  }

  private hold(id: string, held: Held): void {
    this.byId.set(id, held);
    this.byShipment.set(held.shipmentId, id);
  }
}

/**
 * The shipment's known events with pushed ones merged in: an event with the same `eventID` is
 * replaced, a new one appended, so a repeated delivery changes nothing.
 */
export function mergeEvents(
  known: readonly DcsaEvent[],
  pushed: readonly DcsaEvent[],
): DcsaEvent[] {
  const keyOf = (e: DcsaEvent) => {
    const id = (e as { eventID?: unknown }).eventID;
    return typeof id === 'string' && id !== '' ? `id:${id}` : `json:${JSON.stringify(e)}`;
  };
  const merged = new Map<string, DcsaEvent>();
  for (const e of known) merged.set(keyOf(e), e);
  for (const e of pushed) merged.set(keyOf(e), e);
  return [...merged.values()];
}
