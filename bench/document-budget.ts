/**
 * Hostile documents against the document budget (issue 37): while a stream of hostile PDFs
 * (under 1 MB each, 15 compressed streams of 60 MiB) is uploaded and read, the p99 of another
 * route under load, against the same route's p99 with no documents being read (target <= 2);
 * and the service's resident memory after the stream, against before it (target: within 200 MB).
 * The PDFs come from a client in a process of its own (lib/hostile-uploader.ts), as they would in
 * use: its work of building and sending uploads is not the service's.
 *
 *   npx tsx bench/document-budget.ts [--runs 3] [--seconds 5] [--quick]
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startService } from '../src/service';
import type { UploaderReady, UploaderReport } from './lib/hostile-uploader';
import { load, quick } from './lib/load';
import { median, reportResult } from './lib/report';
import { seedBenchData } from './lib/seed';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: quick ? '1' : '3' },
    seconds: { type: 'string', default: quick ? '4' : '6' },
    quick: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const MB = 1024 * 1024;
/** Each hostile PDF: this many compressed streams, each inflating to STREAM_BYTES. */
const STREAMS = 15;
const STREAM_BYTES = 60 * MB;
const rssMb = () => process.memoryUsage().rss / MB;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-docs-'));
const service = await startService({
  dataDir,
  port: 0,
  config: { requestsPerMinute: 1e12, trackingRequestsPerMinute: 1e12 },
});
try {
  const account = (await service.store.accounts.primary())!;
  const { containerIds } = await seedBenchData({ dataDir }, service.store, account.id, {
    containers: 1000,
    containersPerShipment: 4,
    transportEventsPerContainer: 2,
    rawEventsPerContainer: 2,
  });
  const apiKey = service.initialKey!;
  const headers = { Authorization: `Token ${apiKey}` };
  const detail = `${service.baseUrl}/containers/${containerIds[0]}?include=shipment`;
  let uploaded = 0;
  let failed = 0;

  /** Starts the hostile stream in a process of its own; `stop` ends it and reports. */
  async function hostileStream(): Promise<{ stop: () => Promise<UploaderReport> }> {
    const uploader = fork(
      fileURLToPath(new URL('./lib/hostile-uploader.ts', import.meta.url)),
      [
        JSON.stringify({
          baseUrl: service.baseUrl,
          apiKey,
          streams: STREAMS,
          streamBytes: STREAM_BYTES,
        }),
      ],
      { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const report = new Promise<UploaderReport>((resolve, reject) => {
      uploader.on('message', (message: UploaderReport | UploaderReady) => {
        if ('uploaded' in message) resolve(message);
      });
      uploader.once('exit', (code) => reject(new Error(`hostile uploader exited (${code})`)));
    });
    const ready = new Promise<UploaderReady>((resolve) => uploader.once('message', resolve));
    // Before it is stopped the report settles only by failing: an uploader that died.
    const { pdfBytes } = await Promise.race([ready, report.then(() => ready)]);
    if (uploaded === 0)
      console.log(
        `hostile PDF: ${(pdfBytes / 1024).toFixed(0)} KB, ${STREAMS} x ${STREAM_BYTES / MB} MiB streams`,
      );
    return {
      stop: () => {
        uploader.send('stop');
        return report;
      },
    };
  }

  // Warm the route and the process (allocator, JIT) before the baseline.
  await load(detail, headers, 10, 2);
  const idle: number[] = [];
  const underAttack: number[] = [];
  let before = 0;
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    idle.push((await load(detail, headers, 10, seconds)).p99Ms);
    if (i === 0) before = rssMb();
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
    const stream = await hostileStream();
    underAttack.push((await load(detail, headers, 10, seconds)).p99Ms);
    const report = await stream.stop();
    uploaded += report.uploaded;
    failed += report.failed;
    clearInterval(sampler);
    console.log(
      `run ${i + 1}: p99 idle ${idle.at(-1)!.toFixed(2)} ms, under hostile PDFs ${underAttack.at(-1)!.toFixed(2)} ms`,
    );
  }
  const after = rssMb();
  console.log(
    `${uploaded} hostile PDFs read (${failed} failed on the budget); service RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB`,
  );

  reportResult({
    name: 'api p99 under hostile PDFs vs idle',
    value: median(underAttack),
    baseline: median(idle),
    unit: 'ms',
    target: { max: 2 },
    note: `GET /v2/containers/{id}?include=shipment, 10 connections, ${runs} x ${seconds} s, while hostile PDFs (15 x 60 MiB streams each) are uploaded and read; baseline: the same load with no documents`,
  });
  reportResult({
    name: 'service RSS after hostile PDFs vs before',
    value: after,
    baseline: before,
    unit: 'MB',
    target: { max: (before + 200) / before },
    note: `resident memory of the service process after ${uploaded} hostile PDFs vs before them (target: within 200 MB); peak during them ${peak.toFixed(0)} MB`,
  });
} finally {
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
