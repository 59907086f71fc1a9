/**
 * Parties: the companies an account works with (list, create, get, edit). Roles, SCAC and
 * contacts are Quayside extensions: a party with the `trucker` role is a dray carrier that
 * containers are assigned to (`relationships.trucker` on containers).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  PARTY_ROLES,
  PartyBody,
  PartyDocument,
  PartyListDocument,
} from '../../shared/api/custom-fields';
import type { PartyDetails } from '../store/parties';
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

const SCAC_RE = /^[A-Z]{2,4}$/;
// Deliberately loose: one @, something on both sides, a dot in the domain, no spaces.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Roles, SCAC and contacts of a body, trimmed and checked (422 with a pointer to the fault). */
function partyDetails(attributes: PartyBody['data']['attributes']): PartyDetails {
  const details: PartyDetails = {};
  if (attributes.roles) details.roles = [...new Set(attributes.roles)].sort();
  if (attributes.scac !== undefined) {
    const scac = attributes.scac?.trim().toUpperCase() || null;
    if (scac !== null && !SCAC_RE.test(scac)) {
      throw new ApiError(422, 'SCAC must be 2 to 4 letters', {
        source: { pointer: '/data/attributes/scac' },
      });
    }
    details.scac = scac;
  }
  if (attributes.contacts) {
    details.contacts = attributes.contacts.map((contact, i) => {
      const clean = (v: string | null | undefined) => v?.trim() || null;
      const entry = {
        name: clean(contact.name),
        email: clean(contact.email),
        phone: clean(contact.phone),
      };
      const pointer = `/data/attributes/contacts/${i}`;
      if (!entry.name && !entry.email && !entry.phone) {
        throw new ApiError(422, 'A contact needs a name, an email or a phone', {
          source: { pointer },
        });
      }
      if (entry.email && !EMAIL_RE.test(entry.email)) {
        throw new ApiError(422, `'${entry.email}' is not an email address`, {
          source: { pointer: `${pointer}/email` },
        });
      }
      return entry;
    });
  }
  return details;
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
      const query = request.query as Record<string, string | undefined>;
      const page = parsePage(query);
      const { total, rows } = await parties.list(account.id, page, query['filter[role]']);
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
      const { attributes } = (request.body as PartyBody).data;
      const name = companyName(attributes.company_name);
      const party = await parties.create(account.id, name, partyDetails(attributes));
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
        summary:
          'Edit a party: rename it (the shipments it is the customer of show the new name), or set its roles, SCAC and contacts',
        params: IdParams,
        body: PartyBody,
        response: { 200: PartyDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const party = await owned(account.id, (request.params as { id: string }).id);
      const { attributes } = (request.body as PartyBody).data;
      const details = partyDetails(attributes);
      const raw = attributes.company_name;
      if (raw !== undefined) {
        const name = companyName(raw);
        if (name !== party.company_name && !(await parties.rename(account.id, party.id, name))) {
          throw taken(name);
        }
      }
      await parties.setDetails(account.id, party.id, details);
      const data = renderParty((await parties.owned(account.id, party.id))!);
      return sendDocument(reply, 200, { data, links: { self: data.links!.self } });
    },
  );
}
