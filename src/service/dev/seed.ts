/**
 * Realistic demo data for local runs, the conformance check and benches: shipments with
 * containers, transport and raw events over the loaded reference data, written through the same
 * store API the tracking engine uses.
 *
 *   npx tsx src/service/dev/seed.ts --data-dir DIR [--shipments N] [--containers-per-shipment N]
 */
import { parseArgs } from 'node:util';
import { systemClock } from '../../shared/clock';
import { createServiceApp, FIRST_ACCOUNT_NAME, type ServiceStore } from '../index';
import { checkDigit } from '../../shared/iso6346';

export interface SeedOptions {
  shipments: number;
  containersPerShipment: number;
  /** Base instant for the journeys (epoch ms). */
  start?: number;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Deterministic pseudo-random sequence so seeded data is reproducible. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedDemoData(store: ServiceStore, accountId: string, options: SeedOptions) {
  const { reference: ref, tracking, context } = store;
  const random = rng(42);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const lines = ref.lines.filter((l) => (JSON.parse(l.container_prefixes) as string[]).length > 0);
  const terminals = [...ref.terminalsByFirms.values()];
  const ports = [...ref.portsByLocode.values()];
  const vessels = await context.stores.vessels.names();
  if (!lines.length || !terminals.length || ports.length < 2) {
    throw new Error('seeding needs shipping lines, terminals and ports in the reference data');
  }
  const start = options.start ?? Date.UTC(2026, 0, 1);
  let serial = 0;
  for (let i = 0; i < options.shipments; i++) {
    const line = pick(lines);
    const terminal = pick(terminals);
    const pod = ref.portsByLocode.get(terminal.port_locode) ?? pick(ports);
    let pol = pick(ports);
    while (pol.locode === pod.locode) pol = pick(ports);
    const vessel = vessels.length ? pick(vessels) : undefined;
    const departed = start + Math.floor(random() * 20) * DAY;
    const eta = departed + (14 + Math.floor(random() * 20)) * DAY;
    const blPrefix = (JSON.parse(line.bill_of_lading_prefixes) as string[])[0] ?? line.scac;
    const bl = `${blPrefix}${String(100000000 + i).slice(1)}`;
    const request = await tracking.createTrackingRequest(accountId, {
      requestType: 'bill_of_lading',
      requestNumber: bl,
      scac: line.scac,
    });
    const shipment = await tracking.createShipment(accountId, {
      billOfLadingNumber: bl,
      scac: line.scac,
      refNumbers: [`PO-${10000 + i}`],
      customerName: 'Demo Imports',
      portOfLadingLocode: pol.locode,
      portOfDischargeLocode: pod.locode,
      destinationLocode: pod.locode,
      podTerminalFirmsCode: terminal.firms_code,
      podVesselImo: vessel?.imo ?? null,
      podVesselName: vessel?.name ?? null,
      podVoyageNumber: `${100 + (i % 800)}E`,
      polEtdAt: iso(departed),
      polAtdAt: iso(departed),
      podEtaAt: iso(eta),
      podOriginalEtaAt: iso(eta),
      lineTrackingLastAttemptedAt: iso(departed + DAY),
      lineTrackingLastSucceededAt: iso(departed + DAY),
    });
    await tracking.setTrackingRequestStatus(request.id, 'created', { shipmentId: shipment.id });
    const prefix = pick(JSON.parse(line.container_prefixes) as string[]);
    for (let k = 0; k < options.containersPerShipment; k++) {
      const body = `${prefix}${String(serial++ % 1_000_000).padStart(6, '0')}`;
      const container = await tracking.createContainer(accountId, shipment.id, {
        number: `${body}${checkDigit(body)}`,
        refNumbers: [],
        equipmentType: 'dry',
        equipmentLength: pick([20, 40, 40, 45]),
        equipmentHeight: pick(['standard', 'high_cube']),
        weightInLbs: Math.round(10000 + random() * 30000),
        sealNumber: String(Math.floor(random() * 1e9)),
        currentStatus: 'on_ship',
        podTerminalFirmsCode: terminal.firms_code,
        podTimezone: pod.time_zone,
        importDeadlines: { pickup_lfd_line: iso(eta + 5 * DAY) },
      });
      await tracking.addTransportEvent(container.id, {
        event: 'container.transport.vessel_loaded',
        dataSource: 'shipping_line',
        timestamp: iso(departed - DAY / 2),
        locationLocode: pol.locode,
        vesselImo: vessel?.imo ?? null,
        voyageNumber: `${100 + (i % 800)}E`,
      });
      await tracking.addTransportEvent(container.id, {
        event: 'container.transport.vessel_departed',
        dataSource: 'shipping_line',
        timestamp: iso(departed),
        locationLocode: pol.locode,
        vesselImo: vessel?.imo ?? null,
        voyageNumber: `${100 + (i % 800)}E`,
      });
      await tracking.replaceRawEvents(container.id, [
        {
          event: 'vessel_loaded',
          originalEvent: 'Loaded on board',
          timestamp: iso(departed - DAY / 2),
          estimated: false,
          locationLocode: pol.locode,
          locationName: pol.name,
          vesselName: vessel?.name ?? null,
          vesselImo: vessel?.imo ?? null,
        },
        {
          event: 'vessel_arrived',
          originalEvent: 'Estimated arrival',
          timestamp: iso(eta),
          estimated: true,
          locationLocode: pod.locode,
          locationName: pod.name,
        },
      ]);
    }
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      shipments: { type: 'string', default: '5' },
      'containers-per-shipment': { type: 'string', default: '2' },
    },
  });
  if (!values['data-dir']) throw new Error('--data-dir is required');
  const service = await createServiceApp({ dataDir: values['data-dir'], clock: systemClock });
  try {
    const { accounts } = service.store;
    const account = (await accounts.ensurePrimary(FIRST_ACCOUNT_NAME)).account;
    await seedDemoData(service.store, account.id, {
      shipments: Number(values.shipments),
      containersPerShipment: Number(values['containers-per-shipment']),
    });
    console.log(`Seeded ${values.shipments} shipments for account ${account.name}`);
  } finally {
    await service.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
