/**
 * The /v2 API under load, against a bare Fastify route that returns the same bytes
 * pre-serialized (the ceiling for this machine and HTTP stack), both measured in the same run;
 * medians of several alternating runs.
 *
 * - List throughput: `GET /v2/containers?page[size]=100&include=shipment` on 10k containers
 *   (10 connections), target >= 0.75 of the bare route (issue 39; 0.5 in issue 22).
 * - Detail latency: p99 of `GET /v2/containers/{id}?include=shipment` under 50 concurrent
 *   connections, as a ratio to the bare route's p99 under the same load, target <= 1.5 (issue 39;
 *   2 in issue 22).
 *
 *   npx tsx bench/api-list.ts [--runs 5] [--seconds 5] [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { startService } from '../src/service';
import { load, quick } from './lib/load';
import { median, reportResult } from './lib/report';
import { seedBenchData } from './lib/seed';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: quick ? '3' : '5' },
    seconds: { type: 'string', default: quick ? '3' : '5' },
    quick: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const CONTAINERS = 10_000;
const LIST_PATH = '/v2/containers?page[size]=100&include=shipment';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-'));
const service = await startService({
  dataDir,
  port: 0,
  config: { requestsPerMinute: 1e12, trackingRequestsPerMinute: 1e12 },
});
const bare = Fastify();
try {
  const account = (await service.store.accounts.primary())!;
  const key = service.initialKey!;
  const t0 = performance.now();
  const { containerIds } = await seedBenchData({ dataDir }, service.store, account.id, {
    containers: CONTAINERS,
    containersPerShipment: 4,
    transportEventsPerContainer: 2,
    rawEventsPerContainer: 2,
  });
  console.log(
    `seeded ${CONTAINERS} containers in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const origin = service.baseUrl.replace(/\/v2$/, '');
  const headers = { Authorization: `Token ${key}` };
  const listBytes = await (await fetch(origin + LIST_PATH, { headers })).text();
  const doc = JSON.parse(listBytes) as {
    data: unknown[];
    included: unknown[];
    meta: { total: number };
  };
  if (doc.data.length !== 100 || doc.meta.total !== CONTAINERS)
    throw new Error('unexpected sample');
  console.log(
    `list response: ${doc.data.length} containers, ${doc.included.length} included, ${listBytes.length} bytes`,
  );
  const detailPath = `/v2/containers/${containerIds[containerIds.length >> 1]}?include=shipment`;
  const detailBytes = await (await fetch(origin + detailPath, { headers })).text();
  console.log(`detail response: ${detailBytes.length} bytes`);

  // The same bytes from routes doing no work: the ceiling of this HTTP stack on this machine.
  // Sent as the service sends them: a list page as bytes, a detail document as a string.
  const listBuffer = Buffer.from(listBytes);
  bare.get('/v2/containers', (_req, reply) =>
    reply.type('application/vnd.api+json').send(listBuffer),
  );
  bare.get('/v2/containers/:id', (_req, reply) =>
    reply.type('application/vnd.api+json').send(detailBytes),
  );
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const address = bare.server.address();
  const bareOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const api: number[] = [];
  const ceiling: number[] = [];
  for (let i = 0; i < runs; i++) {
    const b = (await load(bareOrigin + LIST_PATH, headers, 10, seconds)).requests.average;
    const a = (await load(origin + LIST_PATH, headers, 10, seconds)).requests.average;
    ceiling.push(b);
    api.push(a);
    console.log(
      `list run ${i + 1}: api ${a.toFixed(0)} req/s, bare ${b.toFixed(0)} req/s, ratio ${(a / b).toFixed(3)}`,
    );
  }
  reportResult({
    name: 'api list throughput (page of 100 + shipments)',
    value: median(api),
    baseline: median(ceiling),
    unit: 'req/s',
    target: { min: 0.75 },
    note: `${LIST_PATH} on ${CONTAINERS} containers, 10 connections, ${runs} x ${seconds} s; baseline: bare Fastify route sending the same ${listBytes.length} bytes`,
  });

  /** Detail p99s of the API and of the bare route, alternating, with the client placed so. */
  async function detailRuns(client: 'here' | 'apart') {
    const api: number[] = [];
    const ceiling: number[] = [];
    for (let i = 0; i < runs; i++) {
      const b = (await load(bareOrigin + detailPath, headers, 50, seconds, { client })).p99Ms;
      const a = (await load(origin + detailPath, headers, 50, seconds, { client })).p99Ms;
      ceiling.push(b);
      api.push(a);
      console.log(
        `detail run ${i + 1}${client === 'apart' ? ', client apart' : ''}: api p99 ${a.toFixed(2)} ms, bare p99 ${b.toFixed(2)} ms, ratio ${(a / b).toFixed(2)}`,
      );
    }
    return { value: median(api), baseline: median(ceiling) };
  }

  reportResult({
    name: 'api detail p99 latency, 50 connections',
    ...(await detailRuns('here')),
    unit: 'ms',
    target: { max: 1.5 },
    note: `GET /v2/containers/{id}?include=shipment, 50 connections, ${runs} x ${seconds} s, p99 of every response time (to the microsecond), median of the runs; baseline: bare route sending the same bytes.`,
  });

  // The same with the load generator in a process of its own: the service's event loop serves
  // only requests, so the ratio is closer to what the route costs the service per request.
  reportResult({
    name: 'api detail p99, client in another process',
    ...(await detailRuns('apart')),
    unit: 'ms',
    target: null,
    note: `as the row above with autocannon in a process of its own (the row above runs it on the service's event loop, as the target was set); no target of its own.`,
  });
} finally {
  await bare.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
