/**
 * Leases on units of work shared by several service instances on one PostgreSQL database: a
 * tracking request's lookup, a shipment's line or terminal check, a webhook notification's
 * delivery, an AIS source's listener. An instance runs a unit only while it holds its lease; a
 * lease of a killed instance expires and another takes the work over. Times are the database's
 * own clock, so instances need not agree on theirs.
 *
 * On SQLite one process owns the file and every claim is granted (today's behaviour).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql, type Kysely, type Transaction } from 'kysely';
import { storeKindOf } from './dialect';
import type { Database } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Milliseconds since the epoch on the database server's clock. */
const dbNowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** A name for this instance that no other (or restarted) instance shares. */
export function newInstanceId(): string {
  return `${os.hostname().slice(0, 40)}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export class WorkLeases {
  readonly shared: boolean;

  constructor(
    private readonly db: Db,
    /** This instance's name in the lease rows. */
    readonly owner: string,
  ) {
    this.shared = storeKindOf(db) === 'postgres';
  }

  /**
   * Claims the free (or expired, or already ours) keys for `ttlMs` and returns those won, in
   * the order given. Concurrent claims of one key by two instances: exactly one wins.
   */
  async claim(keys: string[], ttlMs: number): Promise<string[]> {
    if (!this.shared || keys.length === 0) return keys;
    const rows = await this.db
      .insertInto('work_leases')
      .values(
        keys.map((key) => ({
          key,
          owner: this.owner,
          expires_at_ms: sql<number>`${dbNowMs} + ${ttlMs}`,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            owner: (eb) => eb.ref('excluded.owner'),
            expires_at_ms: (eb) => eb.ref('excluded.expires_at_ms'),
          })
          .where((eb) =>
            eb.or([
              eb('work_leases.expires_at_ms', '<', dbNowMs),
              eb('work_leases.owner', '=', this.owner),
            ]),
          ),
      )
      .returning('key')
      .execute();
    const won = new Set(rows.map((r) => r.key));
    return keys.filter((k) => won.has(k));
  }

  /** Extends leases still held by this instance; returns the keys kept. */
  async renew(keys: string[], ttlMs: number): Promise<string[]> {
    if (!this.shared || keys.length === 0) return keys;
    const rows = await this.db
      .updateTable('work_leases')
      .set({ expires_at_ms: sql<number>`${dbNowMs} + ${ttlMs}` })
      .where('key', 'in', keys)
      .where('owner', '=', this.owner)
      .returning('key')
      .execute();
    return rows.map((r) => r.key);
  }

  /** Gives the leases up (the work is done, or this instance stops). */
  async release(keys: string[]): Promise<void> {
    if (!this.shared || keys.length === 0) return;
    await this.db
      .deleteFrom('work_leases')
      .where('key', 'in', keys)
      .where('owner', '=', this.owner)
      .execute();
  }
}
