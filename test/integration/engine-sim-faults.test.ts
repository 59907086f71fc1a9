/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * The simulated world answering a share of requests with 5xx and truncated JSON, and damaging the
 * AIS stream: the engine logs and counts, retries, and never stores a broken record.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedService, type EmbeddedService } from '../../src/embedded/service-with-world';
import { ManualClock } from '../../src/shared/clock';
import { withServiceDatabase } from '../support/service-database';

const HOUR = 3600_000;
let embedded: EmbeddedService;
let clock: ManualClock;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-sim-faults-'));
  clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  embedded = await startEmbeddedService({
    dataDir,
    port: 0,
    seed: 11,
    clock,
    errorRates: { serverError: 0.25, malformed: 0.25 },
  });
});

afterAll(async () => {
  await embedded?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('keeps tracking the demo account through server errors and garbage', async () => {
  const engine = embedded.service.engine!;
  for (let i = 0; i < 12; i++) {
    clock.advance(HOUR);
    await engine.drain();
  }
  const stats = engine.stats();
  expect(stats.jobErrors).toBe(0);
  expect(stats.lookups.server_error).toBeGreaterThan(0);
  expect(stats.lookups.malformed).toBeGreaterThan(0);
  expect(stats.ais?.badChecksum ?? 0).toBeGreaterThan(0);

  const res = await fetch(`${embedded.baseUrl}/tracking_requests?page[size]=100`, {
    headers: { Authorization: `Token ${embedded.apiKey}` },
  });
  expect(res.status).toBe(200);
  const requests = ((await res.json()) as any).data as any[];
  expect(requests.length).toBeGreaterThanOrEqual(20);
  const statuses = new Set(requests.map((r) => r.attributes.status));
  expect(statuses.has('created')).toBe(true);
  // Requests hit by a fault are retrying, not failed.
  const retrying = requests.filter((r) => r.attributes.is_retrying);
  for (const r of retrying) {
    expect(r.attributes.status).not.toBe('failed');
    expect(['shipping_line_unreachable', 'unrecognized_response']).toContain(
      r.attributes.failed_reason,
    );
  }

  // Nothing half-written: every created request's shipment has its containers and events.
  // Read from the stored rows themselves, below the owners the engine wrote through.
  await withServiceDatabase({ dataDir }, async (db) => {
    const created = await db
      .selectFrom('tracking_requests')
      .select('shipment_id')
      .where('status', '=', 'created')
      .execute();
    for (const r of created) {
      const boxes = await db
        .selectFrom('containers')
        .select('id')
        .where('shipment_id', '=', r.shipment_id!)
        .execute();
      expect(boxes.length).toBeGreaterThan(0);
    }
    const raw = await db.selectFrom('raw_events').select('timestamp').execute();
    expect(raw.length).toBeGreaterThan(0);
    for (const e of raw) expect(Number.isFinite(Date.parse(e.timestamp))).toBe(true);
  });
}, 30_000);
