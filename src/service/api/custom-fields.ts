/**
 * Custom field definitions and their options, and custom field values: through /custom_fields
 * and nested under the shipment, container or tracking request they are set on.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  CustomFieldCreateBody,
  CustomFieldCreateWithEntityBody,
  CustomFieldDefinitionCreateBody,
  CustomFieldDefinitionDocument,
  CustomFieldDefinitionListDocument,
  CustomFieldDefinitionUpdateBody,
  CustomFieldDocument,
  CustomFieldListDocument,
  CustomFieldOptionCreateBody,
  CustomFieldOptionDocument,
  CustomFieldOptionListDocument,
  CustomFieldOptionUpdateBody,
  CustomFieldUpdateBody,
  CUSTOM_FIELD_DATA_TYPES,
  CUSTOM_FIELD_ENTITY_TYPES,
} from '../../shared/api/custom-fields';
import type { ServiceContext } from '../context';
import { renderOption } from '../custom-fields';
import {
  API_SLUG_RE,
  ENTITY_TYPES,
  REFERENCE_TYPES,
  checkValue,
  isStorableOptionValue,
  matchPattern,
} from '../custom-fields/value-rules';
import { ApiError, notFound } from '../jsonapi/errors';
import { parsePage } from '../jsonapi/pagination';
import type { CustomFieldEntityType } from '../store/custom-fields';
import type { CustomFieldDefinitionsTable } from '../store/schema';
import { PageQuery, accountOf, isUuid, sendCollection, sendDocument } from './http';

const DeletedDocument = Type.Object({ meta: Type.Object({}) });
const unprocessable = (detail: string, pointer: string, code = 'invalid') =>
  new ApiError(422, detail, { code, source: { pointer } });

/** The nested value routes: path prefix, its id parameter and the record type. */
const NESTED = [
  { path: 'shipments', param: 'shipment_id', type: 'shipment', tag: 'Shipments' },
  { path: 'containers', param: 'container_id', type: 'container', tag: 'Containers' },
  {
    path: 'tracking_requests',
    param: 'tracking_request_id',
    type: 'tracking_request',
    tag: 'Tracking Requests',
  },
] as const satisfies { path: string; param: string; type: CustomFieldEntityType; tag: string }[];

