import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { container, shipment, tempDir } from '../../support/cache-fixtures';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const at = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
beforeEach(() => {
  tmp = tempDir();
  cache = Cache.open(tmp.dir);
});
afterEach(() => {
  cache.close();
  tmp.remove();
});

describe('route maps of boxes moving on by rail', () => {
  it('stay live after the port arrival until the box is at the ramp', () => {
    const arrived = { pol_atd_at: at(-300), pod_ata_at: at(-40) };
    const toChicago = shipment({
      ...arrived,
      destination_locode: 'USCHI',
      destination_name: 'Chicago',
    });
    const local = shipment(arrived);
    const waiting = container({ pod_arrived_at: at(-40) }, { shipmentId: toChicago.id });
    const onRail = container(
      { pod_arrived_at: at(-40), current_status: 'on_rail', pod_rail_loaded_at: at(-20) },
      { shipmentId: toChicago.id },
    );
    const atRamp = container(
      { pod_arrived_at: at(-40), pod_rail_loaded_at: at(-20), ind_ata_at: at(-2) },
      { shipmentId: toChicago.id },
    );
    const trucked = container({ pod_arrived_at: at(-40) }, { shipmentId: local.id });
    cache.applyPage(
      { shipments: [toChicago, local], containers: [waiting, onRail, atRamp, trucked] },
      at(0),
    );
    for (const c of [waiting, onRail, atRamp, trucked]) {
      cache.putRouteMap({
        containerId: c.id,
        geojson: '{}',
        fetchedAt: at(-5),
        etag: null,
        completed: false,
      });
    }
    // Final: the box that is at its ramp and the one trucked from the port.
    expect(cache.containerArrived(atRamp.id)).toBe(true);
    expect(cache.containerArrived(trucked.id)).toBe(true);
    // Live: waiting for its train at the port, and on rail.
    expect(cache.containerArrived(waiting.id)).toBe(false);
    expect(cache.containerArrived(onRail.id)).toBe(false);
    // A live map fetched before the refresh interval is due again; a final one once more.
    const due = new Map(cache.dueRouteMaps(at(-1), 0).due.map((d) => [d.id, d.arrived]));
    expect(due).toEqual(
      new Map([
        [waiting.id, false],
        [onRail.id, false],
        [atRamp.id, true],
        [trucked.id, true],
      ]),
    );
  });
});
