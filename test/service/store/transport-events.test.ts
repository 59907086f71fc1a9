/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * A new transport event changes its container and shipment: an incremental sync
 * (filter[updated_at][start]) made after the last one must see both again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../../support/service';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});

afterAll(async () => {
  await t?.close();
});

describe('TrackingStore.addTransportEvent', () => {
  it('bumps the container and shipment updated_at, so incremental syncs see the event', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000111');
    const container = seeded.containers[0]!;
    t.clock.advance(60_000);
    const since = new Date(t.clock.now()).toISOString();
    const query = (type: string) =>
      t.get(`/${type}?filter[updated_at][start]=${encodeURIComponent(since)}`);
    expect((await query('containers')).body.data).toHaveLength(0);
    expect((await query('shipments')).body.data).toHaveLength(0);

    t.clock.advance(60_000);
    const event = await t.service.store.tracking.addTransportEvent(container.id, {
      event: 'container.transport.vessel_arrived',
      dataSource: 'shipping_line',
      timestamp: new Date(t.clock.now()).toISOString(),
      locationLocode: 'USLAX',
    });

    const containers = (await query('containers')).body.data as any[];
    expect(containers.map((c) => c.id)).toEqual([container.id]);
    expect(containers[0].attributes.updated_at).toBe(event.created_at);
    const shipments = (await query('shipments')).body.data as any[];
    expect(shipments.map((s) => s.id)).toEqual([seeded.shipment.id]);
  });
});
