/**
 * Parties: the companies an account works with. A company name is unique within an account; a
 * shipment or tracking request names its party as `customer`; a party with the `trucker` role
 * (its SCAC and contacts kept with it) is the dray carrier a container is assigned to.
 */
import type { Kysely, Transaction } from 'kysely';
import { v4 as uuidv4 } from 'uuid';
import type { Clock } from '../../shared/clock';
import type { ListPage, PageWindow } from './account-reads';
import type { Database, PartiesTable } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/** What a party carries beside its name (all optional on a write: absent keeps the value). */
export interface PartyDetails {
  roles?: string[];
  scac?: string | null;
  contacts?: { name: string | null; email: string | null; phone: string | null }[];
}

const detailColumns = (d: PartyDetails): Partial<PartiesTable> => ({
  ...(d.roles ? { roles: JSON.stringify(d.roles) } : {}),
  ...(d.scac !== undefined ? { scac: d.scac } : {}),
  ...(d.contacts ? { contacts: JSON.stringify(d.contacts) } : {}),
});

/** LIKE pattern matching a role inside the stored JSON list (roles are plain words). */
const rolePattern = (role: string) => `%${JSON.stringify(role)}%`;

/** True for the unique-constraint failure of SQLite and PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === '23505' ||
    /UNIQUE constraint failed/i.test(e?.message ?? '')
  );
}

export class PartyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** A page of the account's parties by company name; with a role, only those that have it. */
  async list(accountId: string, page: PageWindow, role?: string): Promise<ListPage<PartiesTable>> {
    let base = this.db.selectFrom('parties').where('account_id', '=', accountId);
    if (role) base = base.where('roles', 'like', rolePattern(role));
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('company_name')
        .orderBy('id')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  /** The account's party of this company name (names are unique per account). */
  async byName(accountId: string, companyName: string): Promise<PartiesTable | undefined> {
    return this.db
      .selectFrom('parties')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('company_name', '=', companyName)
      .executeTakeFirst();
  }

  /** The account's party of this company name, created when there is none yet. */
  async named(accountId: string, companyName: string): Promise<PartiesTable> {
    return (
      (await this.create(accountId, companyName)) ?? (await this.byName(accountId, companyName))!
    );
  }

  async owned(accountId: string, id: string): Promise<PartiesTable | undefined> {
    return this.db
      .selectFrom('parties')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** Parties by id, only the account's own (for `include=customer`). */
  async ownedByIds(accountId: string, ids: string[]): Promise<PartiesTable[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('parties')
      .selectAll()
      .where('id', 'in', ids)
      .where('account_id', '=', accountId)
      .execute();
  }

  /**
   * The account's containers on shipments for this party, oldest first, at most `limit`: the
   * keys that render them (the party's pass-through D&D statement).
   */
  async containerKeys(
    accountId: string,
    partyId: string,
    limit: number,
  ): Promise<{ id: string; updated_at: string }[]> {
    return this.db
      .selectFrom('containers as c')
      .innerJoin('shipments as s', 's.id', 'c.shipment_id')
      .select(['c.id as id', 'c.updated_at as updated_at'])
      .where('s.customer_id', '=', partyId)
      .where('s.account_id', '=', accountId)
      .where('c.account_id', '=', accountId)
      .orderBy('c.created_at')
      .orderBy('c.id')
      .limit(limit)
      .execute();
  }

  /** The new party, or undefined when the account already has one with this company name. */
  async create(
    accountId: string,
    companyName: string,
    details: PartyDetails = {},
  ): Promise<PartiesTable | undefined> {
    const now = this.nowIso();
    const row: PartiesTable = {
      id: uuidv4(),
      account_id: accountId,
      company_name: companyName,
      roles: '[]',
      scac: null,
      contacts: '[]',
      ...detailColumns(details),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.insertInto('parties').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
    return row;
  }

  /**
   * Renames a party; the shipments it is the customer of show the new name and count as
   * changed. False when another party of the account has that name.
   */
  async rename(accountId: string, id: string, companyName: string): Promise<boolean> {
    const work = async (db: Db) => {
      const now = this.nowIso();
      await db
        .updateTable('parties')
        .set({ company_name: companyName, updated_at: now })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
      await db
        .updateTable('shipments')
        .set({ customer_name: companyName, updated_at: now })
        .where('customer_id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
    };
    try {
      if (this.db.isTransaction) await work(this.db);
      else await (this.db as Kysely<Database>).transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
    return true;
  }

  /** Sets a party's roles, SCAC or contacts (what `details` names). */
  async setDetails(accountId: string, id: string, details: PartyDetails): Promise<void> {
    const set = detailColumns(details);
    if (Object.keys(set).length === 0) return;
    await this.db
      .updateTable('parties')
      .set({ ...set, updated_at: this.nowIso() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
  }
}
