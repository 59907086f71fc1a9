/**
 * Parties: the companies an account works with (list, create, get, edit; rules in
 * src/service/parties). Roles, SCAC and
 * contacts are Quayside extensions: a party with the `trucker` role is a dray carrier that
 * containers are assigned to (`relationships.trucker` on containers).
 */
import { Type } from 'typebox';
import {
  PARTY_ROLES,
  PartyBody,
  PartyDocument,
  PartyListDocument,
} from '../../shared/api/custom-fields';
import { parsePage } from '../jsonapi/pagination';
import { createParty, editParty, listParties, partyOf } from '../parties';
import { renderParty } from '../resources/render';
import {
  IdParams,
  PageQuery,
  accountOf,
  sendCollection,
  sendDocument,
  type ApiPlugin,
} from './http';

const TAGS = ['Parties'];

const partyReads: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/parties',
    {
      schema: {
        tags: TAGS,
        summary: 'List parties by company name',
        querystring: Type.Object({
          ...PageQuery,
          'filter[role]': Type.Optional(
            Type.Union(
              PARTY_ROLES.map((r) => Type.Literal(r)),
              {
                'x-quayside-extension': true,
                description: 'Only the parties with this role (`trucker`).',
              },
            ),
          ),
        }),
        response: { 200: PartyListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const page = parsePage(request.query);
      const role = request.query['filter[role]'];
      const { total, rows } = await listParties(ctx, account.id, page, role);
      return sendCollection(request, reply, page, total, { data: rows.map(renderParty) });
    },
  );

  app.get(
    '/parties/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a party',
        params: IdParams,
        response: { 200: PartyDocument },
      },
    },
    async (request, reply) => {
      const data = renderParty(await partyOf(ctx, accountOf(request).id, request.params.id));
      return sendDocument(reply, 200, { data, links: { self: data.links!.self } });
    },
  );
};

const partyWrites: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/parties',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a party',
        body: PartyBody,
        response: { 201: PartyDocument },
      },
    },
    async (request, reply) => {
      const party = await createParty(ctx, accountOf(request).id, request.body.data.attributes);
      const data = renderParty(party);
      return sendDocument(reply, 201, { data, links: { self: data.links!.self } });
    },
  );

  app.patch(
    '/parties/:id',
    {
      schema: {
        tags: TAGS,
        summary:
          'Edit a party: rename it (the shipments it is the customer of show the new name), or set its roles, SCAC and contacts',
        params: IdParams,
        body: PartyBody,
        response: { 200: PartyDocument },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const attributes = request.body.data.attributes;
      const data = renderParty(await editParty(ctx, accountOf(request).id, id, attributes));
      return sendDocument(reply, 200, { data, links: { self: data.links!.self } });
    },
  );
};

export const partyRoutes: ApiPlugin = async (app, options) => {
  await app.register(partyReads, options);
  await app.register(partyWrites, options);
};
