/**
 * A desktop cache filled with 100k containers for the board benchmarks (bench/board-query.ts,
 * bench/board-ui.ts), and the bare SQLite query for one window of board rows, their baseline.
 */
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import type { Cache } from '../../src/main/cache/cache';
import type { CachedContainer, CachedShipment } from '../../src/shared/cached-resources';
import { createServiceApp } from '../../src/service';
import { seedBenchData } from './seed';

export const BOARD_CONTAINERS = 100_000;
const PER_SHIPMENT = 4;
const DAY = 86_400_000;
export const BOARD_LINES = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY', 'EGLV', 'COSU', 'ZIMU'];
const STATUSES = ['new', 'on_ship', 'available', 'not_available', 'picked_up', 'empty_returned'];

/** One real container and shipment as the service renders them, to clone from. */
async function templates(
  scratchDir: string,
): Promise<{ container: CachedContainer; shipment: CachedShipment }> {
  const dataDir = path.join(scratchDir, 'service');
  const service = await createServiceApp({ dataDir });
  try {
    const account =
      (await service.store.accounts.primary()) ?? (await service.store.accounts.create('bench'));
    const { containerIds } = await seedBenchData({ dataDir }, service.store, account.id, {
      containers: 1,
      containersPerShipment: 1,
      transportEventsPerContainer: 0,
      rawEventsPerContainer: 0,
    });
    const { render, stores } = service.store.context;
    const row = (await stores.reads.ownedContainer(account.id, containerIds[0]!))!;
    const [container] = await render.containers([row]);
    const [shipment] = await render.shipments([
      (await stores.reads.ownedShipment(account.id, row.shipment_id!))!,
    ]);
    return {
      container: container as unknown as CachedContainer,
      shipment: shipment as unknown as CachedShipment,
    };
  } finally {
    await service.close();
  }
}

/**
 * Fills `cache` with BOARD_CONTAINERS containers (4 per shipment, 8 lines, 6 statuses, ETAs over
 * 60 days from 2026-01-01), cloned from one container the service renders; the same data on every
 * run. `scratchDir` holds the short-lived service that renders the template.
 */
export async function fillBoardCache(cache: Cache, scratchDir: string): Promise<void> {
  const tpl = await templates(scratchDir);
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const start = Date.UTC(2026, 0, 1);
  const iso = (ms: number) => new Date(ms).toISOString();
  const now = iso(start);
  for (let first = 0; first < BOARD_CONTAINERS; first += 2000) {
    const shipments: CachedShipment[] = [];
    const containers: CachedContainer[] = [];
    for (let i = first; i < first + 2000; i += PER_SHIPMENT) {
      const eta = start + Math.floor(random() * 60) * DAY;
      const shipment: CachedShipment = {
        ...tpl.shipment,
        id: uuidv4(),
        attributes: {
          ...tpl.shipment.attributes,
          bill_of_lading_number: `BL${100000000 + i}`,
          shipping_line_scac: BOARD_LINES[Math.floor(random() * BOARD_LINES.length)]!,
          pod_eta_at: iso(eta),
        },
      };
      shipments.push(shipment);
      for (let k = 0; k < PER_SHIPMENT; k++) {
        containers.push({
          ...tpl.container,
          id: uuidv4(),
          attributes: {
            ...tpl.container.attributes,
            number: `BENU${String(i + k).padStart(7, '0')}`,
            current_status: STATUSES[Math.floor(random() * STATUSES.length)]! as never,
            pickup_lfd: iso(eta + Math.floor(random() * 10) * DAY),
            updated_at: now,
          },
          relationships: {
            ...tpl.container.relationships,
            shipment: { data: { id: shipment.id, type: 'shipment' } },
            transport_events: { data: [] },
          },
        } as CachedContainer);
      }
    }
    cache.applyPage({ shipments, containers }, now);
  }
}

/**
 * The bare SQLite query for one window of board rows: the board's joins, `where` (with `?`
 * parameters), order on `sortExpr` (empty cells last, then container number and id, as the board
 * orders) and LIMIT ? OFFSET ?; no count and no row mapping.
 */
export function rawBoardWindowSql(where: string, sortExpr: string, direction: 'ASC' | 'DESC') {
  return `SELECT c.id, c.shipment_id, c.number, s.bill_of_lading, s.line_scac,
      c.current_status, s.pod_locode, s.pod_name, t.name, s.vessel_name, s.voyage_number,
      s.pod_eta_at, coalesce(c.pod_arrived_at, s.pod_ata_at), c.pod_discharged_at,
      c.availability_known, c.available_for_pickup, c.ready, c.holds_count, c.fees_amount,
      c.fees_currency, c.lfd, c.lfd_source, c.pickup_appointment_at, c.terminal_checked_at,
      c.updated_at, coalesce(c.pod_timezone, s.pod_timezone), s.customer_name
    FROM containers c
    LEFT JOIN shipments s ON s.id = c.shipment_id
    LEFT JOIN terminals t ON t.id = c.pod_terminal_id
    WHERE ${where}
    ORDER BY ${sortExpr} IS NULL, ${sortExpr} ${direction}, c.number ASC, c.id ASC
    LIMIT ? OFFSET ?`;
}

/**
 * Multiplies the board rows already in `cache` by `factor` straight in SQL (bench only: no
 * projection, no search index): each copy of a shipment and its containers gets new ids and
 * numbers, keeping lines, statuses, dates and the stored JSON.
 */
export function multiplyBoardRows(cache: Cache, factor: number): void {
  const db = cache.db;
  const columns = (table: string) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
      .map((c) => c.name)
      .filter((name) => name !== 'seq');
  const copy = (table: string, changed: Record<string, string>, where: string) => {
    const names = columns(table);
    const values = names.map((name) => changed[name] ?? name);
    return db.prepare(
      `INSERT INTO ${table} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${table} WHERE ${where}`,
    );
  };
  const original = (db.prepare('SELECT max(seq) AS n FROM containers').get() as { n: number }).n;
  const shipments = copy('shipments', { id: "id || '-' || ?" }, "instr(id, '-x') = 0 AND ? > 0");
  const containers = copy(
    'containers',
    {
      id: "id || '-' || ?",
      shipment_id: "shipment_id || '-' || ?",
      number: "number || '-' || ?",
    },
    'seq <= ?',
  );
  for (let k = 1; k < factor; k++) {
    const tag = `x${k}`;
    db.transaction(() => {
      shipments.run(tag, 1);
      containers.run(tag, tag, tag, original);
    })();
  }
}
