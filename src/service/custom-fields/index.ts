/**
 * Custom fields as the API shows them: definitions, options and values rendered as JSON:API
 * resources, values checked against their definition before they are stored, and the
 * `custom_fields` relationship added to shipments, containers and tracking requests on request.
 */
import type { InitialCustomFields } from '../../shared/api/documents';
import { CONTAINER_NUMBER_SHAPE, normalizeNumber } from '../../shared/iso6346';
import { ApiError } from '../jsonapi/errors';
import type { Resource } from '../jsonapi/include';
import { API_PREFIX } from '../resources/render';
import type { ServiceStorage } from '../store';
import type {
  CustomFieldEntityType,
  StagedCustomFieldValue,
  StoredValue,
} from '../store/custom-fields';
import type {
  CustomFieldDefinitionsTable,
  CustomFieldOptionsTable,
  CustomFieldValuesTable,
} from '../store/schema';
import {
  checkValue,
  definitionEntityType,
  displayValue,
  matchPattern,
  matchText,
  type ValueRule,
} from './value-rules';
import type { CustomFieldMatch } from '../store/account-reads';

const CUSTOM_FIELD_FILTER_RE = /^filter\[custom_fields\]\[([^\]]+)\]$/;

/** Describes the custom field filter in the OpenAPI document of a list. */
export const CUSTOM_FIELD_FILTER_DESCRIPTION =
  'Custom field filters (Quayside extension): `filter[custom_fields][<api_slug>]=<value>` lists only records whose value of that field equals the value (any case; for enum_multi: holds it; booleans as true/false). Several may be combined.';

const parseJson = (text: string | null): unknown => (text == null ? null : JSON.parse(text));

export function renderDefinition(
  d: CustomFieldDefinitionsTable,
  options: CustomFieldOptionsTable[],
): Resource {
  return {
    id: d.id,
    type: 'custom_field_definition',
    attributes: {
      entity_type: d.entity_type,
      api_slug: d.api_slug,
      display_name: d.display_name,
      description: d.description,
      data_type: d.data_type,
      reference_type: d.reference_type,
      validation: parseJson(d.validation),
      default_format: d.default_format,
      default_value: parseJson(d.default_value),
      created_at: d.created_at,
      updated_at: d.updated_at,
    },
    relationships: {
      options: { data: options.map((o) => ({ id: o.id, type: 'custom_field_option' })) },
    },
    links: { self: `${API_PREFIX}/custom_field_definitions/${d.id}` },
  };
}

export function renderOption(o: CustomFieldOptionsTable): Resource {
  return {
    id: o.id,
    type: 'custom_field_option',
    attributes: {
      label: o.label,
      value: o.value,
      position: o.position,
      created_at: o.created_at,
      updated_at: o.updated_at,
    },
    relationships: {
      definition: { data: { id: o.definition_id, type: 'custom_field_definition' } },
    },
    links: {
      self: `${API_PREFIX}/custom_field_definitions/${o.definition_id}/options/${o.id}`,
    },
  };
}

export class CustomFields {
  constructor(private readonly stores: ServiceStorage) {}

  /** The definition's options, for rendering it. */
  async renderDefinitions(defs: CustomFieldDefinitionsTable[]): Promise<Resource[]> {
    const options = await this.stores.customFields.optionsOf(defs.map((d) => d.id));
    return defs.map((d) =>
      renderDefinition(
        d,
        options.filter((o) => o.definition_id === d.id),
      ),
    );
  }

  /** What a value of `def` may be (its options and limits). */
  async rule(def: CustomFieldDefinitionsTable): Promise<ValueRule> {
    const options = def.data_type.startsWith('enum')
      ? await this.stores.customFields.optionsOf([def.id])
      : [];
    const validation = parseJson(def.validation);
    return {
      data_type: def.data_type,
      options: options.map((o) => o.value),
      validation:
        validation && typeof validation === 'object'
          ? (validation as Record<string, unknown>)
          : null,
    };
  }

  /**
   * Checks a value of `def` (its type, options and limits; a reference names one of the
   * account's parties) and gives what to store; a value that does not fit is a 422 pointing at
   * `pointer`.
   */
  async check(
    accountId: string,
    def: CustomFieldDefinitionsTable,
    value: unknown,
    pointer: string,
  ): Promise<StoredValue> {
    const checked = checkValue(await this.rule(def), value);
    if (!checked.ok) {
      throw new ApiError(422, `${def.api_slug}: ${checked.detail}`, {
        code: 'invalid',
        source: { pointer },
      });
    }
    if (def.data_type === 'reference') {
      const party = await this.stores.parties.owned(accountId, String(checked.value));
      if (!party) {
        throw new ApiError(422, `${def.api_slug}: no party with id ${String(checked.value)}`, {
          code: 'invalid',
          source: { pointer },
        });
      }
    }
    return { json: JSON.stringify(checked.value), matchText: matchText(checked.value) };
  }

