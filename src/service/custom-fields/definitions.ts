/**
 * Custom field definitions and their options as use cases, callable without HTTP: what a new or
 * edited definition may be (api_slug, display name, reference type, default value), and the
 * options of enum fields. Failures are JSON:API errors pointing at the attribute at fault.
 */
import {
  CUSTOM_FIELD_DATA_TYPES,
  type CustomFieldDefinitionCreateBody,
  type CustomFieldDefinitionUpdateBody,
  type CustomFieldOptionCreateBody,
  type CustomFieldOptionUpdateBody,
} from '../../shared/api/custom-fields';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { Page } from '../jsonapi/pagination';
import type { DefinitionChanges, DefinitionListFilter } from '../store/custom-fields';
import type { CustomFieldDefinitionsTable } from '../store/schema';
import {
  API_SLUG_RE,
  REFERENCE_TYPES,
  checkValue,
  isStorableOptionValue,
  matchPattern,
} from './value-rules';

type DefinitionAttributes = CustomFieldDefinitionCreateBody['data']['attributes'];
type DefinitionEdits = CustomFieldDefinitionUpdateBody['data']['attributes'];

/** A 422 at one attribute of the request body. */
export const unprocessable = (detail: string, pointer: string, code = 'invalid') =>
  new ApiError(422, detail, { code, source: { pointer } });

const attribute = (name: string) => `/data/attributes/${name}`;

/** A definition's default value checked like any value; enum defaults must be an option. */
function checkDefault(
  dataType: string,
  value: unknown,
  validation: Record<string, unknown> | null | undefined,
  options: string[] = [],
): string | null {
  if (value === undefined || value === null) return null;
  if (!(CUSTOM_FIELD_DATA_TYPES as readonly string[]).includes(dataType)) return null;
  const checked = checkValue(
    { data_type: dataType, options, validation: validation ?? null },
    value,
  );
  if (!checked.ok) {
    throw unprocessable(`default_value: ${checked.detail}`, attribute('default_value'));
  }
  return JSON.stringify(checked.value);
}

/** A reference field names what it points at; no other field may. */
function checkReferenceType(attrs: DefinitionAttributes): string | null {
  const referenceType = attrs.reference_type ?? null;
  if (attrs.data_type === 'reference') {
    if (!referenceType || !(REFERENCE_TYPES as readonly string[]).includes(referenceType)) {
      throw unprocessable(
        `reference_type must be one of ${REFERENCE_TYPES.join(', ')} for a reference field`,
        attribute('reference_type'),
      );
    }
  } else if (referenceType) {
    throw unprocessable('reference_type is only for reference fields', attribute('reference_type'));
  }
  return referenceType;
}

/** One page of the account's definitions. */
export function listDefinitions(
  ctx: ServiceContext,
  accountId: string,
  filter: DefinitionListFilter,
  page: Page,
) {
  return ctx.stores.customFields.definitions(accountId, filter, page);
}

/** The account's definition with this id; any other is a 404. */
export async function definitionOf(ctx: ServiceContext, accountId: string, id: string) {
  const def = isUuid(id) ? await ctx.stores.customFields.ownedDefinition(accountId, id) : undefined;
  if (!def) throw notFound('No custom field definition with this id');
  return def;
}

/** A new definition; its api_slug must be free for its entity type (422 `taken`). */
export async function createDefinition(
  ctx: ServiceContext,
  accountId: string,
  attrs: DefinitionAttributes,
): Promise<CustomFieldDefinitionsTable> {
  if (!API_SLUG_RE.test(attrs.api_slug)) {
    throw unprocessable(
      'api_slug must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 63)',
      attribute('api_slug'),
    );
  }
  const displayName = attrs.display_name.trim();
  if (!displayName) throw unprocessable("display_name can't be blank", attribute('display_name'));
  const referenceType = checkReferenceType(attrs);
  const defaultValue = checkDefault(attrs.data_type, attrs.default_value, attrs.validation);
  const created = await ctx.stores.customFields.createDefinition(accountId, {
    entity_type: attrs.entity_type,
    api_slug: attrs.api_slug,
    display_name: displayName,
    description: attrs.description ?? null,
    data_type: attrs.data_type,
    reference_type: referenceType,
    validation: attrs.validation == null ? null : JSON.stringify(attrs.validation),
    default_format: attrs.default_format ?? null,
    default_value: defaultValue,
  });
  if (!created) {
    throw unprocessable(
      `api_slug '${attrs.api_slug}' is already used by another ${attrs.entity_type} field`,
      attribute('api_slug'),
      'taken',
    );
  }
  return created;
}

