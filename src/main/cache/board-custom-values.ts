/**
 * The board's custom field columns: which fields can be columns, and each row's values (its own,
 * else its shipment's), filled a batch of rows per query.
 */
import type { BoardCustomValue, BoardRow, CustomFieldColumn } from '../../shared/desktop';
import { toBoardRow, type BoardDb, type RawRow } from './board-sql';

/** Rows given custom field values per query (well under SQLite's limits). */
export const CUSTOM_VALUE_BATCH = 500;

export class BoardCustomValues {
  constructor(private readonly board: BoardDb) {}

  /**
   * Fills each row's custom field values: the container's own, and its shipment's where the
   * container has none of that field. One query for the whole batch.
   */
  withCustomFields(rows: BoardRow[]): BoardRow[] {
    if (rows.length === 0) return rows;
    const ids = new Set<string>();
    for (const r of rows) {
      ids.add(r.id);
      if (r.shipmentId) ids.add(r.shipmentId);
    }
    const values = this.board
      .stmt(
        `SELECT entity_type AS entityType, entity_id AS entityId, api_slug AS slug,
         display_value AS text, value
       FROM custom_field_values WHERE entity_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify([...ids])) as {
      entityType: 'shipment' | 'container';
      entityId: string;
      slug: string;
      text: string;
      value: string;
    }[];
    if (values.length === 0) return rows;
    const byEntity = new Map<string, Map<string, BoardCustomValue>>();
    for (const v of values) {
      const key = `${v.entityType}:${v.entityId}`;
      if (!byEntity.has(key)) byEntity.set(key, new Map());
      byEntity.get(key)!.set(v.slug, {
        text: v.text,
        value: JSON.parse(v.value) as unknown,
        fromShipment: v.entityType === 'shipment',
      });
    }
    for (const r of rows) {
      const own = byEntity.get(`container:${r.id}`);
      const shipment = r.shipmentId ? byEntity.get(`shipment:${r.shipmentId}`) : undefined;
      r.customFields = Object.fromEntries([...(shipment ?? []), ...(own ?? [])]);
    }
    return rows;
  }

  /** Board rows of a row iterator, with their custom field values, a batch at a time. */
  *rowsWithCustomFields(raws: Iterable<RawRow>): Generator<BoardRow> {
    let batch: BoardRow[] = [];
    for (const raw of raws) {
      batch.push(toBoardRow(raw));
      if (batch.length >= CUSTOM_VALUE_BATCH) {
        yield* this.withCustomFields(batch);
        batch = [];
      }
    }
    yield* this.withCustomFields(batch);
  }

  /**
   * The custom fields that can be board columns: one per api_slug over the container and
   * shipment definitions (a container's own value wins over its shipment's, so the container
   * definition names the column when both exist), in name order.
   */
  customFieldColumns(): CustomFieldColumn[] {
    const defs = this.board
      .stmt(
        `SELECT entity_type AS entityType, api_slug AS slug, display_name AS label,
         data_type AS dataType, options
       FROM custom_field_definitions WHERE entity_type IN ('Container', 'Shipment')
       ORDER BY entity_type = 'Container' DESC, id`,
      )
      .all() as {
      entityType: 'Container' | 'Shipment';
      slug: string;
      label: string;
      dataType: string;
      options: string;
    }[];
    const columns = new Map<string, CustomFieldColumn>();
    for (const d of defs) {
      const known = columns.get(d.slug);
      if (known) {
        known.on.push(d.entityType);
        continue;
      }
      columns.set(d.slug, {
        slug: d.slug,
        label: d.label,
        dataType: d.dataType,
        on: [d.entityType],
        options: JSON.parse(d.options) as CustomFieldColumn['options'],
      });
    }
    return [...columns.values()].sort((a, b) => a.label.localeCompare(b.label));
  }
}
