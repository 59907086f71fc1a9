import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { v4 as uuidv4 } from 'uuid';
import type { Clock } from '../../shared/clock';
import type { Database } from './schema';

export interface Account {
  id: string;
  name: string;
  routingEnabled: boolean;
}

/** Keys are stored only as SHA-256 hashes; the key itself is shown once, at creation. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** 32 random bytes, URL-safe: long enough that hashing without a salt is safe. */
export const generateKey = (): string => `qs_${randomBytes(32).toString('base64url')}`;

const toAccount = (row: { id: string; name: string; routing_enabled: number }): Account => ({
  id: row.id,
  name: row.name,
  routingEnabled: row.routing_enabled === 1,
});

/**
 * How long an API key's account is reused without asking the store again. Every request checks
 * its key, and that lookup was a third of a cached detail read. Keys are never revoked by the
 * service; an entitlement changed by another process (`quayside keys create --routing`, another
 * instance) shows within this time.
 */
const KEY_LOOKUP_KEPT_MS = 5_000;
const KEY_LOOKUPS_KEPT = 1_000;

export class AccountStore {
  /**
   * Accounts by the key itself, with the (real) time they were read: a hit then costs no hash.
   * Keys are held in this process's memory only, as every request's header holds them anyway.
   */
  private readonly byKeyKept = new Map<string, { account: Account; readAt: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The service's own account, as recorded when it was made (see `ensurePrimary`). */
  async primary(): Promise<Account | undefined> {
    const row = await this.db
      .selectFrom('service_identity')
      .innerJoin('accounts', 'accounts.id', 'service_identity.account_id')
      .select(['accounts.id', 'accounts.name', 'accounts.routing_enabled'])
      .where('service_identity.id', '=', 1)
      .executeTakeFirst();
    return row && toAccount(row);
  }

  /**
   * Returns the service's own account, recording one (the account named `name`, created if
   * needed) when none is recorded yet. `recorded` is true when this call made the record.
   */
  async ensurePrimary(name: string): Promise<{ account: Account; recorded: boolean }> {
    const existing = await this.primary();
    if (existing) return { account: existing, recorded: false };
    const account = await this.ensure(name);
    const inserted = await this.db
      .insertInto('service_identity')
      .values({ id: 1, account_id: account.id })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    // Another process (the CLI beside a running service) may have recorded one meanwhile.
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      return { account: (await this.primary())!, recorded: false };
    }
    return { account, recorded: true };
  }

  async byName(name: string): Promise<Account | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row && toAccount(row);
  }

  async create(name: string, options: { routing?: boolean } = {}): Promise<Account> {
    const row = {
      id: uuidv4(),
      name,
      routing_enabled: options.routing ? 1 : 0,
      created_at: new Date(this.clock.now()).toISOString(),
    };
    await this.db.insertInto('accounts').values(row).execute();
    return toAccount(row);
  }

  async ensure(name: string): Promise<Account> {
    return (await this.byName(name)) ?? this.create(name);
  }

  async setRouting(accountId: string, enabled: boolean): Promise<void> {
    await this.db
      .updateTable('accounts')
      .set({ routing_enabled: enabled ? 1 : 0 })
      .where('id', '=', accountId)
      .execute();
    this.byKeyKept.clear();
  }

  /** Creates a key for the account and returns it; only its hash is stored. */
  async createKey(accountId: string): Promise<string> {
    const key = generateKey();
    await this.db
      .insertInto('api_keys')
      .values({
        id: uuidv4(),
        account_id: accountId,
        key_hash: hashKey(key),
        created_at: new Date(this.clock.now()).toISOString(),
      })
      .execute();
    return key;
  }

  async byKey(key: string): Promise<Account | undefined> {
    // Real time, not the service clock: a simulated clock may run thousands of times faster.
    const now = performance.now();
    const kept = this.byKeyKept.get(key);
    if (kept && now - kept.readAt < KEY_LOOKUP_KEPT_MS) return kept.account;
    const hash = hashKey(key);
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['accounts.id', 'accounts.name', 'accounts.routing_enabled'])
      .where('api_keys.key_hash', '=', hash)
      .executeTakeFirst();
    this.byKeyKept.delete(key);
    if (!row) return undefined;
    const account = toAccount(row);
    // An unknown key is not kept: failed authentication is limited per address instead.
    if (this.byKeyKept.size >= KEY_LOOKUPS_KEPT)
      this.byKeyKept.delete(this.byKeyKept.keys().next().value!);
    this.byKeyKept.set(key, { account, readAt: now });
    return account;
  }
}
