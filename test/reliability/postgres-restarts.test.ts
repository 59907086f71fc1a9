/**
 * The database goes away and comes back while the service is busy: a service process on a
 * throwaway PostgreSQL cluster takes a steady stream of writes and reads while the cluster is
 * stopped 20 times, alternately with `pg_ctl stop -m fast` (connections get 57P01) and
 * `-m immediate` (connections just close), and started again. The process must live through
 * all of it; while the database is gone the API answers 503 with Retry-After and `/healthz`
 * answers 503; after each start both serve again without a restart; every write the API
 * accepted (201) is there at the end.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../support/cache-fixtures';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../support/postgres';
import { startChildService, type ChildService } from '../support/service-process';

const CYCLES = 20;
/** Requests in flight at once, each loop one request after the other. */
const LOOPS = 3;
const REQUEST_TIMEOUT_MS = 20_000;
const missing = postgresAvailable();

let cluster: PostgresCluster;
let service: ChildService;
const tmp = tempDir('quayside-pg-restarts-');

beforeAll(async () => {
  if (missing) return;
  // A commit the service reports must survive an immediate stop (the OS keeps running, so
  // fsync can stay off).
  cluster = await startPostgres({ durableCommits: true });
  const databaseUrl = await cluster.createDatabase('restarts');
  const now = Date.now();
  service = await startChildService({
    dataDir: tmp.dir,
    feeds: {},
    origin: now,
    realStart: now,
    speed: 1,
    databaseUrl,
  });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await cluster?.stop();
  tmp.remove();
});

/** Polls `check` until it holds; fails with `what` after `limitMs`. */
async function until(what: string, check: () => Promise<boolean>, limitMs: number) {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function send(method: string, path: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Token ${service.initialKey}`,
      'Content-Type': 'application/vnd.api+json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text };
}

const healthStatus = async () =>
  (
    await fetch(service.baseUrl.replace(/\/v2$/, '/healthz'), {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
  ).status;

it.skipIf(missing)(
  `lives through ${CYCLES} database stops under load, answering 503 meanwhile and losing no accepted write`,
  async () => {
    const accepted: string[] = [];
    const unexpected: string[] = [];
    let unavailable = 0;
    let running = true;
    let serial = 0;
    const loop = async () => {
      while (running) await oneRound().catch((error: Error) => unexpected.push(error.message));
    };
    const oneRound = async () => {
      {
        const name = `Restart party ${++serial}`;
        const created = await send('POST', '/parties', {
          data: { type: 'party', attributes: { company_name: name } },
        });
        if (created.status === 201) {
          accepted.push((JSON.parse(created.text) as { data: { id: string } }).data.id);
        } else if (created.status === 503 && created.retryAfter) {
          unavailable++;
        } else {
          unexpected.push(`POST ${created.status} ${created.text.slice(0, 200)}`);
        }
        const listed = await send('GET', '/parties');
        if (listed.status === 503 && listed.retryAfter) unavailable++;
        else if (listed.status !== 200) unexpected.push(`GET ${listed.status}`);
      }
    };
    const loops = Array.from({ length: LOOPS }, loop);

    const started = Date.now();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await until('a write accepted', async () => accepted.length > 0, 30_000);
      const before = accepted.length;
      await cluster.halt(cycle % 2 === 0 ? 'fast' : 'immediate');
      await until('/healthz answering 503', async () => (await healthStatus()) === 503, 10_000);
      await cluster.resume();
      await until('/healthz answering 200', async () => (await healthStatus()) === 200, 30_000);
      await until('writes accepted again', async () => accepted.length > before, 30_000);
      expect(service.exit(), service.output()).toBeNull();
    }
    running = false;
    await Promise.all(loops);
    const elapsedMs = Date.now() - started;

    expect(service.exit(), service.output()).toBeNull();
    expect(service.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    expect(unexpected).toEqual([]);
    expect(unavailable).toBeGreaterThan(0);
    const missingWrites: string[] = [];
    for (const id of accepted) {
      const read = await send('GET', `/parties/${id}`);
      if (read.status !== 200) missingWrites.push(`${id}: ${read.status}`);
    }
    expect(missingWrites).toEqual([]);
    console.log(
      `${CYCLES} stops in ${Math.round(elapsedMs / 1000)} s: ${accepted.length} writes accepted and kept, ${unavailable} answers 503 + Retry-After`,
    );
  },
  300_000,
);
