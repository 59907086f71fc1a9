/**
 * Rolling-window request budgets kept in PostgreSQL, so every instance draws on one budget per
 * account. A budget's row holds its hits counted per second of the window (at most one entry a
 * second, however high the limit); a take is one statement: an upsert on that row that drops the
 * seconds that left the window and counts as many of the asked hits as fit under `limit`.
 * PostgreSQL runs concurrent upserts of one row one after another, each on the row the previous
 * one left, so no two instances can both take the last place in a window.
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
   * at `limit` or fewer.
   */
  async take(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number,
    count = 1,
  ): Promise<WindowTake> {
    const second = String(Math.floor(nowMs / 1000));
    const cutoff = nowMs - windowMs;
    // The seconds still inside the window, as (key, value) rows of the stored object.
    const inWindow = sql`jsonb_each(w.hits::jsonb) AS e WHERE e.key::bigint * 1000 > ${cutoff}::bigint`;
    const taken = sql`coalesce(sum(e.value::text::bigint), 0)`;
    const granted = sql`greatest(0, least(${count}::bigint, ${limit}::bigint - ${taken}))`;
    const first = Math.max(0, Math.min(count, limit));
    // `refused`: how many of this take's hits did not fit.
    const { rows } = await sql<{ hits: string; refused: number }>`
      INSERT INTO rate_limit_windows AS w (key, hits, refused, last_at_ms)
      VALUES (${key}, ${JSON.stringify(first ? { [second]: first } : {})}, ${count - first},
        ${nowMs}::bigint)
      ON CONFLICT (key) DO UPDATE SET
        hits = (
          SELECT (coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
            || CASE WHEN ${granted} > 0
                 THEN jsonb_build_object(${second}::text, coalesce(
                   max(CASE WHEN e.key = ${second}::text THEN e.value::text::bigint END), 0)
                   + ${granted})
                 ELSE '{}'::jsonb END)::text
          FROM ${inWindow}
        ),
        refused = (SELECT ${count}::bigint - ${granted} FROM ${inWindow}),
        last_at_ms = ${nowMs}::bigint
      RETURNING hits, refused`.execute(this.db);
    const row = rows[0]!;
    const hits = JSON.parse(row.hits) as Record<string, number>;
    const seconds = Object.keys(hits).map(Number);
    return {
      granted: count - Number(row.refused),
      oldestMs: seconds.length ? Math.min(...seconds) * 1000 : null,
      used: Object.values(hits).reduce((sum, n) => sum + Number(n), 0),
    };
  }

  /** Deletes budgets untouched since `beforeMs` (their windows are empty). */
  async prune(beforeMs: number): Promise<void> {
    await this.db.deleteFrom('rate_limit_windows').where('last_at_ms', '<', beforeMs).execute();
  }
}
