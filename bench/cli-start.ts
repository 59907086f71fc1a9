/**
 * Cold starts of the built `quayside` command, each against a baseline started the same way in
 * this run (medians of several starts, wall time from spawn):
 *
 * - `quayside --help` to its exit vs `node -e ''`;
 * - `quayside serve` to "listening" vs a bare Fastify app to its listen (one route, same Node);
 * - `quayside serve --sim` to "listening" vs plain `serve`.
 *
 * Both serves start on a data folder made by an earlier start, as a service restarts.
 *
 *   npx tsx bench/run.ts cli-start
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportResult } from './lib/report';
import { medianOf, root, timeStart } from './lib/start';

const BIN = path.join(root, 'bin', 'quayside.mjs');
const RUNS = 7;
const SERVE_RUNS = 5;

const BARE_FASTIFY = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/', async () => ({ ok: true }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log('listening on ' + address);
`;

const { ensureBuild } = (await import(
  new URL('../scripts/lib/setup.mjs', import.meta.url).href
)) as { ensureBuild: () => void };
ensureBuild();

const bareNode = await medianOf(RUNS, () => timeStart(['-e', '']));
const help = await medianOf(RUNS, () => timeStart([BIN, '--help']));
reportResult({
  name: 'quayside --help vs node -e ""',
  value: help,
  baseline: bareNode,
  unit: 'ms',
  target: { max: 3 },
});

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-start-'));
try {
  const serveArgs = [BIN, 'serve', '--port', '0', '--data-dir', path.join(work, 'plain')];
  const simArgs = [BIN, 'serve', '--sim', '--port', '0', '--data-dir', path.join(work, 'sim')];
  const listening = /listening on /;
  // First starts create the data folders (migrations, reference data, the world's clock).
  await timeStart(serveArgs, listening);
  await timeStart(simArgs, listening);

  const bareFastify = await medianOf(SERVE_RUNS, () =>
    timeStart(['--input-type=module', '-e', BARE_FASTIFY], listening),
  );
  const serve = await medianOf(SERVE_RUNS, () => timeStart(serveArgs, listening));
  reportResult({
    name: 'quayside serve to listening vs bare Fastify listen',
    value: serve,
    baseline: bareFastify,
    unit: 'ms',
    target: { max: 5 },
  });
  const sim = await medianOf(SERVE_RUNS, () => timeStart(simArgs, listening));
  reportResult({
    name: 'quayside serve --sim to listening vs plain serve',
    value: sim,
    baseline: serve,
    unit: 'ms',
    target: { max: 3 },
  });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
