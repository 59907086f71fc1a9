/**
 * Custom fields: each account's definitions, the options of its enum definitions and the values
 * set on shipments, containers and tracking requests. Setting or removing a value moves the
 * record's `updated_at` in the same transaction, so incremental sync sees the change.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { v4 as uuidv4 } from 'uuid';
import type { Clock } from '../../shared/clock';
import type { ListPage, PageWindow } from './account-reads';
import { isUniqueViolation } from './parties';
import type {
  CustomFieldDefinitionsTable,
  CustomFieldOptionsTable,
  CustomFieldValuesTable,
  Database,
} from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/** The records custom field values are set on (the `entity` relationship's types). */
export type CustomFieldEntityType = 'shipment' | 'container' | 'tracking_request';

export interface DefinitionListFilter {
  entityType?: string;
  dataType?: string;
  /** Display names starting with this text (any case). */
  displayNamePrefix?: string;
}

export interface ValueListFilter {
  entityType?: CustomFieldEntityType;
  entityId?: string;
  definitionId?: string;
}

export type NewDefinition = Omit<
  CustomFieldDefinitionsTable,
  'id' | 'account_id' | 'created_at' | 'updated_at'
>;
export type DefinitionChanges = Partial<
  Pick<
    CustomFieldDefinitionsTable,
    'display_name' | 'description' | 'validation' | 'default_format' | 'default_value'
  >
>;

/** A value to store: its JSON and the text list filters compare with. */
export interface StoredValue {
  json: string;
  matchText: string;
}

/**
 * A value a tracking request's `initial_custom_fields` staged for what it will create, checked
 * against its definition when the request was made.
 */
export interface StagedCustomFieldValue {
  target: 'shipment' | 'container';
  definitionId: string;
  value: StoredValue;
  /** The container the value is for; absent: every container of the shipment. */
  containerNumber?: string;
}

