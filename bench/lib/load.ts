/**
 * HTTP load generation with autocannon (a dev dependency that ships no type declarations: the
 * part used here is described below).
 */
import { createRequire } from 'node:module';

export interface LoadResult {
  non2xx: number;
  errors: number;
  requests: { average: number };
  /** autocannon's percentiles, in whole milliseconds. */
  latency: { p99: number; p50: number };
  /** The 99th percentile of every 2xx response time, to the microsecond. */
  p99Ms: number;
}

interface AutocannonInstance extends Promise<Omit<LoadResult, 'p99Ms'>> {
  /** Every response: its status and its time in milliseconds (a float, from process.hrtime). */
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, ms: number) => void,
  ): void;
}

type Autocannon = (options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  duration: number;
}) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * Runs `connections` concurrent connections for `seconds`; any failed request is an error.
 * autocannon's histogram keeps whole milliseconds, which at 1-4 ms makes a p99 ratio jump by
 * halves; the response times it reports one by one are exact, so the p99 is taken from those.
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const times: number[] = [];
  const run = autocannon({ url, headers, connections, duration: seconds });
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const result = await run;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`errors while measuring ${url}`);
  times.sort((a, b) => a - b);
  const p99Ms = times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)] ?? NaN;
  return { ...result, p99Ms };
}

/** True when `--quick` was passed or QUAYSIDE_BENCH_QUICK is set: fewer, shorter runs. */
export const quick = process.argv.includes('--quick') || !!process.env.QUAYSIDE_BENCH_QUICK;
