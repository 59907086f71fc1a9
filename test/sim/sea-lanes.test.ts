import { describe, expect, it } from 'vitest';
import { createSeaRouter } from '../../src/shared/geo/sea-routes';
import { loadMarineNetwork } from '../../src/service/routing/network';
import stored from '../../src/sim/geo/sea-lanes.json';
import { computeSeaLanes, serviceLegs } from '../../src/sim/geo/sea-lanes';
import { World } from '../../src/sim';

describe('the stored sea lanes', () => {
  it('are what routing the services over the marine network gives today', () => {
    // Fails after a change to a rotation, a port's position or the network: regenerate with
    // `npx tsx src/sim/geo/write-sea-lanes.ts`.
    expect(computeSeaLanes()).toEqual(stored);
  });

  it('give a world the very routes the router gives, so voyages and positions are unchanged', () => {
    const router = createSeaRouter(loadMarineNetwork());
    const world = new World(42, Date.UTC(2026, 2, 10, 6));
    expect(world.services.flatMap((s) => s.legs).length).toBeGreaterThan(serviceLegs().length);
    for (const service of world.services) {
      service.legs.forEach((leg, i) => {
        const from = service.spec.rotation[i]!;
        const to = service.spec.rotation[(i + 1) % service.spec.rotation.length]!;
        const lane = serviceLegs().find((l) => l.leg === `${from}>${to}`)!;
        // Exact equality: every coordinate and summed distance, so every ETA and position.
        expect(leg, `${service.code} ${from}>${to}`).toEqual(router.seaRoute(lane.from, lane.to));
      });
    }
  });
});
