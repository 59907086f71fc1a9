/**
 * The service on PostgreSQL against the same service on SQLite, same data, same run:
 *
 * - API list throughput (`GET /v2/containers?page[size]=100&include=shipment`, 10 connections)
 *   and detail p99 (`GET /v2/containers/{id}?include=shipment`, 50 connections) on 10k
 *   containers, one instance each, in alternating rounds (medians); PostgreSQL as a ratio to
 *   SQLite: targets (issue 39) list >= 0.8, detail p99 <= 1.5.
 * - The same list and detail load on one and on three instances (separate processes) sharing
 *   one PostgreSQL database, the connections split between them as a load balancer would, in
 *   alternating rounds (medians), with the default settings: three must not be slower than one
 *   (list >= 1, detail p99 of every response <= 1; the worst instance's own p99 is printed beside
 *   it). The same again with `--db-read-staleness-ms 0` on every instance (strict reads, a
 *   statement per request when requests are few), without a target: an operator's choice
 *   (row-versions.ts says what it trades). Beside them, for reference, the same load on one and
 *   three bare servers sending the same bytes: what adding processes costs on this machine
 *   before any work of the service's own.
 * - List page latency (first page of 30, one client, median of 200) as the table grows from 10k
 *   to 100k containers (1M with --full), seeded straight into the store: the page cost must stay
 *   flat (ratio largest/smallest, goal <= 1.5).
 *
 * Needs PostgreSQL's server binaries (a throwaway cluster is started); says so and reports
 * nothing without them.
 *
 *   npx tsx bench/postgres-store.ts [--seconds 5] [--full] [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startService, type RunningService } from '../src/service';
import { postgresAvailable, startPostgres } from '../test/support/postgres';
import { sql, withServiceDatabase, type ServiceDatabaseAt } from '../test/support/service-database';
import { load, percentile, quick } from './lib/load';
import { median, reportResult } from './lib/report';
import { seedBenchData } from './lib/seed';
import { serveInChild, type ChildService } from './lib/service-process';
import { bareInChild, type BareProcess } from './lib/bare-process';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: quick ? '2' : '5' },
    full: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
/** One measurement across instances: list req/s; detail p99 of all responses and of the worst. */
interface Measured {
  perSecond: number;
  p99: number;
  worstP99: number;
  /** CPU time of the measured processes per list response, µs (steadier than req/s). */
  cpuPerList: number;
}
/** A server process measured by the 3-vs-1 rows: where to send load, and its CPU time. */
interface Measurable {
  origin: string;
  cpuMicros(): Promise<number>;
}
/** Alternating rounds (SQLite and PostgreSQL; one process and three), medians reported. */
const ROUNDS = quick ? 1 : 3;
const SIZES = values.full
  ? [10_000, 100_000, 1_000_000]
  : quick
    ? [2_000, 20_000]
    : [10_000, 100_000];
const LIST_PATH = '/v2/containers?page[size]=100&include=shipment';
const PAGE_PATH = '/v2/containers?page[size]=30';

const missing = postgresAvailable();
if (missing) {
  console.log(`skipped: ${missing}`);
  process.exit(0);
}

const cluster = await startPostgres();
const dirs: string[] = [];
let databases = 0;

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-pg-'));
  dirs.push(dir);
  return dir;
};

async function startOn(
  kind: 'sqlite' | 'postgres',
): Promise<{ service: RunningService; databaseUrl: string | null; at: ServiceDatabaseAt }> {
  const dataDir = tempDir();
  const database =
    kind === 'postgres' ? { url: await cluster.createDatabase(`bench_${++databases}`) } : undefined;
  const service = await startService({
    dataDir,
    database,
    port: 0,
    config: { requestsPerMinute: 1e12, trackingRequestsPerMinute: 1e12 },
  });
  return { service, databaseUrl: database?.url ?? null, at: { dataDir, database } };
}