/** Edits what may change of a definition (entity_type, api_slug and data_type are fixed). */
export async function editDefinition(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  attrs: DefinitionEdits,
): Promise<CustomFieldDefinitionsTable> {
  const def = await definitionOf(ctx, accountId, id);
  const changes: DefinitionChanges = {};
  if (attrs.display_name !== undefined) {
    const name = attrs.display_name.trim();
    if (!name) throw unprocessable("display_name can't be blank", attribute('display_name'));
    changes.display_name = name;
  }
  if (attrs.description !== undefined) changes.description = attrs.description;
  if (attrs.default_format !== undefined) changes.default_format = attrs.default_format;
  const validation =
    attrs.validation !== undefined
      ? attrs.validation
      : (JSON.parse(def.validation ?? 'null') as Record<string, unknown> | null);
  if (attrs.validation !== undefined) {
    changes.validation = attrs.validation == null ? null : JSON.stringify(attrs.validation);
  }
  if (attrs.default_value !== undefined) {
    const rule = await ctx.customFields.rule(def);
    changes.default_value =
      attrs.default_value === null
        ? null
        : checkDefault(def.data_type, attrs.default_value, validation, rule.options);
  }
  await ctx.stores.customFields.updateDefinition(accountId, def.id, changes);
  return definitionOf(ctx, accountId, def.id);
}

/** Deletes a definition with its options and every value set with it. */
export async function deleteDefinition(ctx: ServiceContext, accountId: string, id: string) {
  const def = await definitionOf(ctx, accountId, id);
  await ctx.stores.customFields.deleteDefinition(accountId, def.id);
}

// --- options of enum fields ------------------------------------------------------------------

/** The options of the account's definition, in their order. */
export async function optionsOf(ctx: ServiceContext, accountId: string, definitionId: string) {
  const def = await definitionOf(ctx, accountId, definitionId);
  return ctx.stores.customFields.optionsOf([def.id]);
}

/** One option of the account's definition; an unknown definition or option is a 404. */
export async function optionOf(
  ctx: ServiceContext,
  accountId: string,
  ids: { definition_id: string; option_id: string },
) {
  const def = await definitionOf(ctx, accountId, ids.definition_id);
  const option = isUuid(ids.option_id)
    ? await ctx.stores.customFields.ownedOption(accountId, def.id, ids.option_id)
    : undefined;
  if (!option) throw notFound('No option with this id on this custom field definition');
  return { def, option };
}

/** A new option of an enum field; its value must be storable and not taken. */
export async function createOption(
  ctx: ServiceContext,
  accountId: string,
  definitionId: string,
  attrs: CustomFieldOptionCreateBody['data']['attributes'],
) {
  const def = await definitionOf(ctx, accountId, definitionId);
  if (!def.data_type.startsWith('enum')) {
    throw new ApiError(
      422,
      `Only enum and enum_multi fields have options (${def.api_slug} is ${def.data_type})`,
      { code: 'invalid' },
    );
  }
  if (!isStorableOptionValue(attrs.value)) {
    throw unprocessable(
      'value must be non-blank text without control characters',
      attribute('value'),
    );
  }
  const label = attrs.label.trim();
  if (!label) throw unprocessable("label can't be blank", attribute('label'));
  const option = await ctx.stores.customFields.createOption(accountId, def.id, {
    label,
    value: attrs.value,
    position: attrs.position ?? null,
  });
  if (!option) {
    throw unprocessable(
      `${def.api_slug} already has an option with value '${attrs.value}'`,
      attribute('value'),
      'taken',
    );
  }
  return option;
}

/** Changes an option's label or position (its value is fixed). */
export async function editOption(
  ctx: ServiceContext,
  accountId: string,
  ids: { definition_id: string; option_id: string },
  attrs: CustomFieldOptionUpdateBody['data']['attributes'],
) {
  const { def, option } = await optionOf(ctx, accountId, ids);
  const changes: { label?: string; position?: number | null } = {};
  if (attrs.label !== undefined) {
    const label = attrs.label.trim();
    if (!label) throw unprocessable("label can't be blank", attribute('label'));
    changes.label = label;
  }
  if (attrs.position !== undefined) changes.position = attrs.position;
  await ctx.stores.customFields.updateOption(accountId, option.id, changes);
  return (await ctx.stores.customFields.ownedOption(accountId, def.id, option.id))!;
}

/** Deletes an option no value uses; one in use is a 422 `in_use`. */
export async function deleteOption(
  ctx: ServiceContext,
  accountId: string,
  ids: { definition_id: string; option_id: string },
) {
  const { def, option } = await optionOf(ctx, accountId, ids);
  if (await ctx.stores.customFields.valueMatches(def.id, matchPattern(option.value))) {
    throw new ApiError(
      422,
      `Option '${option.value}' is set on records; change or delete those values first`,
      { code: 'in_use' },
    );
  }
  await ctx.stores.customFields.deleteOption(accountId, option.id);
}
