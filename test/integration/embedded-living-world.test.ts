/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * The embedded composition keeps the demo account tracking the living world: bookings the
 * simulated lines take become tracking requests once the line has boxes on them, while the service runs (through the service's
 * own tracking-request path, with the customer's PO numbers as references).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedService, type EmbeddedService } from '../../src/embedded/service-with-world';
import { ManualClock } from '../../src/shared/clock';
import { demoShipments, demoTrackingRequests } from '../../src/sim';
import { until } from '../support/wait';

const DAY = 86_400_000;
const SEED = 5;
const START = Date.UTC(2026, 5, 3, 9);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-living-'));
let embedded: EmbeddedService | undefined;

afterAll(async () => {
  await embedded?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function bookingRequests(e: EmbeddedService): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${e.baseUrl}/tracking_requests?page[size]=100&page[number]=${page}`, {
      headers: { Authorization: `Token ${e.apiKey}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    out.push(...body.data.filter((r: any) => r.attributes.request_type === 'booking_number'));
    if (body.data.length < 100) return out;
  }
}

describe('embedded service with a living world', () => {
  it('tracks the bookings the world takes as its clock moves on', async () => {
    const clock = new ManualClock(START);
    embedded = await startEmbeddedService({ dataDir, seed: SEED, clock });
    const model = embedded.sim.world.model;
    clock.advance(2 * DAY);
    const followed = model
      .bookingsTrackableBetween(model.origin - 21 * DAY, clock.now())
      .map((b) => b.request_number);
    expect(followed.length).toBeGreaterThan(40);
    const demo = demoTrackingRequests(SEED)
      .filter((r) => r.request_type === 'booking_number')
      .map((r) => r.request_number);
    const expected = [...demo, ...followed];
    await until(async () => (await bookingRequests(embedded!)).length >= expected.length);
    const requests = await bookingRequests(embedded);
    const numbers = requests.map((r) => r.attributes.request_number as string);
    expect(new Set(numbers)).toEqual(new Set(expected));
    const newest = model.bookingsTrackableBetween(clock.now() - DAY, clock.now())[0]!;
    const request = requests.find((r) => r.attributes.request_number === newest.request_number);
    expect(request.attributes.ref_numbers).toEqual(newest.references);

    // Every request is for its invented customer: a party of the account, named as the world
    // names it, whose shipment will show it.
    const shipmentsToTrack = demoShipments(SEED);
    const all = await fetch(
      `${embedded.baseUrl}/tracking_requests?page[size]=100&include=customer`,
      {
        headers: { Authorization: `Token ${embedded.apiKey}` },
      },
    ).then((r) => r.json() as Promise<any>);
    const customers = new Map<string, string>(
      all.included
        .filter((r: any) => r.type === 'party')
        .map((p: any) => [p.id, p.attributes.company_name]),
    );
    for (const demoRequest of shipmentsToTrack) {
      const tracked = all.data.find(
        (r: any) => r.attributes.request_number === demoRequest.request_number,
      );
      expect(customers.get(tracked.relationships.customer.data.id)).toBe(demoRequest.customer);
      expect(tracked.attributes.ref_numbers).toEqual(demoRequest.references);
    }
    expect(new Set(customers.values()).size).toBeGreaterThan(1);
  });
});
