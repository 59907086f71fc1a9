/**
 * Custom field definitions and their options, and custom field values: through /custom_fields
 * and nested under the shipment, container or tracking request they are set on. The rules live
 * in src/service/custom-fields (definitions.ts, values.ts); these routes type, call and render.
 */
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
} from '../../shared/api/custom-fields';
import type { ServiceContext } from '../context';
import { renderOption } from '../custom-fields';
import {
  createDefinition,
  createOption,
  definitionOf,
  deleteDefinition,
  deleteOption,
  editDefinition,
  editOption,
  listDefinitions,
  optionOf,
  optionsOf,
} from '../custom-fields/definitions';
import {
  changeValue,
  createValue,
  createValueOn,
  deleteValue,
  listValues,
  ownedEntity,
  removeBySlug,
  setBySlug,
  valueOf,
  valuesOfEntity,
} from '../custom-fields/values';
import { parsePage } from '../jsonapi/pagination';
import type { CustomFieldEntityType } from '../store/custom-fields';
import type { CustomFieldDefinitionsTable, CustomFieldValuesTable } from '../store/schema';
import {
  IdParams,
  PageQuery,
  accountOf,
  sendCollection,
  sendDocument,
  sendNoContent,
  type ApiPlugin,
} from './http';

const DeletedDocument = Type.Object({ meta: Type.Object({}) });
const DEFINITIONS = ['Custom Field Definitions'];
const OPTIONS = ['Custom Field Options'];
const VALUES = ['Custom Fields'];
const DefinitionParams = Type.Object({ definition_id: Type.String() });
const OptionParams = Type.Object({ definition_id: Type.String(), option_id: Type.String() });

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

/** A definition with its options included. */
async function definitionDocument(ctx: ServiceContext, def: CustomFieldDefinitionsTable) {
  const [data] = await ctx.customFields.renderDefinitions([def]);
  const options = await ctx.stores.customFields.optionsOf([def.id]);
  return { data, included: options.map(renderOption) };
}

/** One value, with its api_slug and display value, linked to itself. */
async function valueDocument(ctx: ServiceContext, accountId: string, row: CustomFieldValuesTable) {
  const [data] = await ctx.customFields.renderValues(accountId, [row]);
  return { data, links: { self: data!.links!.self } };
}

// --- definitions ---------------------------------------------------------------------------

const definitionReads: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/custom_field_definitions',
    {
      schema: {
        tags: DEFINITIONS,
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
      const { query } = request;
      const page = parsePage(query);
      const filter = {
        entityType: query['filter[entity_type]'] || undefined,
        dataType: query['filter[data_type]'] || undefined,
        displayNamePrefix: query['filter[display_name]'] || undefined,
      };
      const { total, rows } = await listDefinitions(ctx, account.id, filter, page);
      const data = await ctx.customFields.renderDefinitions(rows);
      return sendCollection(request, reply, page, total, { data });
    },
  );

  app.get(
    '/custom_field_definitions/:id',
    {
      schema: {
        tags: DEFINITIONS,
        summary: 'Get a custom field definition (its options included)',
        params: IdParams,
        response: { 200: CustomFieldDefinitionDocument },
      },
    },
    async (request, reply) => {
      const def = await definitionOf(ctx, accountOf(request).id, request.params.id);
      return sendDocument(reply, 200, await definitionDocument(ctx, def));
    },
  );
};

const definitionWrites: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/custom_field_definitions',
    {
      schema: {
        tags: DEFINITIONS,
        summary: 'Create a custom field definition',
        body: CustomFieldDefinitionCreateBody,
        response: { 201: CustomFieldDefinitionDocument },
      },
    },
    async (request, reply) => {
      const attrs = request.body.data.attributes;
      const created = await createDefinition(ctx, accountOf(request).id, attrs);
      const doc = await definitionDocument(ctx, created);
      return sendDocument(reply, 201, { data: doc.data, links: { self: doc.data!.links!.self } });
    },
  );

  app.patch(
    '/custom_field_definitions/:id',
    {
      schema: {
        tags: DEFINITIONS,
        summary: 'Edit a custom field definition (entity_type, api_slug and data_type are fixed)',
        params: IdParams,
        body: CustomFieldDefinitionUpdateBody,
        response: { 200: CustomFieldDefinitionDocument },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const def = await editDefinition(
        ctx,
        accountOf(request).id,
        id,
        request.body.data.attributes,
      );
      return sendDocument(reply, 200, await definitionDocument(ctx, def));
    },
  );

  app.delete(
    '/custom_field_definitions/:id',
    {
      schema: {
        tags: DEFINITIONS,
        summary: 'Delete a custom field definition with its options and every value set with it',
        params: IdParams,
        response: { 200: DeletedDocument },
      },
    },
    async (request, reply) => {
      await deleteDefinition(ctx, accountOf(request).id, request.params.id);
      return sendDocument(reply, 200, { meta: {} });
    },
  );
};

