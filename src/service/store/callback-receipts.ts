/**
 * Signed DCSA callback bodies already accepted, keyed by (subscription, signature digest). The
 * record is shared by every instance on the database, so a carrier's retry that reaches another
 * instance (or this one after a restart) is recognised as a replay. Recording is one
 * insert-if-absent on the primary key: when two instances receive the same body at the same
 * moment, exactly one insert takes effect and only that instance applies the events.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

export class CallbackReceipts {
  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  /**
   * Records the body's receipt; true when this call recorded it first, false when it was
   * recorded before (a replay).
   */
  async recordFirst(
    subscriptionId: string,
    digest: string,
    receivedAtMs: number,
  ): Promise<boolean> {
    const result = await this.db
      .insertInto('callback_receipts')
      .values({ subscription_id: subscriptionId, digest, received_at_ms: receivedAtMs })
      .onConflict((oc) => oc.columns(['subscription_id', 'digest']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Drops a receipt whose events could not be applied, so the carrier's retry applies them. */
  async forget(subscriptionId: string, digest: string): Promise<void> {
    await this.db
      .deleteFrom('callback_receipts')
      .where('subscription_id', '=', subscriptionId)
      .where('digest', '=', digest)
      .execute();
  }

  /** Deletes receipts older than `beforeMs`, then all but the newest `keep`; returns how many. */
  async prune(beforeMs: number, keep: number): Promise<number> {
    const expired = await this.db
      .deleteFrom('callback_receipts')
      .where('received_at_ms', '<', beforeMs)
      .executeTakeFirst();
    const cutoff = await this.db
      .selectFrom('callback_receipts')
      .select('received_at_ms')
      .orderBy('received_at_ms', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    const surplus = cutoff
      ? await this.db
          .deleteFrom('callback_receipts')
          .where('received_at_ms', '<=', cutoff.received_at_ms)
          .executeTakeFirst()
      : undefined;
    return Number(expired.numDeletedRows) + Number(surplus?.numDeletedRows ?? 0);
  }

  /** How many receipts are kept (for tests and metrics). */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('callback_receipts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
