/**
 * The desktop board's query (BoardQueries.containers: a filter and a sort, one window of 100 rows
 * plus the total for the scrollbar) over 100k cached containers, as a ratio to the raw SQLite
 * query returning the same window of rows (same joins, filter, order and limit; no count, no row
 * mapping). Median of several rounds.
 *
 *   npx tsx bench/board-query.ts [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { Cache } from '../src/main/cache/cache';
import type { CachedContainer, CachedShipment } from '../src/shared/cached-resources';
import type { ContainerQuery } from '../src/shared/desktop';
import { createServiceApp } from '../src/service';
import { Renderer } from '../src/service/api/render';
import { quick } from './lib/load';
import { median, reportResult } from './lib/report';
import { seedBenchData } from './lib/seed';

const CONTAINERS = 100_000;
const PER_SHIPMENT = 4;
const DAY = 86_400_000;
const LINES = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY', 'EGLV', 'COSU', 'ZIMU'];
const STATUSES = ['new', 'on_ship', 'available', 'not_available', 'picked_up', 'empty_returned'];

/** One real container and shipment as the service renders them, to clone from. */
async function templates(
  root: string,
): Promise<{ container: CachedContainer; shipment: CachedShipment }> {
  const service = await createServiceApp({ dataDir: path.join(root, 'service') });
  try {
    const account =
      (await service.store.accounts.first()) ?? (await service.store.accounts.create('bench'));
    await seedBenchData(service.store, account.id, {
      containers: 1,
      containersPerShipment: 1,
      transportEventsPerContainer: 0,
      rawEventsPerContainer: 0,
    });
    const db = service.store.context.db;
    const render = new Renderer(db, service.store.reference);
    const [container] = await render.containers(
      await db.selectFrom('containers').selectAll().execute(),
    );
    const [shipment] = await render.shipments(
      await db.selectFrom('shipments').selectAll().execute(),
    );
    return {
      container: container as unknown as CachedContainer,
      shipment: shipment as unknown as CachedShipment,
    };
  } finally {
    await service.close();
  }
}

function fill(cache: Cache, tpl: { container: CachedContainer; shipment: CachedShipment }) {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const start = Date.UTC(2026, 0, 1);
  const iso = (ms: number) => new Date(ms).toISOString();
  const now = iso(start);
  for (let first = 0; first < CONTAINERS; first += 2000) {
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
          shipping_line_scac: LINES[Math.floor(random() * LINES.length)]!,
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

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-board-'));
const cache = Cache.open(path.join(root, 'cache'));
try {
  const t0 = performance.now();
  fill(cache, await templates(root));
  console.log(
    `cached ${CONTAINERS} containers in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const query: ContainerQuery = {
    line: ['MSCU', 'MAEU'],
    status: ['on_ship', 'available'],
    sort: { column: 'etaAt', direction: 'asc' },
    offset: 2000,
    limit: 100,
  };
  const now = Date.UTC(2026, 0, 15);
  // The same rows straight from SQLite: the board's joins, filter, order and window.
  const raw = cache.db.prepare(`SELECT c.id, c.shipment_id, c.number, s.bill_of_lading, s.line_scac,
      c.current_status, s.pod_locode, s.pod_name, t.name, s.vessel_name, s.voyage_number,
      s.pod_eta_at, coalesce(c.pod_arrived_at, s.pod_ata_at), c.pod_discharged_at,
      c.availability_known, c.available_for_pickup, c.ready, c.holds_count, c.fees_amount,
      c.fees_currency, c.lfd, c.lfd_source, c.pickup_appointment_at, c.terminal_checked_at,
      c.updated_at, coalesce(c.pod_timezone, s.pod_timezone), s.customer_name
    FROM containers c
    LEFT JOIN shipments s ON s.id = c.shipment_id
    LEFT JOIN terminals t ON t.id = c.pod_terminal_id
    WHERE c.current_status IN (?, ?) AND s.line_scac IN (?, ?)
    ORDER BY s.pod_eta_at IS NULL, s.pod_eta_at ASC, c.number ASC, c.id ASC
    LIMIT ? OFFSET ?`);
  const rawRows = () =>
    raw.all('on_ship', 'available', 'MSCU', 'MAEU', 100, 2000) as { id: string }[];
  const board = cache.board.containers(query, now);
  const same = rawRows();
  if (board.rows.length !== 100 || board.rows.some((r, i) => r.id !== same[i]!.id)) {
    throw new Error('the raw query does not return the board rows');
  }
  console.log(`board window: ${board.rows.length} of ${board.total} matching rows`);

  const rounds = quick ? 3 : 7;
  const iterations = 3;
  const time = (fn: () => unknown) => {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) fn();
    return (performance.now() - start) / iterations;
  };
  const boardMs: number[] = [];
  const rawMs: number[] = [];
  time(() => cache.board.containers(query, now));
  time(rawRows);
  for (let r = 0; r < rounds; r++) {
    rawMs.push(time(rawRows));
    boardMs.push(time(() => cache.board.containers(query, now)));
  }
  reportResult({
    name: 'board query (100k cached, filter + sort)',
    value: median(boardMs),
    baseline: median(rawMs),
    unit: 'ms',
    target: null,
    note: `2 lines x 2 statuses, sorted by ETA, rows 2000-2099 of ${board.total}; BoardQueries.containers includes the total count the board needs. Baseline: the raw SQLite query for the same 100 rows. No target set by the issue.`,
  });
} finally {
  cache.close();
  fs.rmSync(root, { recursive: true, force: true });
}