export function registerCustomFieldRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const store = ctx.stores.customFields;
  const fields = ctx.customFields;

  async function ownedDefinition(accountId: string, id: string) {
    const def = isUuid(id) ? await store.ownedDefinition(accountId, id) : undefined;
    if (!def) throw notFound('No custom field definition with this id');
    return def;
  }

  async function definitionDocument(def: CustomFieldDefinitionsTable) {
    const [data] = await fields.renderDefinitions([def]);
    const options = await store.optionsOf([def.id]);
    return { data, included: options.map(renderOption) };
  }

  // --- definitions -----------------------------------------------------------------------

  app.get(
    '/custom_field_definitions',
    {
      schema: {
        tags: ['Custom Field Definitions'],
        summary: 'List custom field definitions',
        querystring: Type.Object({
          ...PageQuery,
          'filter[entity_type]': Type.Optional(Type.String()),
          'filter[data_type]': Type.Optional(Type.String()),
          'filter[display_name]': Type.Optional(
            Type.String({ description: 'Display names starting with this text (any case).' }),
          ),
        }),
        response: { 200: CustomFieldDefinitionListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, string | undefined>;
      const page = parsePage(query);
      const { total, rows } = await store.definitions(
        account.id,
        {
          entityType: query['filter[entity_type]'] || undefined,
          dataType: query['filter[data_type]'] || undefined,
          displayNamePrefix: query['filter[display_name]'] || undefined,
        },
        page,
      );
      const data = await fields.renderDefinitions(rows);
      return sendCollection(request, reply, page, total, { data });
    },
  );

  app.post(
    '/custom_field_definitions',
    {
      schema: {
        tags: ['Custom Field Definitions'],
        summary: 'Create a custom field definition',
        body: CustomFieldDefinitionCreateBody,
        response: { 201: CustomFieldDefinitionDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const attrs = (request.body as CustomFieldDefinitionCreateBody).data.attributes;
      const p = (name: string) => `/data/attributes/${name}`;
      if (!API_SLUG_RE.test(attrs.api_slug)) {
        throw unprocessable(
          'api_slug must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 63)',
          p('api_slug'),
        );
      }
      const displayName = attrs.display_name.trim();
      if (!displayName) throw unprocessable("display_name can't be blank", p('display_name'));
      const referenceType = attrs.reference_type ?? null;
      if (attrs.data_type === 'reference') {
        if (!referenceType || !(REFERENCE_TYPES as readonly string[]).includes(referenceType)) {
          throw unprocessable(
            `reference_type must be one of ${REFERENCE_TYPES.join(', ')} for a reference field`,
            p('reference_type'),
          );
        }
      } else if (referenceType) {
        throw unprocessable('reference_type is only for reference fields', p('reference_type'));
      }
      const defaultValue = checkDefault(attrs.data_type, attrs.default_value, attrs.validation);
      const created = await store.createDefinition(account.id, {
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
          p('api_slug'),
          'taken',
        );
      }
      const doc = await definitionDocument(created);
      return sendDocument(reply, 201, { data: doc.data, links: { self: doc.data!.links!.self } });
    },
  );

  app.get(
    '/custom_field_definitions/:id',
    {
      schema: {
        tags: ['Custom Field Definitions'],
        summary: 'Get a custom field definition (its options included)',
        params: Type.Object({ id: Type.String() }),
        response: { 200: CustomFieldDefinitionDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const def = await ownedDefinition(account.id, (request.params as { id: string }).id);
      return sendDocument(reply, 200, await definitionDocument(def));
    },
  );

  app.patch(
    '/custom_field_definitions/:id',
    {
      schema: {
        tags: ['Custom Field Definitions'],
        summary: 'Edit a custom field definition (entity_type, api_slug and data_type are fixed)',
        params: Type.Object({ id: Type.String() }),
        body: CustomFieldDefinitionUpdateBody,
        response: { 200: CustomFieldDefinitionDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const def = await ownedDefinition(account.id, (request.params as { id: string }).id);
      const attrs = (request.body as CustomFieldDefinitionUpdateBody).data.attributes;
      const changes: Parameters<typeof store.updateDefinition>[2] = {};
      if (attrs.display_name !== undefined) {
        const name = attrs.display_name.trim();
        if (!name)
          throw unprocessable("display_name can't be blank", '/data/attributes/display_name');
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
        const rule = await fields.rule(def);
        changes.default_value =
          attrs.default_value === null
            ? null
            : checkDefault(def.data_type, attrs.default_value, validation, rule.options);
      }
      await store.updateDefinition(account.id, def.id, changes);
      const updated = await ownedDefinition(account.id, def.id);
      return sendDocument(reply, 200, await definitionDocument(updated));
    },
  );

  app.delete(
    '/custom_field_definitions/:id',
    {
      schema: {
        tags: ['Custom Field Definitions'],
        summary: 'Delete a custom field definition with its options and every value set with it',
        params: Type.Object({ id: Type.String() }),
        response: { 200: DeletedDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const def = await ownedDefinition(account.id, (request.params as { id: string }).id);
      await store.deleteDefinition(account.id, def.id);
      return sendDocument(reply, 200, { meta: {} });
    },
  );

  // --- options ---------------------------------------------------------------------------

  const OptionParams = Type.Object({ definition_id: Type.String(), option_id: Type.String() });

  async function ownedOption(
    accountId: string,
    params: { definition_id: string; option_id: string },
  ) {
    const def = await ownedDefinition(accountId, params.definition_id);
    const option = isUuid(params.option_id)
      ? await store.ownedOption(accountId, def.id, params.option_id)
      : undefined;
    if (!option) throw notFound('No option with this id on this custom field definition');
    return { def, option };
  }

  app.get(
    '/custom_field_definitions/:definition_id/options',
    {
      schema: {
        tags: ['Custom Field Options'],
        summary: 'List the options of an enum custom field',
        params: Type.Object({ definition_id: Type.String() }),
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: CustomFieldOptionListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const page = parsePage(request.query as Record<string, unknown>);
      const def = await ownedDefinition(
        account.id,
        (request.params as { definition_id: string }).definition_id,
      );
      const all = await store.optionsOf([def.id]);
      const data = all.slice(page.offset, page.offset + page.size).map(renderOption);
      return sendCollection(request, reply, page, all.length, { data });
    },
  );

  app.post(
    '/custom_field_definitions/:definition_id/options',
    {
      schema: {
        tags: ['Custom Field Options'],
        summary: 'Add an option to an enum custom field',
        params: Type.Object({ definition_id: Type.String() }),
        body: CustomFieldOptionCreateBody,
        response: { 201: CustomFieldOptionDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const def = await ownedDefinition(
        account.id,
        (request.params as { definition_id: string }).definition_id,
      );
      if (!def.data_type.startsWith('enum')) {
        throw new ApiError(
          422,
          `Only enum and enum_multi fields have options (${def.api_slug} is ${def.data_type})`,
          {
            code: 'invalid',
          },
        );
      }
      const attrs = (request.body as CustomFieldOptionCreateBody).data.attributes;
      if (!isStorableOptionValue(attrs.value)) {
        throw unprocessable(
          'value must be non-blank text without control characters',
          '/data/attributes/value',
        );
      }
      const label = attrs.label.trim();
      if (!label) throw unprocessable("label can't be blank", '/data/attributes/label');
      const option = await store.createOption(account.id, def.id, {
        label,
        value: attrs.value,
        position: attrs.position ?? null,
      });
      if (!option) {
        throw unprocessable(
          `${def.api_slug} already has an option with value '${attrs.value}'`,
          '/data/attributes/value',
          'taken',
        );
      }
      const data = renderOption(option);
      return sendDocument(reply, 201, { data, links: { self: data.links!.self } });
    },
  );

  app.get(
    '/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: ['Custom Field Options'],
        summary: 'Get an option of an enum custom field',
        params: OptionParams,
        response: { 200: CustomFieldOptionDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { option } = await ownedOption(account.id, request.params as never);
      return sendDocument(reply, 200, { data: renderOption(option) });
    },
  );

  app.patch(
    '/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: ['Custom Field Options'],
        summary: "Edit an option's label or position (its value is fixed)",
        params: OptionParams,
        body: CustomFieldOptionUpdateBody,
        response: { 200: CustomFieldOptionDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { def, option } = await ownedOption(account.id, request.params as never);
      const attrs = (request.body as CustomFieldOptionUpdateBody).data.attributes;
      const changes: { label?: string; position?: number | null } = {};
      if (attrs.label !== undefined) {
        const label = attrs.label.trim();
        if (!label) throw unprocessable("label can't be blank", '/data/attributes/label');
        changes.label = label;
      }
      if (attrs.position !== undefined) changes.position = attrs.position;
      await store.updateOption(account.id, option.id, changes);
      const updated = await store.ownedOption(account.id, def.id, option.id);
      return sendDocument(reply, 200, { data: renderOption(updated!) });
    },
  );

  app.delete(
    '/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: ['Custom Field Options'],
        summary: 'Delete an option no value uses',
        params: OptionParams,
        response: { 200: DeletedDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { def, option } = await ownedOption(account.id, request.params as never);
      if (await store.valueMatches(def.id, matchPattern(option.value))) {
        throw new ApiError(
          422,
          `Option '${option.value}' is set on records; change or delete those values first`,
          { code: 'in_use' },
        );
      }
      await store.deleteOption(account.id, option.id);
      return sendDocument(reply, 200, { meta: {} });
    },
  );

  // --- values: /custom_fields ---------------------------------------------------------------

  async function ownedValue(accountId: string, id: string) {
    const value = isUuid(id) ? await store.ownedValue(accountId, id) : undefined;
    if (!value) throw notFound('No custom field with this id');
    return value;
  }

  async function valueDocument(
    accountId: string,
    row: Parameters<typeof fields.renderValues>[1][number],
  ) {
    const [data] = await fields.renderValues(accountId, [row]);
    return { data, links: { self: data!.links!.self } };
  }

  app.get(
    '/custom_fields',
    {
      schema: {
        tags: ['Custom Fields'],
        summary: 'List custom field values',
        querystring: Type.Object({
          ...PageQuery,
          'filter[entity_type]': Type.Optional(
            Type.String({ description: 'Shipment, Container or TrackingRequest' }),
          ),
          'filter[entity_id]': Type.Optional(Type.String()),
          'filter[definition_id]': Type.Optional(Type.String()),
        }),
        response: { 200: CustomFieldListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, string | undefined>;
      const page = parsePage(query);
      const entityTypeName = query['filter[entity_type]'];
      let entityType: CustomFieldEntityType | undefined;
      if (entityTypeName) {
        entityType = Object.hasOwn(ENTITY_TYPES, entityTypeName)
          ? ENTITY_TYPES[entityTypeName as keyof typeof ENTITY_TYPES]
          : (Object.values(ENTITY_TYPES) as string[]).includes(entityTypeName)
            ? (entityTypeName as CustomFieldEntityType)
            : undefined;
        if (!entityType) {
          throw new ApiError(
            400,
            `filter[entity_type] must be one of ${CUSTOM_FIELD_ENTITY_TYPES.join(', ')}`,
            { source: { parameter: 'filter[entity_type]' } },
          );
        }
      }
      const { total, rows } = await store.values(
        account.id,
        {
          entityType,
          entityId: query['filter[entity_id]'] || undefined,
          definitionId: query['filter[definition_id]'] || undefined,
        },
        page,
      );
      const data = await fields.renderValues(account.id, rows);
      return sendCollection(request, reply, page, total, { data });
    },
  );

  app.post(
    '/custom_fields',
    {
      schema: {
        tags: ['Custom Fields'],
        summary: 'Set a custom field on a shipment, container or tracking request',
        body: CustomFieldCreateWithEntityBody,
        response: { 201: CustomFieldDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { attributes, relationships } = (request.body as CustomFieldCreateWithEntityBody).data;
      const entity = relationships.entity.data;
      if (!isUuid(entity.id) || !(await store.ownsEntity(account.id, entity.type, entity.id))) {
        throw unprocessable(
          `No ${entity.type} with id ${entity.id}`,
          '/data/relationships/entity/data/id',
          'not_found',
        );
      }
      const row = await createValue(account.id, entity, attributes);
      return sendDocument(reply, 201, await valueDocument(account.id, row));
    },
  );

  app.get(
    '/custom_fields/:id',
    {
      schema: {
        tags: ['Custom Fields'],
        summary: 'Get a custom field value',
        params: Type.Object({ id: Type.String() }),
        response: { 200: CustomFieldDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const row = await ownedValue(account.id, (request.params as { id: string }).id);
      return sendDocument(reply, 200, await valueDocument(account.id, row));
    },
  );

  app.patch(
    '/custom_fields/:id',
    {
      schema: {
        tags: ['Custom Fields'],
        summary: 'Change a custom field value',
        params: Type.Object({ id: Type.String() }),
        body: CustomFieldUpdateBody,
        response: { 200: CustomFieldDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const existing = await ownedValue(account.id, (request.params as { id: string }).id);
      const [def] = await store.definitionsByIds(account.id, [existing.definition_id]);
      if (!def) throw notFound('No custom field with this id');
      const value = (request.body as CustomFieldUpdateBody).data.attributes.value;
      const row = await fields.set(
        account.id,
        def,
        { type: existing.entity_type as CustomFieldEntityType, id: existing.entity_id },
        value,
        '/data/attributes/value',
      );
      return sendDocument(reply, 200, await valueDocument(account.id, row));
    },
  );

  app.delete(
    '/custom_fields/:id',
    {
      schema: {
        tags: ['Custom Fields'],
        summary: 'Remove a custom field value',
        params: Type.Object({ id: Type.String() }),
        response: { 200: DeletedDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const row = await ownedValue(account.id, (request.params as { id: string }).id);
      await store.deleteValue(account.id, row);
      return sendDocument(reply, 200, { meta: {} });
    },
  );

  /** A new value: 422 when the slug is unknown for the record's type or already set. */
  async function createValue(
    accountId: string,
    entity: { type: CustomFieldEntityType; id: string },
    attributes: { api_slug: string; value: unknown },
  ) {
    const def = await fields.definitionForSlug(
      accountId,
      entity.type,
      attributes.api_slug,
      '/data/attributes/api_slug',
    );
    if (await store.valueFor(accountId, def.id, entity.id)) {
      throw unprocessable(
        `${def.api_slug} is already set on this ${entity.type}; change it with PATCH`,
        '/data/attributes/api_slug',
        'taken',
      );
    }
    return fields.set(accountId, def, entity, attributes.value, '/data/attributes/value');
  }

  // --- values nested under their record ---------------------------------------------------

  for (const nested of NESTED) {
    const Params = Type.Object({ [nested.param]: Type.String() });
    const SlugParams = Type.Object({ [nested.param]: Type.String(), api_slug: Type.String() });
    const base = `/${nested.path}/:${nested.param}/custom_fields`;

    const ownedEntity = async (accountId: string, params: Record<string, string>) => {
      const id = params[nested.param]!;
      if (!isUuid(id) || !(await store.ownsEntity(accountId, nested.type, id))) throw notFound();
      return { type: nested.type, id };
    };
    const valueBySlug = async (
      accountId: string,
      entity: { type: CustomFieldEntityType; id: string },
      slug: string,
    ) => {
      const def = await store.definitionBySlug(
        accountId,
        Object.keys(ENTITY_TYPES).find(
          (k) => ENTITY_TYPES[k as keyof typeof ENTITY_TYPES] === entity.type,
        )!,
        slug,
      );
      if (!def) throw notFound(`No custom field definition with api_slug '${slug}'`);
      return { def, value: await store.valueFor(accountId, def.id, entity.id) };
    };

    app.get(
      base,
      {
        schema: {
          tags: [nested.tag],
          summary: `List the custom fields of a ${nested.type.replace('_', ' ')}`,
          params: Params,
          querystring: Type.Object({ ...PageQuery }),
          response: { 200: CustomFieldListDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const page = parsePage(request.query as Record<string, unknown>);
        const entity = await ownedEntity(account.id, request.params as Record<string, string>);
        const { total, rows } = await store.values(
          account.id,
          { entityType: entity.type, entityId: entity.id },
          page,
        );
        const data = await fields.renderValues(account.id, rows);
        return sendCollection(request, reply, page, total, { data });
      },
    );

    app.post(
      base,
      {
        schema: {
          tags: [nested.tag],
          summary: `Set a custom field on a ${nested.type.replace('_', ' ')}`,
          params: Params,
          body: CustomFieldCreateBody,
          response: { 201: CustomFieldDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const entity = await ownedEntity(account.id, request.params as Record<string, string>);
        const attrs = (request.body as CustomFieldCreateBody).data.attributes;
        const row = await createValue(account.id, entity, attrs);
        return sendDocument(reply, 201, await valueDocument(account.id, row));
      },
    );

    app.patch(
      `${base}/:api_slug`,
      {
        schema: {
          tags: [nested.tag],
          summary: `Set or change a custom field of a ${nested.type.replace('_', ' ')} by api_slug`,
          params: SlugParams,
          body: CustomFieldUpdateBody,
          response: { 200: CustomFieldDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const params = request.params as Record<string, string>;
        const entity = await ownedEntity(account.id, params);
        const { def } = await valueBySlug(account.id, entity, params.api_slug!);
        const value = (request.body as CustomFieldUpdateBody).data.attributes.value;
        const row = await fields.set(account.id, def, entity, value, '/data/attributes/value');
        return sendDocument(reply, 200, await valueDocument(account.id, row));
      },
    );

    app.delete(
      `${base}/:api_slug`,
      {
        schema: {
          tags: [nested.tag],
          summary: `Remove a custom field of a ${nested.type.replace('_', ' ')}`,
          params: SlugParams,
          response: { 204: Type.Null({ description: 'Removed' }) },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const params = request.params as Record<string, string>;
        const entity = await ownedEntity(account.id, params);
        const { value } = await valueBySlug(account.id, entity, params.api_slug!);
        if (!value) throw notFound(`${params.api_slug} is not set on this ${nested.type}`);
        await store.deleteValue(account.id, value);
        return reply.code(204).send();
      },
    );
  }
}

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
    throw unprocessable(`default_value: ${checked.detail}`, '/data/attributes/default_value');
  }
  return JSON.stringify(checked.value);
}
