/**
 * Fast bench seeding: the same kind of shipments, containers, transport and raw events as
 * src/service/dev/seed.ts, written as multi-row Kysely inserts inside one transaction per chunk
 * instead of one store call per row, so 10k containers with 200k events take seconds. They go
 * through a second connection to the service's database (`at`): bulk loading is below the owners.
 *
 * Rows are built with the full table types, so a new NOT NULL column fails to compile here
 * rather than at run time.
 */
import { v4 as uuidv4 } from 'uuid';
import type { ServiceStore } from '../../src/service';
import { withServiceDatabase, type ServiceDatabaseAt } from '../../test/support/service-database';
import { referenceId } from '../../src/service/store/reference';
import type {
  ContainersTable,
  RawEventsTable,
  ShipmentsTable,
  TrackingRequestsTable,
  TransportEventsTable,
} from '../../src/service/store/schema';
import { checkDigit } from '../../src/shared/iso6346';

export interface BenchSeedOptions {
  containers: number;
  containersPerShipment: number;
  transportEventsPerContainer: number;
  rawEventsPerContainer: number;
  /** Base instant for the journeys and record stamps (epoch ms). */
  start?: number;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const TRANSPORT_EVENTS = [
  'container.transport.vessel_loaded',
  'container.transport.vessel_departed',
  'container.transport.transshipment_arrived',
  'container.transport.transshipment_discharged',
  'container.transport.transshipment_loaded',
  'container.transport.transshipment_departed',
] as const;

/** Deterministic pseudo-random sequence so seeded data is reproducible. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** SQLite binds at most 32766 parameters per statement: insert in slices under that. */
function slices<T extends object>(rows: T[]): T[][] {
  if (rows.length === 0) return [];
  const perRow = Object.keys(rows[0]!).length;
  const size = Math.max(1, Math.floor(30_000 / perRow));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export function seedBenchData(
  at: ServiceDatabaseAt,
  store: ServiceStore,
  accountId: string,
  options: BenchSeedOptions,
): Promise<{ containerIds: string[] }> {
  return withServiceDatabase(at, (db) => seedThrough(db, store, accountId, options));
}

async function seedThrough(
  db: Parameters<Parameters<typeof withServiceDatabase>[1]>[0],
  store: ServiceStore,
  accountId: string,
  options: BenchSeedOptions,
): Promise<{ containerIds: string[] }> {
  const { reference: ref } = store;
  const random = rng(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const lines = ref.lines.filter((l) => (JSON.parse(l.container_prefixes) as string[]).length > 0);
  const terminals = [...ref.terminalsByFirms.values()];
  const ports = [...ref.portsByLocode.values()];
  const vessels = await db.selectFrom('vessels').select(['imo', 'name']).execute();
  if (!lines.length || !terminals.length || ports.length < 2) {
    throw new Error('seeding needs shipping lines, terminals and ports in the reference data');
  }
  const start = options.start ?? Date.UTC(2026, 0, 1);
  const shipmentCount = Math.ceil(options.containers / options.containersPerShipment);
  const containerIds: string[] = [];
  let serial = 0;
  // Each record gets its own second, so "most recent first" orders are total and stable.
  let stamp = start;
  const nextStamp = () => iso((stamp += 1000));

  const CHUNK = 250; // shipments per transaction
  for (let first = 0; first < shipmentCount; first += CHUNK) {
    const requests: TrackingRequestsTable[] = [];
    const shipments: ShipmentsTable[] = [];
    const containers: ContainersTable[] = [];
    const events: TransportEventsTable[] = [];
    const raws: RawEventsTable[] = [];
    for (let i = first; i < Math.min(shipmentCount, first + CHUNK); i++) {
      const line = pick(lines);
      const terminal = pick(terminals);
      const pod = ref.portsByLocode.get(terminal.port_locode) ?? pick(ports);
      let pol = pick(ports);
      while (pol.locode === pod.locode) pol = pick(ports);
      const vessel = vessels.length ? pick(vessels) : undefined;
      const departed = start + Math.floor(random() * 20) * DAY;
      const eta = departed + (14 + Math.floor(random() * 20)) * DAY;
      const voyage = `${100 + (i % 800)}E`;
      const blPrefix = (JSON.parse(line.bill_of_lading_prefixes) as string[])[0] ?? line.scac;
      const bl = `${blPrefix}${String(100000000 + i).slice(1)}`;
      const created = nextStamp();
      const shipmentId = uuidv4();
      requests.push({
        id: uuidv4(),
        account_id: accountId,
        request_number: bl,
        request_type: 'bill_of_lading',
        scac: line.scac,
        status: 'created',
        failed_reason: null,
        ref_numbers: '[]',
        tags: '[]',
        shipment_tags: '[]',
        is_retrying: 0,
        retry_count: null,
        shipment_id: shipmentId,
        created_at: created,
        updated_at: created,
      });
      shipments.push({
        id: shipmentId,
        account_id: accountId,
        bill_of_lading_number: bl,
        normalized_number: bl,
        scac: line.scac,
        ref_numbers: JSON.stringify([`PO-${10000 + i}`]),
        tags: '[]',
        customer_name: 'Demo Imports',
        port_of_lading_id: pol.id,
        port_of_discharge_id: pod.id,
        destination_id: pod.id,
        destination_type: 'port',
        pod_terminal_id: terminal.id,
        destination_terminal_id: null,
        destination_terminal_type: null,
        pod_vessel_id: vessel ? referenceId('vessel', vessel.imo) : null,
        pod_vessel_name: vessel?.name ?? null,
        pod_vessel_imo: vessel?.imo ?? null,
        pod_voyage_number: voyage,
        pol_etd_at: iso(departed),
        pol_atd_at: iso(departed),
        pod_eta_at: iso(eta),
        pod_original_eta_at: iso(eta),
        pol_original_etd_at: null,
        destination_original_eta_at: null,
        pod_ata_at: null,
        destination_eta_at: null,
        destination_ata_at: null,
        line_tracking_last_attempted_at: iso(departed + DAY),
        line_tracking_last_succeeded_at: iso(departed + DAY),
        line_tracking_stopped_at: null,
        line_tracking_stopped_reason: null,
        created_at: created,
        updated_at: created,
      });
      const prefix = pick(JSON.parse(line.container_prefixes) as string[]);
      for (let k = 0; k < options.containersPerShipment; k++) {
        if (containerIds.length >= options.containers) break;
        const body = `${prefix}${String(serial++ % 1_000_000).padStart(6, '0')}`;
        const containerId = uuidv4();
        const at = nextStamp();
        containerIds.push(containerId);
        containers.push({
          id: containerId,
          account_id: accountId,
          shipment_id: shipmentId,
          number: `${body}${checkDigit(body)}`,
          ref_numbers: '[]',
          equipment_type: 'dry',
          equipment_length: pick([20, 40, 40, 45]),
          equipment_height: pick(['standard', 'high_cube']),
          weight_in_lbs: Math.round(10000 + random() * 30000),
          seal_number: String(Math.floor(random() * 1e9)),
          pickup_appointment_at: null,
          availability_known: 0,
          available_for_pickup: null,
          pod_arrived_at: null,
          empty_out_at: null,
          pol_full_in_at: null,
          pol_vessel_loaded_at: null,
          pol_vessel_departed_at: null,
          pod_discharged_at: null,
          pod_full_out_at: null,
          terminal_checked_at: null,
          pod_full_out_chassis_number: null,
          location_at_pod_terminal: null,
          pickup_number: null,
          final_destination_full_out_at: null,
          empty_terminated_at: null,
          holds_at_pod_terminal: '[]',
          fees_at_pod_terminal: '[]',
          pod_timezone: pod.time_zone,
          final_destination_timezone: null,
          empty_terminated_timezone: null,
          pod_rail_carrier_scac: null,
          ind_rail_carrier_scac: null,
          pod_last_tracking_request_at: null,
          shipment_last_tracking_request_at: null,
          pod_rail_loaded_at: null,
          pod_rail_departed_at: null,
          ind_eta_at: null,
          ind_ata_at: null,
          ind_rail_unloaded_at: null,
          pickup_lfd_terminal: null,
          pickup_lfd_rail: null,
          pickup_lfd_line: iso(eta + 5 * DAY),
          current_status: 'on_ship',
          pod_terminal_id: terminal.id,
          pickup_facility_id: null,
          trucker_id: null,
          created_at: at,
          updated_at: at,
        });
        for (let e = 0; e < options.transportEventsPerContainer; e++) {
          events.push({
            id: uuidv4(),
            account_id: accountId,
            container_id: containerId,
            shipment_id: shipmentId,
            event: TRANSPORT_EVENTS[e % TRANSPORT_EVENTS.length]!,
            voyage_number: voyage,
            timestamp: iso(departed - DAY / 2 + e * 3_600_000),
            timezone: pol.time_zone,
            location_locode: pol.locode,
            location_name: null,
            location_id: pol.id,
            location_type: 'port',
            vessel_id: vessel ? referenceId('vessel', vessel.imo) : null,
            terminal_id: null,
            terminal_type: null,
            data_source: 'shipping_line',
            created_at: at,
          });
        }
        for (let r = 0; r < options.rawEventsPerContainer; r++) {
          const estimated = r === options.rawEventsPerContainer - 1;
          const where = estimated ? pod : pol;
          const timestamp = estimated ? iso(eta) : iso(departed - DAY / 2 + r * 3_600_000);
          raws.push({
            id: uuidv4(),
            account_id: accountId,
            container_id: containerId,
            event: estimated ? 'vessel_arrived' : 'vessel_loaded',
            original_event: estimated ? 'Estimated arrival' : 'Loaded on board',
            timestamp,
            estimated: estimated ? 1 : 0,
            timezone: null,
            location_name: where.name,
            location_locode: where.locode,
            location_id: where.id,
            location_type: 'port',
            vessel_name: estimated ? null : (vessel?.name ?? null),
            vessel_imo: estimated ? null : (vessel?.imo ?? null),
            vessel_id: !estimated && vessel ? referenceId('vessel', vessel.imo) : null,
            event_index: r,
            voyage_number: null,
            created_at: at,
          });
        }
      }
    }
    await db.transaction().execute(async (trx) => {
      for (const part of slices(requests))
        await trx.insertInto('tracking_requests').values(part).execute();
      for (const part of slices(shipments))
        await trx.insertInto('shipments').values(part).execute();
      for (const part of slices(containers))
        await trx.insertInto('containers').values(part).execute();
      for (const part of slices(events))
        await trx.insertInto('transport_events').values(part).execute();
      for (const part of slices(raws)) await trx.insertInto('raw_events').values(part).execute();
    });
  }
  return { containerIds };
}
