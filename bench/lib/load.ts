/**
 * HTTP load generation with autocannon (a dev dependency that ships no type declarations: the
 * part used here is described below), either on this process's event loop or from a process of
 * its own (bench/lib/load-client.ts).
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface LoadResult {
  non2xx: number;
  errors: number;
  requests: { average: number };
  /** autocannon's percentiles, in whole milliseconds. */
  latency: { p99: number; p50: number };
  /** The 99th percentile of every 2xx response time, to the microsecond. */
  p99Ms: number;
  /** Every 2xx response time in milliseconds, ascending (to pool several loads' percentiles). */
  times: number[];
}

/** autocannon's summary and every 2xx response time, in milliseconds. */
type Measured = Omit<LoadResult, 'p99Ms'>;

interface AutocannonInstance extends Promise<Omit<LoadResult, 'p99Ms' | 'times'>> {
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

/** The load generated on this process's event loop (load-client.ts runs it in its own). */
export async function measureHere(options: LoadOptions): Promise<Measured> {
  const times: number[] = [];
  const run = autocannon({ ...options, duration: options.seconds });
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  return { ...(await run), times };
}

function measureApart(options: LoadOptions): Promise<Measured> {
  const client = fork(
    fileURLToPath(new URL('./load-client.ts', import.meta.url)),
    [JSON.stringify(options)],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  return new Promise((resolve, reject) => {
    client.once('message', (message) => resolve(message as Measured));
    client.once('error', reject);
    client.once('exit', (code) => reject(new Error(`load generator exited (${code})`)));
  });
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

/**
 * Runs `connections` concurrent connections for `seconds`; any failed request is an error.
 * `client: 'apart'` runs the load generator in a process of its own, so that it does not share
 * the event loop of a service running in this process (a real client would not).
 * autocannon's histogram keeps whole milliseconds, which at 1-4 ms makes a p99 ratio jump by
 * halves; the response times it reports one by one are exact, so the p99 is taken from those.
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  { client = 'here' }: { client?: 'here' | 'apart' } = {},
): Promise<LoadResult> {
  const options = { url, headers, connections, seconds };
  const result = await (client === 'here' ? measureHere(options) : measureApart(options));
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`errors while measuring ${url}`);
  result.times.sort((a, b) => a - b);
  return { ...result, p99Ms: percentile(result.times, 0.99) };
}

/** The `q` quantile (0..1) of ascending `sorted` times: the smallest that `q` of them reach. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? NaN;
}

/** True when `--quick` was passed or QUAYSIDE_BENCH_QUICK is set: fewer, shorter runs. */
export const quick = process.argv.includes('--quick') || !!process.env.QUAYSIDE_BENCH_QUICK;
