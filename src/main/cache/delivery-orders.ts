/** The delivery orders owner: what each container's latest delivery order made here said. */
import { CacheOwner } from './connection';
import type { StoredDeliveryOrder } from './interface';

export class DeliveryOrdersCache extends CacheOwner {
  recordDeliveryOrder(order: StoredDeliveryOrder): void {
    this.stmt(
      `INSERT INTO delivery_orders (container_id, document_id, trucker_id, trucker_name, facts, made_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(container_id) DO UPDATE SET document_id = excluded.document_id,
         trucker_id = excluded.trucker_id, trucker_name = excluded.trucker_name,
         facts = excluded.facts, made_at = excluded.made_at
       WHERE excluded.made_at > delivery_orders.made_at`,
    ).run(
      order.containerId,
      order.documentId,
      order.truckerId,
      order.truckerName,
      JSON.stringify(order.facts),
      order.madeAt,
    );
    this.wrote();
  }

  deliveryOrders(): StoredDeliveryOrder[] {
    const rows = this.stmt(
      `SELECT container_id AS containerId, document_id AS documentId, trucker_id AS truckerId,
         trucker_name AS truckerName, facts, made_at AS madeAt FROM delivery_orders`,
    ).all() as (Omit<StoredDeliveryOrder, 'facts'> & { facts: string })[];
    return rows.map((r) => ({ ...r, facts: JSON.parse(r.facts) as StoredDeliveryOrder['facts'] }));
  }
}
