/**
 * Rolling-window request budgets kept in PostgreSQL, so every instance draws on one budget per
 * account. A budget's row holds its hits counted per second of the window (at most one entry a
 * second, however high the limit), as two arrays. A take is one call of `rate_limit_take`
 * (migration 0022): it locks the row, drops the seconds that left the window and counts as many
 * of the asked hits as fit under `limit`. Concurrent takes on one budget, from any instance, run
 * one after another, each on the row the previous one left, so no two instances can both take the
 * last place in a window.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

export interface WindowTake {
  /** How many of the asked hits were counted (the others are refused). */
  granted: number;
  /** Start (ms) of the oldest second with hits still in the window; null when none. */
  oldestMs: number | null;
  /** Hits in the window once this take is counted. */
  used: number;
}

export class RateLimitWindows {
  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  /**
   * Records up to `count` hits on `key` at `nowMs`, as many as keep the hits within `windowMs`
   * at `limit` or fewer, after removing `giveBack.count` hits that an earlier take counted at
   * `giveBack.atMs` and that were not used.
   */
  async take(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number,
    count = 1,
    giveBack?: { atMs: number; count: number },
  ): Promise<WindowTake> {
    const backSecond = giveBack ? Math.floor(giveBack.atMs / 1000) : null;
    const { rows } = await sql<{ granted: string; oldest_s: string | null; used: string }>`
      SELECT granted, oldest_s, used FROM rate_limit_give_back_and_take(${key}, ${limit}::bigint,
        ${nowMs - windowMs}::bigint, ${nowMs}::bigint, ${count}::bigint,
        ${backSecond}::bigint, ${giveBack?.count ?? 0}::bigint)`.execute(this.db);
    const row = rows[0]!;
    return {
      granted: Number(row.granted),
      oldestMs: row.oldest_s === null ? null : Number(row.oldest_s) * 1000,
      used: Number(row.used),
    };
  }

  /** Deletes budgets untouched since `beforeMs` (their windows are empty). */
  async prune(beforeMs: number): Promise<void> {
    await this.db.deleteFrom('rate_limit_budgets').where('last_at_ms', '<', beforeMs).execute();
  }
}
