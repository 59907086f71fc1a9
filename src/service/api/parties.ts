/** Parties: the companies an account tracks shipments for (list, create, get, rename). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { PartyBody, PartyDocument, PartyListDocument } from '../../shared/api/custom-fields';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { parsePage } from '../jsonapi/pagination';
import { renderParty } from '../resources/render';
import { IdParams, PageQuery, accountOf, isUuid, sendCollection, sendDocument } from './http';

const NAME_POINTER = { pointer: '/data/attributes/company_name' };

/** The trimmed company name, or a 422 naming what is wrong with it. */
function companyName(raw: string | undefined): string {
  const name = raw?.trim() ?? '';
  if (!name) throw new ApiError(422, "Company name can't be blank", { source: NAME_POINTER });
  return name;
}

const taken = (name: string) =>
  new ApiError(422, `'${name}' already exists in Account`, { code: 'taken', source: NAME_POINTER });

export function registerPartyRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const parties = ctx.stores.parties;

  async function owned(accountId: string, id: string) {
    const party = isUuid(id) ? await parties.owned(accountId, id) : undefined;
    if (!party) throw notFound();
    return party;
  }

  app.get(
    '/parties',
    {
      schema: {
        tags: ['Parties'],
        summary: 'List parties by company name',
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: PartyListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const page = parsePage(request.query as Record<string, unknown>);
      const { total, rows } = await parties.list(account.id, page);
      return sendCollection(request, reply, page, total, { data: rows.map(renderParty) });
    },
  );

  app.post(
    '/parties',
    {
      schema: {
        tags: ['Parties'],
        summary: 'Create a party',
        body: PartyBody,
        response: { 201: PartyDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const name = companyName((request.body as PartyBody).data.attributes.company_name);
      const party = await parties.create(account.id, name);
      if (!party) throw taken(name);
      const data = renderParty(party);
      return sendDocument(reply, 201, { data, links: { self: data.links!.self } });
    },
  );

  app.get(
    '/parties/:id',
    {
      schema: {
        tags: ['Parties'],
        summary: 'Get a party',
        params: IdParams,
        response: { 200: PartyDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const party = await owned(account.id, (request.params as { id: string }).id);
      const data = renderParty(party);
      return sendDocument(reply, 200, { data, links: { self: data.links!.self } });
    },
  );

  app.patch(
    '/parties/:id',
    {
      schema: {
        tags: ['Parties'],
        summary: 'Rename a party (the shipments it is the customer of show the new name)',
        params: IdParams,
        body: PartyBody,
        response: { 200: PartyDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const party = await owned(account.id, (request.params as { id: string }).id);
      const raw = (request.body as PartyBody).data.attributes.company_name;
      if (raw !== undefined) {
        const name = companyName(raw);
        if (name !== party.company_name && !(await parties.rename(account.id, party.id, name))) {
          throw taken(name);
        }
      }
      const data = renderParty((await parties.owned(account.id, party.id))!);
      return sendDocument(reply, 200, { data, links: { self: data.links!.self } });
    },
  );
}
