/**
 * The sea-route worker thread: builds the marine network graph (a quarter of a second of CPU) and
 * answers route requests, off the service's event loop (see sea-routes-client.ts).
 *
 * Messages in: `{ id, from, to }` ([lon, lat] each). Out: `{ ready: true }` once the graph is
 * built, then per request `{ id, route }`, `{ id, noRoute: true }` when the network joins no
 * route between the places, or `{ id, error }`.
 */
import { parentPort } from 'node:worker_threads';
import { NoSeaRoute, createSeaRouter } from '../../shared/geo/sea-routes';
import { loadMarineNetwork } from './network';

const port = parentPort;
if (!port) throw new Error('sea-route-worker.ts runs as a worker thread');

// Routes are kept by the caller (sea-routes-client.ts); a second copy here would only cost memory.
const router = createSeaRouter(loadMarineNetwork(), { cacheSize: 1 });
port.postMessage({ ready: true });

const isLonLat = (value: unknown): value is [number, number] =>
  Array.isArray(value) && value.length === 2 && value.every((n) => Number.isFinite(n));

port.on('message', (message: { id?: unknown; from?: unknown; to?: unknown }) => {
  const { id, from, to } = message;
  if (typeof id !== 'number') return;
  if (!isLonLat(from) || !isLonLat(to)) {
    port.postMessage({ id, error: 'a route needs two [lon, lat] positions' });
    return;
  }
  try {
    port.postMessage({ id, route: router.seaRoute(from, to) });
  } catch (error) {
    if (error instanceof NoSeaRoute) port.postMessage({ id, noRoute: true });
    else port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