  /**
   * Checks and stores a record's value of `def`; a value that does not fit is a 422 pointing at
   * `pointer`. The record must be the account's own (the caller checked).
   */
  async set(
    accountId: string,
    def: CustomFieldDefinitionsTable,
    entity: { type: CustomFieldEntityType; id: string },
    value: unknown,
    pointer: string,
  ): Promise<CustomFieldValuesTable> {
    return this.stores.customFields.setValue(
      accountId,
      { definitionId: def.id, entityType: entity.type, entityId: entity.id },
      await this.check(accountId, def, value, pointer),
    );
  }

  /**
   * Sets several values of one record by api_slug (null removes one): every value is checked
   * before any is written, so a bad one (422 pointing at `<pointerBase>/<api_slug>`) changes nothing.
   */
  async setMany(
    accountId: string,
    entity: { type: CustomFieldEntityType; id: string },
    values: Record<string, unknown>,
    pointerBase: string,
  ): Promise<void> {
    const planned: { def: CustomFieldDefinitionsTable; value: StoredValue | null }[] = [];
    for (const [slug, value] of Object.entries(values)) {
      const pointer = `${pointerBase}/${slug}`;
      const def = await this.definitionForSlug(accountId, entity.type, slug, pointer);
      planned.push({
        def,
        value: value === null ? null : await this.check(accountId, def, value, pointer),
      });
    }
    for (const { def, value } of planned) {
      if (value !== null) {
        await this.stores.customFields.setValue(
          accountId,
          { definitionId: def.id, entityType: entity.type, entityId: entity.id },
          value,
        );
        continue;
      }
      const existing = await this.stores.customFields.valueFor(accountId, def.id, entity.id);
      if (existing) await this.stores.customFields.deleteValue(accountId, existing);
    }
  }

  /**
   * Checks a tracking request's `initial_custom_fields` (each api_slug a definition of the
   * account for shipments or containers, each value fitting it) and gives them staged for the
   * request to set once its shipment exists. A bad entry is a 422 pointing at it.
   */
  async stage(
    accountId: string,
    initial: InitialCustomFields | undefined,
    pointerBase: string,
  ): Promise<StagedCustomFieldValue[]> {
    const staged: StagedCustomFieldValue[] = [];
    /** One entry's definition and checked value; 422 pointing into `pointer`. */
    const checkEntry = async (
      target: StagedCustomFieldValue['target'],
      entry: { api_slug: string; value: unknown },
      pointer: string,
    ) => {
      const def = await this.definitionForSlug(
        accountId,
        target,
        entry.api_slug,
        `${pointer}/api_slug`,
      );
      const value = await this.check(accountId, def, entry.value, `${pointer}/value`);
      return { target, definitionId: def.id, value };
    };
    for (const [index, entry] of (initial?.shipment ?? []).entries()) {
      staged.push(await checkEntry('shipment', entry, `${pointerBase}/shipment/${index}`));
    }
    for (const [index, entry] of (initial?.containers ?? []).entries()) {
      const pointer = `${pointerBase}/containers/${index}`;
      const checked = await checkEntry('container', entry, pointer);
      const number = normalizeNumber(entry.number ?? '');
      if (number && !CONTAINER_NUMBER_SHAPE.test(number)) {
        throw new ApiError(
          422,
          `'${entry.number}' is not a container number (four letters and seven digits)`,
          { code: 'invalid', source: { pointer: `${pointer}/number` } },
        );
      }
      staged.push({ ...checked, ...(number ? { containerNumber: number } : {}) });
    }
    return staged;
  }

  /** The definition a value is set with: by api_slug for the record's type; 422 when unknown. */
  async definitionForSlug(
    accountId: string,
    entityType: CustomFieldEntityType,
    apiSlug: unknown,
    pointer: string,
  ): Promise<CustomFieldDefinitionsTable> {
    const slug = typeof apiSlug === 'string' ? apiSlug : '';
    const def = slug
      ? await this.stores.customFields.definitionBySlug(
          accountId,
          definitionEntityType(entityType),
          slug,
        )
      : undefined;
    if (!def) {
      throw new ApiError(
        422,
        `No custom field definition with api_slug '${slug}' for ${definitionEntityType(entityType)}`,
        { code: 'not_found', source: { pointer } },
      );
    }
    return def;
  }

