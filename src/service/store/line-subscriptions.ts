/**
 * DCSA event subscriptions held with carriers (one per tracked shipment) and the events of each
 * shipment's last line lookup. Subscription secrets are sealed at rest by the SealedColumns
 * plugin; rows read here come back opened.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, LineSubscriptionsTable } from './schema';

export type LineSubscription = LineSubscriptionsTable;

export class LineSubscriptionStore {
  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  all(): Promise<LineSubscription[]> {
    return this.db.selectFrom('line_subscriptions').selectAll().execute();
  }

  async byId(id: string): Promise<LineSubscription | undefined> {
    return this.db
      .selectFrom('line_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async forShipment(shipmentId: string): Promise<LineSubscription | undefined> {
    return this.db
      .selectFrom('line_subscriptions')
      .selectAll()
      .where('shipment_id', '=', shipmentId)
      .executeTakeFirst();
  }

  async add(subscription: LineSubscription): Promise<void> {
    await this.db.insertInto('line_subscriptions').values(subscription).execute();
  }

  async recordCallback(id: string, at: string): Promise<void> {
    await this.db
      .updateTable('line_subscriptions')
      .set({ last_callback_at: at })
      .where('id', '=', id)
      .execute();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('line_subscriptions').where('id', '=', id).execute();
  }

  /** Subscriptions whose shipment is no longer tracked at the line. */
  async ofStoppedShipments(): Promise<LineSubscription[]> {
    return this.db
      .selectFrom('line_subscriptions')
      .innerJoin('shipments', 'shipments.id', 'line_subscriptions.shipment_id')
      .selectAll('line_subscriptions')
      .where('shipments.line_tracking_stopped_at', 'is not', null)
      .execute();
  }

  /** The DCSA events of the shipment's last lookup, or null before the first one. */
  async eventSnapshot(shipmentId: string): Promise<unknown[] | null> {
    const row = await this.db
      .selectFrom('line_event_snapshots')
      .select('events')
      .where('shipment_id', '=', shipmentId)
      .executeTakeFirst();
    if (!row) return null;
    const parsed = JSON.parse(row.events) as unknown;
    return Array.isArray(parsed) ? parsed : null;
  }

  async saveEventSnapshot(
    shipmentId: string,
    events: readonly unknown[],
    at: string,
  ): Promise<void> {
    const json = JSON.stringify(events);
    await this.db
      .insertInto('line_event_snapshots')
      .values({ shipment_id: shipmentId, events: json, updated_at: at })
      .onConflict((oc) => oc.column('shipment_id').doUpdateSet({ events: json, updated_at: at }))
      .execute();
  }
}