export class CustomFieldStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Runs `work` in one transaction (joins an outer one). */
  private async atomically<T>(work: (store: CustomFieldStore) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return (this.db as Kysely<Database>)
      .transaction()
      .execute((trx) => work(new CustomFieldStore(trx, this.clock)));
  }

  // --- definitions -------------------------------------------------------------------------

  async definitions(
    accountId: string,
    filter: DefinitionListFilter,
    page: PageWindow,
  ): Promise<ListPage<CustomFieldDefinitionsTable>> {
    let base = this.db.selectFrom('custom_field_definitions').where('account_id', '=', accountId);
    if (filter.entityType) base = base.where('entity_type', '=', filter.entityType);
    if (filter.dataType) base = base.where('data_type', '=', filter.dataType);
    const prefix = filter.displayNamePrefix?.toLowerCase();
    if (prefix) {
      // Compared in code-point order: `like` would take `%` and `_` in the prefix as wildcards.
      base = base
        .where((eb) => eb.fn('lower', ['display_name']), '>=', prefix)
        .where((eb) => eb.fn('lower', ['display_name']), '<', `${prefix}\uffff`);
    }
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  async ownedDefinition(
    accountId: string,
    id: string,
  ): Promise<CustomFieldDefinitionsTable | undefined> {
    return this.db
      .selectFrom('custom_field_definitions')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async definitionBySlug(
    accountId: string,
    entityType: string,
    apiSlug: string,
  ): Promise<CustomFieldDefinitionsTable | undefined> {
    return this.db
      .selectFrom('custom_field_definitions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('entity_type', '=', entityType)
      .where('api_slug', '=', apiSlug)
      .executeTakeFirst();
  }

  async definitionsByIds(accountId: string, ids: string[]): Promise<CustomFieldDefinitionsTable[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('custom_field_definitions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
  }

  /** The new definition, or undefined when its api_slug is taken for that entity type. */
  async createDefinition(
    accountId: string,
    input: NewDefinition,
  ): Promise<CustomFieldDefinitionsTable | undefined> {
    const now = this.nowIso();
    const row: CustomFieldDefinitionsTable = {
      id: uuidv4(),
      account_id: accountId,
      ...input,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.insertInto('custom_field_definitions').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
    return row;
  }

  async updateDefinition(accountId: string, id: string, changes: DefinitionChanges): Promise<void> {
    await this.db
      .updateTable('custom_field_definitions')
      .set({ ...changes, updated_at: this.nowIso() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
  }

  /** Deletes a definition with its options and values; the records that had a value change. */
  async deleteDefinition(accountId: string, id: string): Promise<boolean> {
    return this.atomically(async (store) => {
      const values = await store.db
        .selectFrom('custom_field_values')
        .select(['entity_type', 'entity_id'])
        .where('definition_id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
      await store.db.deleteFrom('custom_field_values').where('definition_id', '=', id).execute();
      await store.db.deleteFrom('custom_field_options').where('definition_id', '=', id).execute();
      const res = await store.db
        .deleteFrom('custom_field_definitions')
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      for (const v of values) {
        await store.touchEntity(accountId, v.entity_type as CustomFieldEntityType, v.entity_id);
      }
      return Number(res.numDeletedRows) > 0;
    });
  }

  // --- options -----------------------------------------------------------------------------

  /** Options of definitions, by position (unset last), then creation. */
  async optionsOf(definitionIds: string[]): Promise<CustomFieldOptionsTable[]> {
    if (definitionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('custom_field_options')
      .selectAll()
      .where('definition_id', 'in', definitionIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Sorted here: where NULL sorts differs between SQLite and PostgreSQL.
    return rows.sort(
      (a, b) => (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER),
    );
  }

  async ownedOption(
    accountId: string,
    definitionId: string,
    id: string,
  ): Promise<CustomFieldOptionsTable | undefined> {
    return this.db
      .selectFrom('custom_field_options')
      .selectAll()
      .where('id', '=', id)
      .where('definition_id', '=', definitionId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** The new option, or undefined when the definition already has one with this value. */
  async createOption(
    accountId: string,
    definitionId: string,
    input: { label: string; value: string; position: number | null },
  ): Promise<CustomFieldOptionsTable | undefined> {
    const now = this.nowIso();
    // Without a position an option goes last, so options keep the order they were added in.
    let position = input.position;
    if (position === null) {
      const { last } = await this.db
        .selectFrom('custom_field_options')
        .select((eb) => eb.fn.max('position').as('last'))
        .where('definition_id', '=', definitionId)
        .executeTakeFirstOrThrow();
      position = last === null || last === undefined ? 0 : Number(last) + 1;
    }
    const row: CustomFieldOptionsTable = {
      id: uuidv4(),
      account_id: accountId,
      definition_id: definitionId,
      ...input,
      position,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.insertInto('custom_field_options').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
    return row;
  }

  async updateOption(
    accountId: string,
    id: string,
    changes: { label?: string; position?: number | null },
  ): Promise<void> {
    await this.db
      .updateTable('custom_field_options')
      .set({ ...changes, updated_at: this.nowIso() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
  }

  async deleteOption(accountId: string, id: string): Promise<void> {
    await this.db
      .deleteFrom('custom_field_options')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
  }

  /** Whether any stored value of the definition matches a LIKE pattern (an option in use). */
  async valueMatches(definitionId: string, pattern: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('custom_field_values')
      .select('id')
      .where('definition_id', '=', definitionId)
      .where('match_text', 'like', sql<string>`${pattern} escape '\\'`)
      .executeTakeFirst();
    return row !== undefined;
  }

  // --- values ------------------------------------------------------------------------------

  async values(
    accountId: string,
    filter: ValueListFilter,
    page: PageWindow,
  ): Promise<ListPage<CustomFieldValuesTable>> {
    let base = this.db.selectFrom('custom_field_values').where('account_id', '=', accountId);
    if (filter.entityType) base = base.where('entity_type', '=', filter.entityType);
    if (filter.entityId) base = base.where('entity_id', '=', filter.entityId);
    if (filter.definitionId) base = base.where('definition_id', '=', filter.definitionId);
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  /** Every value set on the given records (for `include=custom_fields` and the nested lists). */
  async valuesOf(
    accountId: string,
    entityType: CustomFieldEntityType,
    entityIds: string[],
  ): Promise<CustomFieldValuesTable[]> {
    if (entityIds.length === 0) return [];
    return this.db
      .selectFrom('custom_field_values')
      .selectAll()
      .where('entity_id', 'in', entityIds)
      .where('entity_type', '=', entityType)
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async ownedValue(accountId: string, id: string): Promise<CustomFieldValuesTable | undefined> {
    return this.db
      .selectFrom('custom_field_values')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async valueFor(
    accountId: string,
    definitionId: string,
    entityId: string,
  ): Promise<CustomFieldValuesTable | undefined> {
    return this.db
      .selectFrom('custom_field_values')
      .selectAll()
      .where('definition_id', '=', definitionId)
      .where('entity_id', '=', entityId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /**
   * Sets a record's value of a definition (creating or replacing it) and moves the record's
   * updated_at, in one transaction.
   */
  async setValue(
    accountId: string,
    target: { definitionId: string; entityType: CustomFieldEntityType; entityId: string },
    value: StoredValue,
  ): Promise<CustomFieldValuesTable> {
    return this.atomically(async (store) => {
      const now = store.nowIso();
      const existing = await store.valueFor(accountId, target.definitionId, target.entityId);
      let row: CustomFieldValuesTable;
      if (existing) {
        row = { ...existing, value: value.json, match_text: value.matchText, updated_at: now };
        await store.db
          .updateTable('custom_field_values')
          .set({ value: row.value, match_text: row.match_text, updated_at: now })
          .where('id', '=', existing.id)
          .execute();
      } else {
        row = {
          id: uuidv4(),
          account_id: accountId,
          definition_id: target.definitionId,
          entity_type: target.entityType,
          entity_id: target.entityId,
          value: value.json,
          match_text: value.matchText,
          created_at: now,
          updated_at: now,
        };
        await store.db.insertInto('custom_field_values').values(row).execute();
      }
      await store.touchEntity(accountId, target.entityType, target.entityId);
      if (target.entityType === 'tracking_request') {
        // Set after the request created its shipment (the lookup can be quicker than the
        // client's next call): the shipment gets it too.
        const request = await store.db
          .selectFrom('tracking_requests')
          .select('shipment_id')
          .where('id', '=', target.entityId)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
        if (request?.shipment_id) {
          await store.carryOverToShipment(
            accountId,
            target.entityId,
            request.shipment_id,
            target.definitionId,
          );
        }
      }
      return row;
    });
  }

  /** Removes a value and moves its record's updated_at, in one transaction. */
  async deleteValue(accountId: string, value: CustomFieldValuesTable): Promise<void> {
    await this.atomically(async (store) => {
      await store.db
        .deleteFrom('custom_field_values')
        .where('id', '=', value.id)
        .where('account_id', '=', accountId)
        .execute();
      await store.touchEntity(
        accountId,
        value.entity_type as CustomFieldEntityType,
        value.entity_id,
      );
    });
  }

  /**
   * Copies a tracking request's values onto the shipment it created: each one whose field the
   * account also defines on shipments under the same api_slug and data type (a choice only
   * when the shipment field offers that option). Returns how many were copied. Joins the
   * caller's transaction, so the shipment and its values appear together. `definitionId`:
   * only the request's value of that field.
   */
  async carryOverToShipment(
    accountId: string,
    trackingRequestId: string,
    shipmentId: string,
    definitionId?: string,
  ): Promise<number> {
    return this.atomically(async (store) => {
      let query = store.db
        .selectFrom('custom_field_values as v')
        .innerJoin('custom_field_definitions as d', 'd.id', 'v.definition_id')
        .select(['v.value', 'v.match_text', 'd.api_slug', 'd.data_type'])
        .where('v.account_id', '=', accountId)
        .where('v.entity_type', '=', 'tracking_request')
        .where('v.entity_id', '=', trackingRequestId);
      if (definitionId) query = query.where('v.definition_id', '=', definitionId);
      const values = await query.execute();
      let copied = 0;
      for (const v of values) {
        const target = await store.definitionBySlug(accountId, 'Shipment', v.api_slug);
        if (!target || target.data_type !== v.data_type) continue;
        if (target.data_type === 'enum' || target.data_type === 'enum_multi') {
          const offered = new Set((await store.optionsOf([target.id])).map((o) => o.value));
          const chosen = JSON.parse(v.value) as unknown;
          const picked = Array.isArray(chosen) ? chosen : [chosen];
          if (!picked.every((p) => typeof p === 'string' && offered.has(p))) continue;
        }
        await store.setValue(
          accountId,
          { definitionId: target.id, entityType: 'shipment', entityId: shipmentId },
          { json: v.value, matchText: v.match_text },
        );
        copied++;
      }
      return copied;
    });
  }

  /**
   * Sets a resolved tracking request's staged values on its shipment and containers. A value
   * whose definition was deleted since is skipped, as is one for a container the shipment does
   * not have; a value for one container wins over a value for every container. Joins the
   * caller's transaction. Returns how many values were set.
   */
  async applyStaged(
    accountId: string,
    staged: StagedCustomFieldValue[],
    shipmentId: string,
  ): Promise<number> {
    if (staged.length === 0) return 0;
    return this.atomically(async (store) => {
      const live = new Set(
        (
          await store.definitionsByIds(accountId, [...new Set(staged.map((s) => s.definitionId))])
        ).map((d) => d.id),
      );
      const containers = await store.db
        .selectFrom('containers')
        .select(['id', 'number'])
        .where('account_id', '=', accountId)
        .where('shipment_id', '=', shipmentId)
        .execute();
      // Broadcast values first, so a value naming its container is the one that stays.
      const ordered = [
        ...staged.filter((s) => s.containerNumber === undefined),
        ...staged.filter((s) => s.containerNumber !== undefined),
      ];
      let set = 0;
      for (const s of ordered) {
        if (!live.has(s.definitionId)) continue;
        const entities =
          s.target === 'shipment'
            ? [{ type: 'shipment' as const, id: shipmentId }]
            : containers
                .filter((c) => s.containerNumber === undefined || c.number === s.containerNumber)
                .map((c) => ({ type: 'container' as const, id: c.id }));
        for (const entity of entities) {
          await store.setValue(
            accountId,
            { definitionId: s.definitionId, entityType: entity.type, entityId: entity.id },
            s.value,
          );
          set++;
        }
      }
      return set;
    });
  }

  /** Whether the account owns the record (another account's record is simply not found). */
  async ownsEntity(
    accountId: string,
    entityType: CustomFieldEntityType,
    entityId: string,
  ): Promise<boolean> {
    const table = ENTITY_TABLES[entityType];
    const row = await this.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', entityId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks a record changed, so `filter[updated_at][start]` lists it again. */
  private async touchEntity(
    accountId: string,
    entityType: CustomFieldEntityType,
    entityId: string,
  ): Promise<void> {
    await this.db
      .updateTable(ENTITY_TABLES[entityType])
      .set({ updated_at: this.nowIso() })
      .where('id', '=', entityId)
      .where('account_id', '=', accountId)
      .execute();
  }
}

const ENTITY_TABLES = {
  shipment: 'shipments',
  container: 'containers',
  tracking_request: 'tracking_requests',
} as const satisfies Record<CustomFieldEntityType, keyof Database>;