  /**
   * `filter[custom_fields][<api_slug>]=<value>` parameters of a list: the records whose value
   * of that field is (or, for enum_multi, holds) the value, in any case. An unknown api_slug is a
   * 400 naming the parameter.
   */
  async listFilters(
    accountId: string,
    entityType: CustomFieldEntityType,
    query: Record<string, unknown>,
  ): Promise<CustomFieldMatch[]> {
    const matches: CustomFieldMatch[] = [];
    for (const [parameter, raw] of Object.entries(query)) {
      const slug = CUSTOM_FIELD_FILTER_RE.exec(parameter)?.[1];
      if (slug === undefined) continue;
      const def = await this.stores.customFields.definitionBySlug(
        accountId,
        definitionEntityType(entityType),
        slug,
      );
      const wanted = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      if (!def || typeof wanted !== 'string' || !wanted) {
        throw new ApiError(
          400,
          def
            ? `${parameter} needs a value`
            : `No ${definitionEntityType(entityType)} custom field with api_slug '${slug}'`,
          { source: { parameter } },
        );
      }
      matches.push({ definitionId: def.id, pattern: matchPattern(wanted) });
    }
    return matches;
  }

  /** Renders values with their api_slug and display_value (one query per related table). */
  async renderValues(accountId: string, rows: CustomFieldValuesTable[]): Promise<Resource[]> {
    if (rows.length === 0) return [];
    const defIds = [...new Set(rows.map((r) => r.definition_id))];
    const defs = new Map(
      (await this.stores.customFields.definitionsByIds(accountId, defIds)).map((d) => [d.id, d]),
    );
    const labels = new Map<string, Map<string, string>>();
    for (const o of await this.stores.customFields.optionsOf(defIds)) {
      if (!labels.has(o.definition_id)) labels.set(o.definition_id, new Map());
      labels.get(o.definition_id)!.set(o.value, o.label);
    }
    const partyIds = rows
      .filter((r) => defs.get(r.definition_id)?.data_type === 'reference')
      .map((r) => String(JSON.parse(r.value)));
    if (partyIds.length) {
      const names = new Map(
        (await this.stores.parties.ownedByIds(accountId, partyIds)).map((p) => [
          p.id,
          p.company_name,
        ]),
      );
      for (const r of rows) {
        if (defs.get(r.definition_id)?.data_type === 'reference')
          labels.set(r.definition_id, names);
      }
    }
    return rows.flatMap((r) => {
      const def = defs.get(r.definition_id);
      if (!def) return [];
      const value = JSON.parse(r.value) as unknown;
      return [
        {
          id: r.id,
          type: 'custom_field',
          attributes: {
            api_slug: def.api_slug,
            display_name: def.display_name,
            data_type: def.data_type,
            value,
            display_value: displayValue(def.data_type, value, labels.get(def.id) ?? new Map()),
            created_at: r.created_at,
            updated_at: r.updated_at,
          },
          relationships: {
            entity: { data: { id: r.entity_id, type: r.entity_type } },
            definition: { data: { id: def.id, type: 'custom_field_definition' } },
          },
          links: { self: `${API_PREFIX}/custom_fields/${r.id}` },
        },
      ];
    });
  }

  /**
   * `include=custom_fields`: copies of the records with a `custom_fields` relationship, and the
   * values to add to `included`. Cached renderings are left as they are.
   */
  async attach(
    accountId: string,
    entityType: CustomFieldEntityType,
    records: Resource[],
  ): Promise<{ data: Resource[]; included: Resource[] }> {
    const rows = await this.stores.customFields.valuesOf(
      accountId,
      entityType,
      records.map((r) => r.id),
    );
    const included = await this.renderValues(accountId, rows);
    const byEntity = new Map<string, { id: string; type: string }[]>();
    for (const v of included) {
      const entityId = (v.relationships!.entity!.data as { id: string }).id;
      if (!byEntity.has(entityId)) byEntity.set(entityId, []);
      byEntity.get(entityId)!.push({ id: v.id, type: 'custom_field' });
    }
    const data = records.map((r) => ({
      ...r,
      relationships: { ...r.relationships, custom_fields: { data: byEntity.get(r.id) ?? [] } },
    }));
    return { data, included };
  }
}

/**
 * Takes `custom_fields` out of an `include` parameter (it is served here, not by the generic
 * include walk); what remains goes to parseInclude.
 */
export function splitCustomFieldsInclude(raw: unknown): { rest: unknown; customFields: boolean } {
  if (typeof raw !== 'string') return { rest: raw, customFields: false };
  const items = raw.split(',').map((s) => s.trim());
  const customFields = items.includes('custom_fields');
  if (!customFields) return { rest: raw, customFields };
  return { rest: items.filter((s) => s && s !== 'custom_fields').join(','), customFields };
}

/** Adds `custom_fields` to records and `included` when the include parameter asked for them. */
export async function withCustomFields(
  ctx: { customFields: CustomFields },
  accountId: string,
  entityType: CustomFieldEntityType,
  includes: { customFields: boolean },
  data: Resource[],
  included: Resource[],
): Promise<{ data: Resource[]; included: Resource[] }> {
  if (!includes.customFields) return { data, included };
  const attached = await ctx.customFields.attach(accountId, entityType, data);
  return { data: attached.data, included: [...included, ...attached.included] };
}
