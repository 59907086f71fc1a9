/**
 * Custom field values as use cases, callable without HTTP: listing them (by record type, record
 * and definition), setting one on a record the account owns, changing and removing it, through
 * /custom_fields or by api_slug under the record. Values are checked by `CustomFields.set`.
 */
import { CUSTOM_FIELD_ENTITY_TYPES } from '../../shared/api/custom-fields';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { Page } from '../jsonapi/pagination';
import type { CustomFieldEntityType } from '../store/custom-fields';
import { unprocessable } from './definitions';
import { ENTITY_TYPES, definitionEntityType } from './value-rules';

type Entity = { type: CustomFieldEntityType; id: string };
const VALUE_POINTER = '/data/attributes/value';

/**
 * `filter[entity_type]` as the store names it: the API's name (Shipment) or the stored one
 * (shipment); anything else is a 400 naming the parameter.
 */
function entityTypeFilter(name: string | undefined): CustomFieldEntityType | undefined {
  if (!name) return undefined;
  const entityType = Object.hasOwn(ENTITY_TYPES, name)
    ? ENTITY_TYPES[name as keyof typeof ENTITY_TYPES]
    : (Object.values(ENTITY_TYPES) as string[]).includes(name)
      ? (name as CustomFieldEntityType)
      : undefined;
  if (!entityType) {
    throw new ApiError(
      400,
      `filter[entity_type] must be one of ${CUSTOM_FIELD_ENTITY_TYPES.join(', ')}`,
      { source: { parameter: 'filter[entity_type]' } },
    );
  }
  return entityType;
}

/** One page of the account's values, narrowed by record type, record and definition. */
export function listValues(
  ctx: ServiceContext,
  accountId: string,
  filter: { entityType?: string; entityId?: string; definitionId?: string },
  page: Page,
) {
  const entityType = entityTypeFilter(filter.entityType);
  return ctx.stores.customFields.values(
    accountId,
    { entityType, entityId: filter.entityId, definitionId: filter.definitionId },
    page,
  );
}

/** The account's value with this id; any other is a 404. */
export async function valueOf(ctx: ServiceContext, accountId: string, id: string) {
  const value = isUuid(id) ? await ctx.stores.customFields.ownedValue(accountId, id) : undefined;
  if (!value) throw notFound('No custom field with this id');
  return value;
}

/** A new value: 422 when the slug is unknown for the record's type or already set. */
export async function createValue(
  ctx: ServiceContext,
  accountId: string,
  entity: Entity,
  attributes: { api_slug: string; value: unknown },
) {
  const def = await ctx.customFields.definitionForSlug(
    accountId,
    entity.type,
    attributes.api_slug,
    '/data/attributes/api_slug',
  );
  if (await ctx.stores.customFields.valueFor(accountId, def.id, entity.id)) {
    throw unprocessable(
      `${def.api_slug} is already set on this ${entity.type}; change it with PATCH`,
      '/data/attributes/api_slug',
      'taken',
    );
  }
  return ctx.customFields.set(accountId, def, entity, attributes.value, VALUE_POINTER);
}

/** POST /custom_fields: the record named in the relationship must be the account's (422). */
export async function createValueOn(
  ctx: ServiceContext,
  accountId: string,
  entity: Entity,
  attributes: { api_slug: string; value: unknown },
) {
  const owned =
    isUuid(entity.id) &&
    (await ctx.stores.customFields.ownsEntity(accountId, entity.type, entity.id));
  if (!owned) {
    throw unprocessable(
      `No ${entity.type} with id ${entity.id}`,
      '/data/relationships/entity/data/id',
      'not_found',
    );
  }
  return createValue(ctx, accountId, entity, attributes);
}

/** Changes the value with this id, checked against its definition. */
export async function changeValue(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  value: unknown,
) {
  const existing = await valueOf(ctx, accountId, id);
  const [def] = await ctx.stores.customFields.definitionsByIds(accountId, [existing.definition_id]);
  if (!def) throw notFound('No custom field with this id');
  const entity = { type: existing.entity_type as CustomFieldEntityType, id: existing.entity_id };
  return ctx.customFields.set(accountId, def, entity, value, VALUE_POINTER);
}

/** Removes the value with this id. */
export async function deleteValue(ctx: ServiceContext, accountId: string, id: string) {
  const row = await valueOf(ctx, accountId, id);
  await ctx.stores.customFields.deleteValue(accountId, row);
}

// --- values of one record, by api_slug -------------------------------------------------------

/** The account's record of this type; any other is a 404. */
export async function ownedEntity(
  ctx: ServiceContext,
  accountId: string,
  type: CustomFieldEntityType,
  id: string,
): Promise<Entity> {
  if (!isUuid(id) || !(await ctx.stores.customFields.ownsEntity(accountId, type, id))) {
    throw notFound();
  }
  return { type, id };
}

/** The definition with this api_slug for the record's type (404 when none) and its value. */
async function valueBySlug(ctx: ServiceContext, accountId: string, entity: Entity, slug: string) {
  const store = ctx.stores.customFields;
  const def = await store.definitionBySlug(accountId, definitionEntityType(entity.type), slug);
  if (!def) throw notFound(`No custom field definition with api_slug '${slug}'`);
  return { def, value: await store.valueFor(accountId, def.id, entity.id) };
}

/** One page of the values set on the account's record. */
export async function valuesOfEntity(
  ctx: ServiceContext,
  accountId: string,
  type: CustomFieldEntityType,
  id: string,
  page: Page,
) {
  const entity = await ownedEntity(ctx, accountId, type, id);
  return ctx.stores.customFields.values(
    accountId,
    { entityType: entity.type, entityId: entity.id },
    page,
  );
}

/** Sets or changes the value of the field with this api_slug on the account's record. */
export async function setBySlug(
  ctx: ServiceContext,
  accountId: string,
  target: { type: CustomFieldEntityType; id: string; slug: string },
  value: unknown,
) {
  const entity = await ownedEntity(ctx, accountId, target.type, target.id);
  const { def } = await valueBySlug(ctx, accountId, entity, target.slug);
  return ctx.customFields.set(accountId, def, entity, value, VALUE_POINTER);
}

/** Removes the value of the field with this api_slug from the account's record. */
export async function removeBySlug(
  ctx: ServiceContext,
  accountId: string,
  target: { type: CustomFieldEntityType; id: string; slug: string },
) {
  const entity = await ownedEntity(ctx, accountId, target.type, target.id);
  const { value } = await valueBySlug(ctx, accountId, entity, target.slug);
  if (!value) throw notFound(`${target.slug} is not set on this ${target.type}`);
  await ctx.stores.customFields.deleteValue(accountId, value);
}
