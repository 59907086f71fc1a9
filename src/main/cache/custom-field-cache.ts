/**
 * The custom fields owner: the account's definitions and each record's values, kept in step with
 * the board's search rows. The rows a value is stored as are built in custom-fields.ts.
 */
import {
  customFieldValueRow,
  type CustomFieldDefinitionRecord,
  type CustomFieldValueSet,
} from './custom-fields';
import { CacheOwner, type CacheConnection } from './connection';
import type { SearchIndex } from './search-index';

export class CustomFieldCache extends CacheOwner {
  constructor(
    connection: CacheConnection,
    private readonly search: SearchIndex,
  ) {
    super(connection);
  }

  /**
   * Makes the cached values of one record exactly `set` (values the service no longer has are
   * removed). Returns whether anything changed.
   */
  replaceCustomFieldValues(set: CustomFieldValueSet): boolean {
    const stored = this.stmt(
      `SELECT id, api_slug, value, display_value FROM custom_field_values
       WHERE entity_id = ? AND entity_type = ? ORDER BY api_slug`,
    ).all(set.entityId, set.entityType) as {
      id: string;
      api_slug: string;
      value: string;
      display_value: string;
    }[];
    const typeOf = this.stmt('SELECT data_type FROM custom_field_definitions WHERE id = ?');
    const rows = set.values
      .map((v) => {
        const def = v.definitionId
          ? (typeOf.get(v.definitionId) as { data_type: string } | undefined)
          : undefined;
        return customFieldValueRow(set, v, def?.data_type ?? null);
      })
      .sort((a, b) => (a.api_slug < b.api_slug ? -1 : a.api_slug > b.api_slug ? 1 : 0));
    const same =
      stored.length === rows.length &&
      stored.every(
        (r, i) =>
          r.id === rows[i]!.id &&
          r.api_slug === rows[i]!.api_slug &&
          r.value === rows[i]!.value &&
          r.display_value === rows[i]!.display_value,
      );
    if (same) return false;
    this.stmt('DELETE FROM custom_field_values WHERE entity_id = ? AND entity_type = ?').run(
      set.entityId,
      set.entityType,
    );
    const insert = this.stmt(
      `INSERT INTO custom_field_values (id, entity_type, entity_id, definition_id, api_slug,
         data_type, value, display_value, sort_key, search_text, choices)
       VALUES (@id, @entity_type, @entity_id, @definition_id, @api_slug, @data_type, @value,
         @display_value, @sort_key, @search_text, @choices)
       ON CONFLICT DO NOTHING`,
    );
    for (const row of rows) insert.run(row);
    return true;
  }

  /**
   * Replaces the account's custom field definitions with the service's complete list, in one
   * transaction. Values of definitions that are gone go with them.
   */
  replaceCustomFieldDefinitions(definitions: readonly CustomFieldDefinitionRecord[]): void {
    this.db
      .transaction(() => {
        this.db.exec('DELETE FROM custom_field_definitions');
        const insert = this.stmt(
          `INSERT INTO custom_field_definitions (id, entity_type, api_slug, display_name,
             data_type, options, json) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO NOTHING`,
        );
        for (const d of definitions) {
          insert.run(
            d.id,
            d.entityType,
            d.apiSlug,
            d.displayName,
            d.dataType,
            JSON.stringify(d.options),
            JSON.stringify(d.json),
          );
        }
        const orphans = this.stmt(
          `SELECT DISTINCT entity_type AS entityType, entity_id AS entityId
           FROM custom_field_values
           WHERE definition_id IS NOT NULL
             AND definition_id NOT IN (SELECT id FROM custom_field_definitions)`,
        ).all() as { entityType: 'shipment' | 'container'; entityId: string }[];
        if (orphans.length === 0) return;
        this.db.exec(
          `DELETE FROM custom_field_values WHERE definition_id IS NOT NULL
             AND definition_id NOT IN (SELECT id FROM custom_field_definitions)`,
        );
        for (const o of orphans) {
          if (o.entityType === 'shipment') this.search.refreshSearchForShipment(o.entityId);
          else this.search.refreshSearchForContainer(o.entityId);
        }
      })
      .immediate();
  }

  /** The cached definitions, as the sync stored them. */
  customFieldDefinitions(): CustomFieldDefinitionRecord[] {
    return (
      this.stmt(
        `SELECT id, entity_type AS entityType, api_slug AS apiSlug, display_name AS displayName,
           data_type AS dataType, options, json FROM custom_field_definitions ORDER BY id`,
      ).all() as (Omit<CustomFieldDefinitionRecord, 'options' | 'json'> & {
        options: string;
        json: string;
      })[]
    ).map((r) => ({
      ...r,
      options: JSON.parse(r.options) as CustomFieldDefinitionRecord['options'],
      json: JSON.parse(r.json) as unknown,
    }));
  }

  /** A record's cached values by api_slug (value as stored). */
  customFieldValuesOf(entityType: 'shipment' | 'container', id: string): Record<string, unknown> {
    const rows = this.stmt(
      'SELECT api_slug, value FROM custom_field_values WHERE entity_id = ? AND entity_type = ?',
    ).all(id, entityType) as { api_slug: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.api_slug, JSON.parse(r.value) as unknown]));
  }
}
