/**
 * What account holders edit on tracked records themselves (the tracking engine writes the
 * rest): a shipment's ref numbers, tags and customer, containers' ref numbers and trucker. Each edit moves
 * the record's updated_at so incremental sync picks it up.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../../shared/clock';
import type { ContainersTable, Database, ShipmentsTable } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

export interface ShipmentEdit {
  refNumbers?: string[];
  tags?: string[];
  /** The party the shipment is for (its name shown as customer_name); null clears it. */
  customer?: { id: string; companyName: string } | null;
}

export interface ContainerEdit {
  id: string;
  refNumbers?: string[];
  /** A trucker party of the account; null clears the assignment. */
  truckerId?: string | null;
}

export class RecordEdits {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** False when the account has no such shipment. */
  async editShipment(accountId: string, id: string, edit: ShipmentEdit): Promise<boolean> {
    const set: Partial<ShipmentsTable> = { updated_at: this.nowIso() };
    if (edit.refNumbers) set.ref_numbers = JSON.stringify(edit.refNumbers);
    if (edit.tags) set.tags = JSON.stringify(edit.tags);
    if (edit.customer !== undefined) {
      set.customer_id = edit.customer?.id ?? null;
      set.customer_name = edit.customer?.companyName ?? null;
    }
    const res = await this.db
      .updateTable('shipments')
      .set(set)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Sets the ref numbers and/or the trucker (a party id, null to clear) of several containers,
   * all or none: the ids the account does not own are returned and nothing is written when
   * there are any. The trucker is checked by the caller.
   */
  async editContainers(accountId: string, edits: ContainerEdit[]): Promise<{ missing: string[] }> {
    const work = async (db: Db) => {
      const ids = edits.map((e) => e.id);
      const owned = new Set(
        (
          await db
            .selectFrom('containers')
            .select('id')
            .where('id', 'in', ids)
            .where('account_id', '=', accountId)
            .execute()
        ).map((r) => r.id),
      );
      const missing = ids.filter((id) => !owned.has(id));
      if (missing.length) return { missing };
      const now = this.nowIso();
      for (const edit of edits) {
        const set: Partial<ContainersTable> = { updated_at: now };
        if (edit.refNumbers) set.ref_numbers = JSON.stringify(edit.refNumbers);
        if (edit.truckerId !== undefined) set.trucker_id = edit.truckerId;
        await db.updateTable('containers').set(set).where('id', '=', edit.id).execute();
      }
      return { missing };
    };
    if (this.db.isTransaction) return work(this.db);
    return (this.db as Kysely<Database>).transaction().execute(work);
  }

  /** Assigns (or with null clears) the trucker of every container of a shipment. */
  async assignShipmentTrucker(
    accountId: string,
    shipmentId: string,
    truckerId: string | null,
  ): Promise<void> {
    await this.db
      .updateTable('containers')
      .set({ trucker_id: truckerId, updated_at: this.nowIso() })
      .where('shipment_id', '=', shipmentId)
      .where('account_id', '=', accountId)
      .execute();
  }
}