// --- options ---------------------------------------------------------------------------------

const optionReads: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/custom_field_definitions/:definition_id/options',
    {
      schema: {
        tags: OPTIONS,
        summary: 'List the options of an enum custom field',
        params: DefinitionParams,
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: CustomFieldOptionListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const page = parsePage(request.query);
      const all = await optionsOf(ctx, account.id, request.params.definition_id);
      const data = all.slice(page.offset, page.offset + page.size).map(renderOption);
      return sendCollection(request, reply, page, all.length, { data });
    },
  );

  app.get(
    '/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: OPTIONS,
        summary: 'Get an option of an enum custom field',
        params: OptionParams,
        response: { 200: CustomFieldOptionDocument },
      },
    },
    async (request, reply) => {
      const { option } = await optionOf(ctx, accountOf(request).id, request.params);
      return sendDocument(reply, 200, { data: renderOption(option) });
    },
  );
};

const optionWrites: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/custom_field_definitions/:definition_id/options',
    {
      schema: {
        tags: OPTIONS,
        summary: 'Add an option to an enum custom field',
        params: DefinitionParams,
        body: CustomFieldOptionCreateBody,
        response: { 201: CustomFieldOptionDocument },
      },
    },
    async (request, reply) => {
      const { definition_id: definitionId } = request.params;
      const attrs = request.body.data.attributes;
      const option = await createOption(ctx, accountOf(request).id, definitionId, attrs);
      const data = renderOption(option);
      return sendDocument(reply, 201, { data, links: { self: data.links!.self } });
    },
  );

  app.patch(
    '/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: OPTIONS,
        summary: "Edit an option's label or position (its value is fixed)",
        params: OptionParams,
        body: CustomFieldOptionUpdateBody,
        response: { 200: CustomFieldOptionDocument },
      },
    },
    async (request, reply) => {
      const attrs = request.body.data.attributes;
      const option = await editOption(ctx, accountOf(request).id, request.params, attrs);
      return sendDocument(reply, 200, { data: renderOption(option) });
    },
  );

  app.delete(
    '/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: OPTIONS,
        summary: 'Delete an option no value uses',
        params: OptionParams,
        response: { 200: DeletedDocument },
      },
    },
    async (request, reply) => {
      await deleteOption(ctx, accountOf(request).id, request.params);
      return sendDocument(reply, 200, { meta: {} });
    },
  );
};

// --- values: /custom_fields -----------------------------------------------------------------

