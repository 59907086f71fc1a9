/**
 * Rolling-window request budgets kept in PostgreSQL, so every instance draws on one budget per
 * account. A take is one statement: an upsert on the budget's row that drops the hits that left
 * the window and appends this one only while fewer than `limit` remain. PostgreSQL runs
 * concurrent upserts of one row one after another, each on the row the previous one left, so
 * no two instances can both take the last place in a window.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

export interface WindowTake {
  allowed: boolean;
  /** The hits now inside the window (ms, oldest first), this one included when allowed. */
  hits: number[];
}

export class RateLimitWindows {
  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  /** Records a hit on `key` at `nowMs` when fewer than `limit` fall within `windowMs`. */
  async take(key: string, limit: number, windowMs: number, nowMs: number): Promise<WindowTake> {
    const cutoff = nowMs - windowMs;
    const inWindow = sql`jsonb_array_elements(w.hits::jsonb) AS e(h) WHERE (e.h)::bigint > ${cutoff}::bigint`;
    const { rows } = await sql<{ hits: string; refused: number }>`
      INSERT INTO rate_limit_windows AS w (key, hits, refused, last_at_ms)
      VALUES (${key}, ${JSON.stringify([nowMs])}, 0, ${nowMs}::bigint)
      ON CONFLICT (key) DO UPDATE SET
        hits = (
          SELECT (coalesce(jsonb_agg(e.h ORDER BY (e.h)::bigint), '[]'::jsonb)
            || CASE WHEN count(*) < ${limit} THEN jsonb_build_array(${nowMs}::bigint)
               ELSE '[]'::jsonb END)::text
          FROM ${inWindow}
        ),
        refused = (SELECT CASE WHEN count(*) < ${limit} THEN 0 ELSE 1 END FROM ${inWindow}),
        last_at_ms = ${nowMs}::bigint
      RETURNING hits, refused`.execute(this.db);
    const row = rows[0]!;
    return { allowed: Number(row.refused) === 0, hits: JSON.parse(row.hits) as number[] };
  }

  /** Deletes budgets untouched since `beforeMs` (their windows are empty). */
  async prune(beforeMs: number): Promise<void> {
    await this.db.deleteFrom('rate_limit_windows').where('last_at_ms', '<', beforeMs).execute();
  }
}
