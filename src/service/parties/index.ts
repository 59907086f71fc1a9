/**
 * Parties as use cases, callable without HTTP: the companies an account works with. A company
 * name is unique in the account; roles, SCAC and contacts (Quayside extensions) are checked
 * here; a party with the `trucker` role is a dray carrier containers are assigned to.
 */
import type { PartyBody } from '../../shared/api/custom-fields';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { Page } from '../jsonapi/pagination';
import type { PartyDetails } from '../store/parties';

type PartyAttributes = PartyBody['data']['attributes'];

const NAME_POINTER = { pointer: '/data/attributes/company_name' };

/** The trimmed company name, or a 422 naming what is wrong with it. */
function companyName(raw: string | undefined): string {
  const name = raw?.trim() ?? '';
  if (!name) throw new ApiError(422, "Company name can't be blank", { source: NAME_POINTER });
  return name;
}

const SCAC_RE = /^[A-Z]{2,4}$/;
// Deliberately loose: one @, something on both sides, a dot in the domain, no spaces.
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Roles, SCAC and contacts of a body, trimmed and checked (422 with a pointer to the fault). */
function partyDetails(attributes: PartyAttributes): PartyDetails {
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

/** One page of the account's parties by company name, optionally of one role. */
export function listParties(ctx: ServiceContext, accountId: string, page: Page, role?: string) {
  return ctx.stores.parties.list(accountId, page, role);
}

/** The account's party with this id; any other is a 404. */
export async function partyOf(ctx: ServiceContext, accountId: string, id: string) {
  const party = isUuid(id) ? await ctx.stores.parties.owned(accountId, id) : undefined;
  if (!party) throw notFound();
  return party;
}

/** A new party; its company name must be free in the account (422 `taken`). */
export async function createParty(
  ctx: ServiceContext,
  accountId: string,
  attributes: PartyAttributes,
) {
  const name = companyName(attributes.company_name);
  const party = await ctx.stores.parties.create(accountId, name, partyDetails(attributes));
  if (!party) throw taken(name);
  return party;
}

/** Renames the party (its shipments show the new name) or sets its roles, SCAC and contacts. */
export async function editParty(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  attributes: PartyAttributes,
) {
  const parties = ctx.stores.parties;
  const party = await partyOf(ctx, accountId, id);
  const details = partyDetails(attributes);
  const raw = attributes.company_name;
  if (raw !== undefined) {
    const name = companyName(raw);
    if (name !== party.company_name && !(await parties.rename(accountId, party.id, name))) {
      throw taken(name);
    }
  }
  await parties.setDetails(accountId, party.id, details);
  return (await parties.owned(accountId, party.id))!;
}

/**
 * The id of the account's trucker party `id`, or a 422 at `pointer` (unknown, or no trucker):
 * the one check before a container or shipment is assigned to a trucker.
 */
export async function checkedTrucker(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  pointer: string,
): Promise<string> {
  const party = isUuid(id) ? await ctx.stores.parties.owned(accountId, id) : undefined;
  if (!party) {
    throw new ApiError(422, `No party with id ${id}`, { code: 'not_found', source: { pointer } });
  }
  if (!(JSON.parse(party.roles) as string[]).includes('trucker')) {
    throw new ApiError(422, `${party.company_name} is not a trucker (give it the trucker role)`, {
      code: 'not_a_trucker',
      source: { pointer },
    });
  }
  return party.id;
}