const valueReads: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/custom_fields',
    {
      schema: {
        tags: VALUES,
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
      const { query } = request;
      const page = parsePage(query);
      const filter = {
        entityType: query['filter[entity_type]'],
        entityId: query['filter[entity_id]'] || undefined,
        definitionId: query['filter[definition_id]'] || undefined,
      };
      const { total, rows } = await listValues(ctx, account.id, filter, page);
      const data = await ctx.customFields.renderValues(account.id, rows);
      return sendCollection(request, reply, page, total, { data });
    },
  );

  app.get(
    '/custom_fields/:id',
    {
      schema: {
        tags: VALUES,
        summary: 'Get a custom field value',
        params: IdParams,
        response: { 200: CustomFieldDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const row = await valueOf(ctx, account.id, request.params.id);
      return sendDocument(reply, 200, await valueDocument(ctx, account.id, row));
    },
  );
};

const valueWrites: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/custom_fields',
    {
      schema: {
        tags: VALUES,
        summary: 'Set a custom field on a shipment, container or tracking request',
        body: CustomFieldCreateWithEntityBody,
        response: { 201: CustomFieldDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { attributes, relationships } = request.body.data;
      const row = await createValueOn(ctx, account.id, relationships.entity.data, attributes);
      return sendDocument(reply, 201, await valueDocument(ctx, account.id, row));
    },
  );

  app.patch(
    '/custom_fields/:id',
    {
      schema: {
        tags: VALUES,
        summary: 'Change a custom field value',
        params: IdParams,
        body: CustomFieldUpdateBody,
        response: { 200: CustomFieldDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { value } = request.body.data.attributes;
      const row = await changeValue(ctx, account.id, request.params.id, value);
      return sendDocument(reply, 200, await valueDocument(ctx, account.id, row));
    },
  );

  app.delete(
    '/custom_fields/:id',
    {
      schema: {
        tags: VALUES,
        summary: 'Remove a custom field value',
        params: IdParams,
        response: { 200: DeletedDocument },
      },
    },
    async (request, reply) => {
      await deleteValue(ctx, accountOf(request).id, request.params.id);
      return sendDocument(reply, 200, { meta: {} });
    },
  );
};

// --- values nested under their record -------------------------------------------------------

type Nested = (typeof NESTED)[number];
const recordWords = (nested: Nested) => nested.type.replace('_', ' ');
const nestedBase = (nested: Nested) => `/${nested.path}/:${nested.param}/custom_fields`;
const recordParams = (nested: Nested) => Type.Object({ [nested.param]: Type.String() });
const slugParams = (nested: Nested) =>
  Type.Object({ [nested.param]: Type.String(), api_slug: Type.String() });

/** GET and POST /<records>/:id/custom_fields. */
const nestedCollection =
  (nested: Nested): ApiPlugin =>
  async (app, { ctx }) => {
    app.get(
      nestedBase(nested),
      {
        schema: {
          tags: [nested.tag],
          summary: `List the custom fields of a ${recordWords(nested)}`,
          params: recordParams(nested),
          querystring: Type.Object({ ...PageQuery }),
          response: { 200: CustomFieldListDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const page = parsePage(request.query);
        const id = request.params[nested.param]!;
        const { total, rows } = await valuesOfEntity(ctx, account.id, nested.type, id, page);
        const data = await ctx.customFields.renderValues(account.id, rows);
        return sendCollection(request, reply, page, total, { data });
      },
    );

    app.post(
      nestedBase(nested),
      {
        schema: {
          tags: [nested.tag],
          summary: `Set a custom field on a ${recordWords(nested)}`,
          params: recordParams(nested),
          body: CustomFieldCreateBody,
          response: { 201: CustomFieldDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const id = request.params[nested.param]!;
        const entity = await ownedEntity(ctx, account.id, nested.type, id);
        const row = await createValue(ctx, account.id, entity, request.body.data.attributes);
        return sendDocument(reply, 201, await valueDocument(ctx, account.id, row));
      },
    );
  };

/** PATCH and DELETE /<records>/:id/custom_fields/:api_slug. */
const nestedBySlug =
  (nested: Nested): ApiPlugin =>
  async (app, { ctx }) => {
    app.patch(
      `${nestedBase(nested)}/:api_slug`,
      {
        schema: {
          tags: [nested.tag],
          summary: `Set or change a custom field of a ${recordWords(nested)} by api_slug`,
          params: slugParams(nested),
          body: CustomFieldUpdateBody,
          response: { 200: CustomFieldDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const target = slugTarget(nested, request.params);
        const row = await setBySlug(ctx, account.id, target, request.body.data.attributes.value);
        return sendDocument(reply, 200, await valueDocument(ctx, account.id, row));
      },
    );

    app.delete(
      `${nestedBase(nested)}/:api_slug`,
      {
        schema: {
          tags: [nested.tag],
          summary: `Remove a custom field of a ${recordWords(nested)}`,
          params: slugParams(nested),
          response: { 204: Type.Null({ description: 'Removed' }) },
        },
      },
      async (request, reply) => {
        await removeBySlug(ctx, accountOf(request).id, slugTarget(nested, request.params));
        return sendNoContent(reply);
      },
    );
  };

function slugTarget(nested: Nested, params: Record<string, string>) {
  return { type: nested.type, id: params[nested.param]!, slug: params.api_slug! };
}

/** Definitions, options and values of custom fields. */
export const customFieldRoutes: ApiPlugin = async (app, options) => {
  await app.register(definitionReads, options);
  await app.register(definitionWrites, options);
  await app.register(optionReads, options);
  await app.register(optionWrites, options);
  await app.register(valueReads, options);
  await app.register(valueWrites, options);
  for (const nested of NESTED) {
    await app.register(nestedCollection(nested), options);
    await app.register(nestedBySlug(nested), options);
  }
};
