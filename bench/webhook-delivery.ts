/**
 * Webhook delivery throughput: notifications recorded through the outbox and delivered by the
 * worker (signing, SQLite bookkeeping, bounded concurrency) to a local receiver that answers after
 * a small delay, against a baseline of plain sequential POSTs of the same body to the same
 * receiver, measured in the same run. Prints the median of several runs and the ratio.
 *
 *   npx tsx bench/webhook-delivery.ts
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startService } from '../src/service';
import { median, reportResult } from './lib/report';

const NOTIFICATIONS = 200;
const RECEIVER_DELAY_MS = 5;
const RUNS = 3;
const REFERENCE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../test/fixtures/service/reference',
);

async function startReceiver(): Promise<{ url: string; count: () => number; close(): void }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      setTimeout(() => res.end('ok'), RECEIVER_DELAY_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => count,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function baseline(url: string, body: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < NOTIFICATIONS; i++) {
    const res = await request(url, { method: 'POST', body });
    await res.body.text();
  }
  return NOTIFICATIONS / ((performance.now() - started) / 1000);
}

async function worker(url: string): Promise<{ perSecond: number; body: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-'));
  const service = await startService({
    dataDir,
    port: 0,
    referenceDir: REFERENCE_DIR,
    config: { allowPrivateWebhooks: true, requestsPerMinute: 1e6 },
  });
  try {
    const { accounts, tracking, context, events } = service.store;
    const account = (await accounts.primary())!;
    const shipment = await tracking.createShipment(account.id, {
      billOfLadingNumber: 'BENCH0001',
      scac: 'MSCU',
      portOfDischargeLocode: 'USLAX',
    });
    const container = await tracking.createContainer(account.id, shipment.id, {
      number: 'MSCU1234565',
      currentStatus: 'on_ship',
    });
    await context.stores.webhooks.create(account.id, {
      url,
      active: true,
      events: ['container.pickup_lfd.changed'],
      secret: 'whsec_YmVuY2htYXJrLXNlY3JldC1iZW5jaG1hcmstc2VjcmV0',
      headers: null,
      now: new Date().toISOString(),
    });
    const started = performance.now();
    for (let i = 0; i < NOTIFICATIONS; i++) {
      await context.stores.transaction((stores) =>
        events.record(stores, {
          accountId: account.id,
          event: 'container.pickup_lfd.changed',
          reference: { type: 'container', id: container.id },
          occurredAt: new Date().toISOString(),
        }),
      );
    }
    const { worker: w } = context.webhooks;
    for (;;) {
      await w.whenIdle();
      if ((await context.stores.webhooks.pendingNotificationCount()) === 0) break;
      w.kick();
    }
    const perSecond = NOTIFICATIONS / ((performance.now() - started) / 1000);
    const [one] = (
      await context.stores.webhooks.listNotifications(account.id, { size: 1, offset: 0 })
    ).rows;
    return { perSecond, body: one!.payload };
  } finally {
    await service.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const receiver = await startReceiver();
const base: number[] = [];
const measured: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const w = await worker(receiver.url);
    measured.push(w.perSecond);
    base.push(await baseline(receiver.url, w.body));
  }
} finally {
  receiver.close();
}
console.log(
  `webhook delivery, ${NOTIFICATIONS} notifications, receiver answers after ${RECEIVER_DELAY_MS} ms`,
);
console.log(`  baseline (sequential POSTs): ${median(base).toFixed(0)} /s`);
console.log(`  outbox + worker (end to end): ${median(measured).toFixed(0)} /s`);
console.log(`  ratio worker / baseline: ${(median(measured) / median(base)).toFixed(2)}x`);
reportResult({
  name: 'webhook delivery throughput',
  value: median(measured),
  baseline: median(base),
  unit: 'deliveries/s',
  target: null,
  note: `${NOTIFICATIONS} notifications through outbox + worker to a local receiver answering after ${RECEIVER_DELAY_MS} ms; baseline: sequential undici POSTs of the same body. The worker delivers concurrently, so a ratio above 1 is expected. No target set by the issue.`,
});
