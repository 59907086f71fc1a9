/**
 * Throughput of `GET /v2/containers?page[size]=100&include=shipment` on a store of 10k
 * containers, as a ratio to a bare Fastify route that returns the same bytes pre-serialized
 * (the ceiling for this machine and HTTP stack), both measured in the same run; median of runs.
 *
 *   npx tsx bench/api-list.ts [--runs 5] [--seconds 5]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { startService } from '../src/service';
import { seedDemoData } from '../src/service/dev/seed';

// autocannon ships no type declarations: describe the part used here.
type Autocannon = (options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  duration: number;
}) => Promise<{ non2xx: number; errors: number; requests: { average: number } }>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' } },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const CONTAINERS = 10_000;
const PER_SHIPMENT = 4;
const PATH = '/v2/containers?page[size]=100&include=shipment';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(url: string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`errors while measuring ${url}`);
  return result.requests.average;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-'));
const service = await startService({
  dataDir,
  port: 0,
  config: { requestsPerMinute: 1e12, trackingRequestsPerMinute: 1e12 },
});
const baseline = Fastify();
try {
  const account = (await service.store.accounts.first())!;
  const key = service.initialKey!;
  console.log(`seeding ${CONTAINERS} containers...`);
  const t0 = Date.now();
  await seedDemoData(service.store, account.id, {
    shipments: CONTAINERS / PER_SHIPMENT,
    containersPerShipment: PER_SHIPMENT,
  });
  console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const origin = service.baseUrl.replace(/\/v2$/, '');
  const headers = { Authorization: `Token ${key}` };
  const sample = await fetch(origin + PATH, { headers });
  const bytes = await sample.text();
  const doc = JSON.parse(bytes) as {
    data: unknown[];
    included: unknown[];
    meta: { total: number };
  };
  if (doc.data.length !== 100 || doc.meta.total !== CONTAINERS)
    throw new Error('unexpected sample');
  console.log(
    `response: ${doc.data.length} containers, ${doc.included.length} included, ${bytes.length} bytes`,
  );

  baseline.get('/v2/containers', (_req, reply) =>
    reply.type('application/vnd.api+json').send(bytes),
  );
  await baseline.listen({ host: '127.0.0.1', port: 0 });
  const address = baseline.server.address();
  const baselineUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${PATH}`;

  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    const ceiling = await measure(baselineUrl, headers);
    const api = await measure(origin + PATH, headers);
    ratios.push(api / ceiling);
    console.log(
      `run ${i + 1}: api ${api.toFixed(0)} req/s, bare ${ceiling.toFixed(0)} req/s, ratio ${(api / ceiling).toFixed(3)}`,
    );
  }
  console.log(`median ratio api/bare: ${median(ratios).toFixed(3)} (target >= 0.25)`);
} finally {
  await baseline.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
