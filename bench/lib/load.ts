/**
 * HTTP load generation with autocannon (a dev dependency that ships no type declarations: the
 * part used here is described below).
 */
import { createRequire } from 'node:module';

export interface LoadResult {
  non2xx: number;
  errors: number;
  requests: { average: number };
  latency: { p99: number; p50: number };
}

type Autocannon = (options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  duration: number;
}) => Promise<LoadResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Runs `connections` concurrent connections for `seconds`; any failed request is an error. */
export async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`errors while measuring ${url}`);
  return result;
}

/** True when `--quick` was passed or QUAYSIDE_BENCH_QUICK is set: fewer, shorter runs. */
export const quick = process.argv.includes('--quick') || !!process.env.QUAYSIDE_BENCH_QUICK;
