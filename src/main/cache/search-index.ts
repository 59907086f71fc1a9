/**
 * The board's full-text search rows (`container_search`): one per container, holding its own
 * searched text, its shipment's and both records' custom field values. The records and custom
 * field owners keep it current through SearchIndex.
 */
import { CacheOwner } from './connection';

/** A container's search row; its custom field text holds its own values and its shipment's. */
export const SEARCH_INSERT = `INSERT INTO container_search (rowid, number, bill_of_lading, ref_numbers, vessel, customer, custom_fields)
  SELECT c.seq, c.number, coalesce(s.bill_of_lading, ''),
    trim(c.ref_numbers || ' ' || coalesce(s.ref_numbers, '')),
    trim(coalesce(s.vessel_name, '') || ' ' || coalesce(s.voyage_number, '')),
    coalesce(s.customer_name, ''),
    coalesce((SELECT group_concat(v.search_text, ' ') FROM custom_field_values v
      WHERE (v.entity_id = c.id AND v.entity_type = 'container')
         OR (v.entity_id = c.shipment_id AND v.entity_type = 'shipment')), '')
  FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id`;

/**
 * The columns SEARCH_INSERT reads from each table (custom field values are refreshed on their
 * own). A changed record whose searched text is the same keeps its search row: rewriting it
 * costs more than the rest of the record's write, and most changes are dates and statuses.
 */
export const CONTAINER_SEARCHED = ['number', 'ref_numbers', 'shipment_id'] as const;
export const SHIPMENT_SEARCHED = [
  'bill_of_lading',
  'ref_numbers',
  'vessel_name',
  'voyage_number',
  'customer_name',
] as const;

export function searchedTextChanged<R, C extends keyof R>(
  stored: Pick<R, C> | undefined,
  row: R,
  columns: readonly C[],
) {
  return !stored || columns.some((column) => stored[column] !== row[column]);
}

export class SearchIndex extends CacheOwner {
  refreshSearchForContainer(containerId: string): void {
    const row = this.stmt('SELECT seq FROM containers WHERE id = ?').get(containerId) as
      { seq: number } | undefined;
    if (!row) return;
    this.stmt('DELETE FROM container_search WHERE rowid = ?').run(row.seq);
    this.stmt(`${SEARCH_INSERT} WHERE c.seq = ?`).run(row.seq);
  }

  refreshSearchForShipment(shipmentId: string): void {
    this.stmt(
      'DELETE FROM container_search WHERE rowid IN (SELECT seq FROM containers WHERE shipment_id = ?)',
    ).run(shipmentId);
    this.stmt(`${SEARCH_INSERT} WHERE c.shipment_id = ?`).run(shipmentId);
  }
}
