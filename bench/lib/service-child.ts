/** The process side of bench/lib/service-process.ts. */
import { v4 as uuidv4 } from 'uuid';
import { startService } from '../../src/service';
import { seedBenchData, type BenchSeedOptions } from './seed';

interface Args {
  mode: 'seed' | 'serve';
  dataDir: string;
  seed?: BenchSeedOptions;
}

const args = JSON.parse(process.argv[2]!) as Args;
const send = (message: object) => process.send!(message);
const service = await startService({
  dataDir: args.dataDir,
  port: 0,
  config: { requestsPerMinute: 1e12, trackingRequestsPerMinute: 1e12 },
});

if (args.mode === 'seed') {
  const account = (await service.store.accounts.primary())!;
  await seedBenchData(service.store, account.id, args.seed!);
  await service.close();
  send({ type: 'seeded', key: service.initialKey });
  process.disconnect();
} else {
  const db = service.store.context.db;
  send({ type: 'ready', baseUrl: service.baseUrl, key: service.initialKey ?? null });
  process.on('message', (message: { type: string; count?: number; round?: number }) => {
    void (async () => {
      if (message.type === 'memory') {
        (globalThis as { gc?: () => void }).gc?.();
        send({
          type: 'memory',
          rss: process.memoryUsage().rss,
          peakRss: process.resourceUsage().maxRSS * 1024,
        });
      } else if (message.type === 'touch') {
        const now = new Date().toISOString();
        const rows = await db
          .selectFrom('containers')
          .select(['id', 'account_id', 'shipment_id'])
          .orderBy('created_at')
          .limit(message.count!)
          .offset(message.count! * message.round!)
          .execute();
        await db.transaction().execute(async (trx) => {
          for (const c of rows) {
            await trx
              .updateTable('containers')
              .set({ updated_at: now })
              .where('id', '=', c.id)
              .execute();
            await trx
              .insertInto('transport_events')
              .values({
                id: uuidv4(),
                account_id: c.account_id,
                container_id: c.id,
                shipment_id: c.shipment_id,
                event: 'container.transport.vessel_arrived',
                voyage_number: null,
                timestamp: now,
                timezone: null,
                location_locode: null,
                location_id: null,
                location_type: null,
                vessel_id: null,
                terminal_id: null,
                terminal_type: null,
                data_source: 'shipping_line',
                created_at: now,
              })
              .execute();
          }
        });
        send({ type: 'touched' });
      } else if (message.type === 'close') {
        await service.close();
        process.disconnect();
      }
    })();
  });
}