async function seeded(kind: 'sqlite' | 'postgres', containers: number) {
  const { service, databaseUrl, at } = await startOn(kind);
  const account = (await service.store.accounts.primary())!;
  const t0 = performance.now();
  const { containerIds } = await seedBenchData(at, service.store, account.id, {
    containers,
    containersPerShipment: 4,
    transportEventsPerContainer: 1,
    rawEventsPerContainer: 0,
  });
  console.log(
    `${kind}: seeded ${containers} containers in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // The tables as autovacuum leaves them within a minute of a bulk load (it vacuums after inserts
  // too): measured right after seeding, the planner would still believe the table holds a handful
  // of rows, and a vacuum of the new rows could run beside the measurement.
  if (kind === 'postgres') await withServiceDatabase(at, (db) => sql`VACUUM (ANALYZE)`.execute(db));
  return {
    service,
    databaseUrl,
    origin: service.baseUrl.replace(/\/v2$/, ''),
    headers: { Authorization: `Token ${service.initialKey}` },
    containerIds,
  };
}

/**
 * Load spread over several instances at once (connections split between them, as a load
 * balancer would): total requests per second, the p99 of every response (what the balancer's
 * clients see) and the worst instance's own p99.
 */
async function loadAcross(
  origins: readonly string[],
  requestPath: string,
  headers: Record<string, string>,
  connections: number,
  duration = seconds,
) {
  const results = await Promise.all(
    origins.map((origin, i) =>
      load(
        origin + requestPath,
        headers,
        Math.floor(connections / origins.length) + (i < connections % origins.length ? 1 : 0),
        duration,
      ),
    ),
  );
  const pooled = results.flatMap((r) => r.times).sort((a, b) => a - b);
  return {
    perSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    responses: pooled.length,
    p99: percentile(pooled, 0.99),
    worstP99: Math.max(...results.map((r) => r.p99Ms)),
  };
}

/** Median latency (ms) of one client fetching the first page `count` times. */
async function pageLatency(origin: string, headers: Record<string, string>, count = 200) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(origin + PAGE_PATH, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    times.push(performance.now() - t0);
  }
  return median(times);
}

try {
  // Throughput and p99 on the smallest size, one instance per store.
  const small = {
    sqlite: await seeded('sqlite', SIZES[0]!),
    postgres: await seeded('postgres', SIZES[0]!),
  };
  // SQLite and PostgreSQL in turn for ROUNDS rounds, medians: a disturbance of the machine lasting
  // a few seconds (seen: both detail p99s near 80 ms in one run) lands on one round, not on a row.
  const rounds = {
    sqlite: { list: [] as number[], p99: [] as number[] },
    postgres: { list: [] as number[], p99: [] as number[] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ['sqlite', 'postgres'] as const) {
      const s = small[kind];
      const detail = `/v2/containers/${s.containerIds[s.containerIds.length >> 1]}?include=shipment`;
      const list = (await load(s.origin + LIST_PATH, s.headers, 10, seconds)).requests.average;
      const one = (await load(s.origin + detail, s.headers, 50, seconds)).p99Ms;
      rounds[kind].list.push(list);
      rounds[kind].p99.push(one);
      console.log(
        `${kind}, round ${round + 1}: list ${list.toFixed(0)} req/s, detail p99 ${one.toFixed(2)} ms`,
      );
    }
  }
  const throughput = { sqlite: median(rounds.sqlite.list), postgres: median(rounds.postgres.list) };
  const p99 = { sqlite: median(rounds.sqlite.p99), postgres: median(rounds.postgres.p99) };
  reportResult({
    name: 'postgres list throughput vs sqlite (1 instance)',
    value: throughput.postgres,
    baseline: throughput.sqlite,
    unit: 'req/s',
    target: { min: 0.8 },
    note: `${LIST_PATH} on ${SIZES[0]} containers, 10 connections, ${seconds} s each, median of ${ROUNDS} alternating rounds`,
  });
  reportResult({
    name: 'postgres detail p99 vs sqlite (1 instance)',
    value: p99.postgres,
    baseline: p99.sqlite,
    unit: 'ms',
    target: { max: 1.5 },
    note: `GET /v2/containers/{id}?include=shipment, 50 connections, ${seconds} s each, median of ${ROUNDS} alternating rounds`,
  });
  // One and three instances, each its own process, on the same PostgreSQL database; then the
  // same load on one and three bare servers sending the same bytes (this machine's ceiling).
  {
    const s = small.postgres;
    const detail = `/v2/containers/${s.containerIds[s.containerIds.length >> 1]}?include=shipment`;
    const key = s.headers.Authorization.replace(/^Token /, '');
    /** One measurement across `origins`: list throughput and the detail p99s. */
    const measureOnce = async (processes: Measurable[]): Promise<Measured> => {
      const origins = processes.map((p) => p.origin);
      const cpu = () => Promise.all(processes.map((p) => p.cpuMicros()));
      const before = await cpu();
      const list = await loadAcross(origins, LIST_PATH, s.headers, 10);
      const spent = (await cpu()).reduce((sum, micros, i) => sum + micros - before[i]!, 0);
      const one = await loadAcross(origins, detail, s.headers, 50);
      return {
        perSecond: list.perSecond,
        p99: one.p99,
        worstP99: one.worstP99,
        cpuPerList: spent / list.responses,
      };
    };
    /**
     * One process and three, measured in turn for ROUNDS rounds after each is warmed up as long
     * as it is then measured; the medians. On a shared 2-core machine one process's figure moved
     * by a factor of two between runs minutes apart (570 to 1590 list req/s), so a single pair
     * could pass or fail on the machine's mood alone.
     */
    const oneAndThree = async (label: string, processes: Measurable[]) => {
      const sets: Record<number, Measurable[]> = { 1: processes.slice(0, 1), 3: processes };
      // Each process warmed alone with the whole load, as the first one is by every one-process
      // round: warmed only by a three-way split, three processes' first round read 0.51 of one
      // where their third read 0.96 (0.92 in their first round once warmed alone).
      for (const server of processes) await measureOnce([server]);
      await measureOnce(sets[3]!);
      const rounds: Record<number, Measured[]> = { 1: [], 3: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const count of [1, 3]) {
          const result = await measureOnce(sets[count]!);
          rounds[count]!.push(result);
          console.log(
            `${label}, ${count} of them, round ${round + 1}: list ${result.perSecond.toFixed(0)} req/s, detail p99 ${result.p99.toFixed(2)} ms (worst process ${result.worstP99.toFixed(2)} ms), ${result.cpuPerList.toFixed(0)} µs CPU a list response`,
          );
        }
      }
      const medians = (count: number) => ({
        perSecond: median(rounds[count]!.map((r) => r.perSecond)),
        p99: median(rounds[count]!.map((r) => r.p99)),
        worstP99: median(rounds[count]!.map((r) => r.worstP99)),
        cpuPerList: median(rounds[count]!.map((r) => r.cpuPerList)),
      });
      return { 1: medians(1), 3: medians(3) };
    };
    let measured: Record<number, Measured>;
    let strict: Record<number, Measured>;
    let bare: Record<number, Measured>;
    const instances: ChildService[] = [];
    const bareServers: BareProcess[] = [];
    /** Three instances up, measured one and three at a time (oneAndThree). */
    const measureInstances = async (label: string, readStalenessMs?: number) => {
      while (instances.length < 3)
        instances.push(
          await serveInChild(tempDir(), key, { database: s.databaseUrl!, readStalenessMs }),
        );
      // Steady state, as the one-process rows are measured: every instance past its start (its
      // sea-route worker has built its graph; memory() waits for that). The other two instances
      // stay up, idle, while one is measured alone (about 3% of a core each).
      await Promise.all(instances.map((instance) => instance.memory()));
      return oneAndThree(
        label,
        instances.map((i) => ({ origin: i.baseUrl.replace(/\/v2$/, ''), cpuMicros: i.cpuMicros })),
      );
    };
    try {
      measured = await measureInstances('postgres instances');
      const origin = instances[0]!.baseUrl.replace(/\/v2$/, '');
      const bodies = {
        list: await (await fetch(origin + LIST_PATH, { headers: s.headers })).text(),
        detail: await (await fetch(origin + detail, { headers: s.headers })).text(),
      };
      for (const instance of instances.splice(0)) await instance.close();
      strict = await measureInstances('postgres instances, --db-read-staleness-ms 0', 0);
      for (const instance of instances.splice(0)) await instance.close();
      while (bareServers.length < 3) bareServers.push(await bareInChild(bodies));
      bare = await oneAndThree('bare servers', bareServers);
    } finally {
      for (const instance of instances) await instance.close();
      for (const server of bareServers) await server.close();
    }
    const cores = os.availableParallelism();
    const ceiling = `the same load on 1 and 3 bare servers (separate processes) sending the same bytes gave ${(bare[3]!.perSecond / bare[1]!.perSecond).toFixed(2)} (row "bare server list throughput, 3 processes vs 1")`;
    reportResult({
      name: 'postgres list throughput, 3 instances vs 1',
      value: measured[3]!.perSecond,
      baseline: measured[1]!.perSecond,
      unit: 'req/s',
      target: { min: 1 },
      note: `${LIST_PATH} on ${SIZES[0]} containers, 10 connections split across the instances (separate processes, one database), ${seconds} s, median of ${ROUNDS} alternating rounds; this machine has ${cores} cores shared by the instances, PostgreSQL and the load generator; ${ceiling}`,
    });
    reportResult({
      name: 'postgres detail p99, 3 instances vs 1',
      value: measured[3]!.p99,
      baseline: measured[1]!.p99,
      unit: 'ms',
      target: { max: 1 },
      note: `GET /v2/containers/{id}?include=shipment, 50 connections split across the instances, p99 of every response (as a load balancer's clients see it), ${seconds} s, median of ${ROUNDS} alternating rounds; ${cores} cores; bare servers gave ${(bare[3]!.p99 / bare[1]!.p99).toFixed(2)}`,
    });
    reportResult({
      name: 'postgres detail p99 of the worst instance, 3 vs 1',
      value: measured[3]!.worstP99,
      baseline: measured[1]!.worstP99,
      unit: 'ms',
      target: null,
      note: `the row above with each instance's responses apart, the worst instance's p99 taken (how that row was measured until 29 Nov); bare servers gave ${(bare[3]!.worstP99 / bare[1]!.worstP99).toFixed(2)}; no target of its own`,
    });
    reportResult({
      name: 'postgres list throughput, 3 vs 1, strict reads',
      value: strict[3]!.perSecond,
      baseline: strict[1]!.perSecond,
      unit: 'req/s',
      target: null,
      note: `the row "postgres list throughput, 3 instances vs 1" with every instance started with --db-read-staleness-ms 0 (each request waits for a statement begun after it arrived, instead of relying on PostgreSQL's change announcements); an operator's choice, so no target of its own`,
    });
    reportResult({
      name: 'postgres detail p99, 3 vs 1, strict reads',
      value: strict[3]!.p99,
      baseline: strict[1]!.p99,
      unit: 'ms',
      target: null,
      note: `as the row above for the detail load of the row "postgres detail p99, 3 instances vs 1"; no target of its own`,
    });
    const cpuRow = (name: string, rows: Record<number, Measured>, note: string) =>
      reportResult({
        name,
        value: rows[3]!.cpuPerList,
        baseline: rows[1]!.cpuPerList,
        unit: 'µs',
        target: null,
        note: `CPU time (user and system) of the processes under load per list response, the list load of the row "postgres list throughput, 3 instances vs 1", median of ${ROUNDS} alternating rounds; ${note}; no target of its own`,
      });
    cpuRow(
      'postgres CPU per list response, 3 instances vs 1',
      measured,
      'what each response costs the instances, steadier on a shared machine than requests a second',
    );
    cpuRow(
      'postgres CPU per list response, 3 vs 1, strict reads',
      strict,
      'every instance started with --db-read-staleness-ms 0',
    );
    cpuRow(
      'bare server CPU per list response, 3 processes vs 1',
      bare,
      'bare servers sending the same bytes',
    );
    reportResult({
      name: 'bare server list throughput, 3 processes vs 1',
      value: bare[3]!.perSecond,
      baseline: bare[1]!.perSecond,
      unit: 'req/s',
      target: null,
      note: `what adding processes costs on this machine before any work of the service's own: a bare Fastify server per process sending the service's list bytes, the same load and split as the row "postgres list throughput, 3 instances vs 1"; no target of its own`,
    });
    reportResult({
      name: 'bare server detail p99, 3 processes vs 1',
      value: bare[3]!.p99,
      baseline: bare[1]!.p99,
      unit: 'ms',
      target: null,
      note: `as the row above for the detail load of the row "postgres detail p99, 3 instances vs 1"; no target of its own`,
    });
    // What three instances lose against one, as a share of what three bare servers lose: on a
    // machine whose cores the load generator and PostgreSQL share, adding processes costs even a
    // server doing nothing, so these say whether the service scales worse than that alone.
    reportResult({
      name: 'postgres list 3 vs 1, against bare servers 3 vs 1',
      value: measured[3]!.perSecond / measured[1]!.perSecond,
      baseline: bare[3]!.perSecond / bare[1]!.perSecond,
      unit: 'x',
      target: null,
      note: `the ratio of the row "postgres list throughput, 3 instances vs 1" against that of "bare server list throughput, 3 processes vs 1" (1 or more: three instances lose no more than three bare servers do); no target of its own`,
    });
    reportResult({
      name: 'postgres detail p99 3 vs 1, against bare servers 3 vs 1',
      value: measured[3]!.p99 / measured[1]!.p99,
      baseline: bare[3]!.p99 / bare[1]!.p99,
      unit: 'x',
      target: null,
      note: `the ratio of the row "postgres detail p99, 3 instances vs 1" against that of "bare server detail p99, 3 processes vs 1" (1 or less: three instances' p99 grows no more than three bare servers' does); no target of its own`,
    });
  }
  const smallPage = {
    sqlite: await pageLatency(small.sqlite.origin, small.sqlite.headers),
    postgres: await pageLatency(small.postgres.origin, small.postgres.headers),
  };
  await small.sqlite.service.close();
  await small.postgres.service.close();

  // Page latency as the table grows.
  for (const kind of ['postgres', 'sqlite'] as const) {
    let largest = smallPage[kind];
    for (const size of SIZES.slice(1)) {
      const big = await seeded(kind, size);
      largest = await pageLatency(big.origin, big.headers);
      console.log(`${kind}: first page at ${size} containers: ${largest.toFixed(2)} ms`);
      await big.service.close();
    }
    reportResult({
      name: `${kind} list page latency ${SIZES.at(-1)} vs ${SIZES[0]} containers`,
      value: largest,
      baseline: smallPage[kind],
      unit: 'ms',
      target: { max: 1.5 },
      note: `${PAGE_PATH}, one client, median of 200; ${SIZES.join(' / ')} containers`,
    });
  }
} finally {
  await cluster.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}
