/**
 * A second tracking service on real time (no simulated world), for specs that connect the app to
 * it: `node real-time-service.mjs DIR`, once bundled (test/support/built-child.ts), starts
 * Quayside's own service on 127.0.0.1:0 with one container at a Los Angeles terminal (last free
 * day in two days), written through the store's owners and the engine's apply step, then prints
 * one JSON line ({ baseUrl, apiKey, container }) and serves until SIGTERM.
 */
import { DateTime } from 'luxon';
import { startService } from '../../../src/service';
import { applyFeedAnswer, harborTerminalAnswer } from '../feed-answers';

export interface RealTimeServiceInfo {
  baseUrl: string;
  apiKey: string;
  container: { id: string; number: string; zone: string; lastFreeDay: string; checkedAt: string };
}

const ZONE = 'America/Los_Angeles';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: real-time-service.ts DATA_DIR');
  const service = await startService({ dataDir, port: 0 });
  const account = (await service.store.accounts.primary())!;
  const { tracking } = service.store;
  const shipment = await tracking.createShipment(account.id, {
    billOfLadingNumber: 'MAEU123456789',
    scac: 'MAEU',
    portOfDischargeLocode: 'USLAX',
  });
  const container = await tracking.createContainer(account.id, shipment.id, {
    number: 'MSKU1234565',
    podTimezone: ZONE,
  });
  const now = DateTime.now().setZone(ZONE);
  const lastFreeDay = now.plus({ days: 2 }).set({ hour: 12, minute: 0 }).toUTC().toISO()!;
  const checkedAt = now.minus({ hours: 3 }).toUTC().toISO()!;
  await applyFeedAnswer(service.store, container.id, {
    terminal: harborTerminalAnswer({
      checked_at: checkedAt,
      discharged_at: now.minus({ days: 1 }).toUTC().toISO()!,
      last_free_day: lastFreeDay,
    }),
  });
  const info: RealTimeServiceInfo = {
    baseUrl: service.baseUrl,
    apiKey: service.initialKey!,
    container: { id: container.id, number: 'MSKU1234565', zone: ZONE, lastFreeDay, checkedAt },
  };
  console.log(JSON.stringify(info));
  const stop = () => void service.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
