/** The received D&D invoices owner: what the user entered per container. */
import type { ReceivedInvoice } from '../../shared/charges/statement';
import { CacheOwner } from './connection';
import type { StoredInvoice } from './interface';

export class InvoicesCache extends CacheOwner {
  private readonly invoiceColumns = `i.container_id AS containerId, c.number AS containerNumber,
    c.shipment_id AS shipmentId, i.amount, i.currency, i.invoice_date AS date,
    i.entered_at AS enteredAt
    FROM received_invoices i LEFT JOIN containers c ON c.id = i.container_id`;

  receivedInvoice(containerId: string): StoredInvoice | null {
    const row = this.stmt(`SELECT ${this.invoiceColumns} WHERE i.container_id = ?`).get(
      containerId,
    ) as StoredInvoice | undefined;
    return row ?? null;
  }

  setReceivedInvoice(containerId: string, invoice: ReceivedInvoice | null, now: string): void {
    if (invoice === null) {
      this.stmt('DELETE FROM received_invoices WHERE container_id = ?').run(containerId);
    } else {
      this.stmt(
        `INSERT INTO received_invoices (container_id, amount, currency, invoice_date, entered_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(container_id) DO UPDATE SET amount = excluded.amount,
           currency = excluded.currency, invoice_date = excluded.invoice_date,
           entered_at = excluded.entered_at`,
      ).run(containerId, invoice.amount, invoice.currency, invoice.date, now);
    }
    this.wrote();
  }

  receivedInvoicesSince(fromDate: string): StoredInvoice[] {
    return this.stmt(
      `SELECT ${this.invoiceColumns} WHERE i.invoice_date >= ? ORDER BY i.invoice_date`,
    ).all(fromDate) as StoredInvoice[];
  }
}
