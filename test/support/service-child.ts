/**
 * Runs the tracking service in its own process so a test can kill it with SIGKILL and restart it
 * on the same data dir. The simulated world runs in the parent (it is the outside world and stays
 * up while the service dies); its feed endpoints come in as JSON.
 *
 * Usage, once bundled (test/support/built-child.ts): node service-child.mjs <config json>
 *   { dataDir, feeds, origin, realStart, speed, databaseUrl?, secretKeyHex?, leaseMs? }
 * The clock is `origin + (Date.now() - realStart) * speed`, the same formula as the parent's, so
 * simulated time keeps running across restarts instead of starting over.
 *
 * Talks over the IPC channel: sends {type:'ready', baseUrl, initialKey?} once listening; on
 * {type:'drain'} it stops the tracking engine, waits until no notification is pending and sends
 * {type:'drained'}; SIGTERM closes the service cleanly.
 */
import pino from 'pino';
import { ScaledClock } from '../../src/shared/clock';
import { startService } from '../../src/service';
import { parseFeedsConfig } from '../../src/service/feeds/config';
import type { ChildServiceConfig } from './service-process';

const config = JSON.parse(process.argv[2] ?? '{}') as ChildServiceConfig;
const clock = new ScaledClock(
  config.origin + (Date.now() - config.realStart) * config.speed,
  config.speed,
);

const service = await startService({
  dataDir: config.dataDir,
  database: config.databaseUrl ? { url: config.databaseUrl, poolSize: 5 } : undefined,
  secretKey: config.secretKeyHex ? Buffer.from(config.secretKeyHex, 'hex') : undefined,
  port: 0,
  clock,
  // Warnings go to the parent, which shows them when a wait on this process fails.
  logger: pino({ level: 'warn' }, pino.destination(2)),
  feeds: parseFeedsConfig(config.feeds, 'crash-safety world'),
  config: {
    allowPrivateWebhooks: true,
    requestsPerMinute: 1_000_000,
    trackingRequestsPerMinute: 1_000_000,
    webhookTimeoutMs: 5_000,
  },
  // Retries are scheduled on the simulated clock; a short base keeps them inside the test.
  webhookPolicy: {
    baseDelayMs: 60_000,
    maxDelayMs: 30 * 60_000,
    maxConcurrentPerWebhook: 8,
    ...(config.leaseMs ? { leaseMs: config.leaseMs } : {}),
  },
  // A scheduling pass about every 50 real ms; line checks about every 2 real seconds.
  engine: {
    tickMs: config.speed * 50,
    lineIntervalMs: config.speed * 2_000,
    terminalIntervalMs: config.speed * 2_000,
    ...(config.leaseMs ? { leaseMs: config.leaseMs } : {}),
  },
});

const send = (message: object) => process.send?.(message);

const pendingNotifications = () => service.store.stores.webhooks.pendingNotificationCount();

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'drain') return;
  void (async () => {
    await service.engine?.stop();
    while ((await pendingNotifications()) > 0) await new Promise((r) => setTimeout(r, 50));
    send({ type: 'drained' });
  })();
});

process.once('SIGTERM', () => {
  void service.close().finally(() => process.exit(0));
});

send({ type: 'ready', baseUrl: service.baseUrl, initialKey: service.initialKey });
