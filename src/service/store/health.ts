/**
 * Whether the database answers, for `/healthz`: one `select 1` bounded in time, asked at most
 * once per `cacheMs` however often a balancer polls (concurrent polls share the one in flight).
 */
import { sql, type Kysely } from 'kysely';
import { isStoreUnavailable } from './dialect';
import type { Database } from './schema';

export interface DatabaseHealth {
  ok: boolean;
  /** Why not, in words safe to show (no URL, no credentials). */
  detail?: string;
}

export interface DatabaseHealthOptions {
  /** A probe slower than this counts as unavailable (default 2 s). */
  timeoutMs?: number;
  /** How long an answer is reused (default 1 s). */
  cacheMs?: number;
}

export function databaseHealth(
  db: Kysely<Database>,
  options: DatabaseHealthOptions = {},
): () => Promise<DatabaseHealth> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const cacheMs = options.cacheMs ?? 1_000;
  let last: { at: number; answer: Promise<DatabaseHealth> } | null = null;

  const probe = async (): Promise<DatabaseHealth> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<DatabaseHealth>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, detail: `no answer within ${timeoutMs} ms` }),
        timeoutMs,
      );
    });
    const asked = sql`select 1`.execute(db).then(
      (): DatabaseHealth => ({ ok: true }),
      (error: unknown): DatabaseHealth => ({
        ok: false,
        detail: isStoreUnavailable(error) ? 'unreachable' : 'failing queries',
      }),
    );
    try {
      return await Promise.race([asked, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };

  return () => {
    const now = performance.now();
    if (!last || now - last.at >= cacheMs) last = { at: now, answer: probe() };
    return last.answer;
  };
}
