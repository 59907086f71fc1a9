/**
 * The maps step of a sync run: map data for containers at sea at most hourly, once more when the
 * journey completes, then never again; a 403 (no routing entitlement) is remembered and the map
 * is not asked again. The detail view's map (routeMap) goes through the same fetch.
 */
import { isoString } from '../../shared/clock';
import type { RouteMapRecord } from '../cache/interface';
import { nextTurn } from '../turns';
import { V2Error, type V2Client } from './client';
import { HOUR, PHASES, STATE, type SyncContext } from './run-state';

export async function refreshMaps(ctx: SyncContext, client: V2Client): Promise<void> {
  const { cache, clock } = ctx.options;
  if (cache.getState<string>(STATE.routingRefused)) return;
  const refreshMs = ctx.options.mapRefreshMs ?? HOUR;
  const now = clock.now();
  const staleBefore = isoString(now - refreshMs);
  for (let after: number | null = 0; after !== null;) {
    const scan = cache.dueRouteMaps(staleBefore, after);
    const from = after;
    const to = scan.next ?? scan.last;
    for (const [i, c] of scan.due.entries()) {
      const outcome = await fetchMap(ctx, client, c.id, c.arrived);
      if (outcome === 'refused') return;
      const position = from + ((to - from) * (i + 1)) / scan.due.length;
      ctx.setStatus({ progress: mapProgress(position, scan.last) });
    }
    after = scan.next;
    ctx.setStatus({ progress: mapProgress(to, scan.last) });
    await nextTurn();
  }
}

function mapProgress(position: number, last: number): number {
  const [start, end] = PHASES.maps;
  return start + ((end - start) * Math.min(position, last)) / Math.max(1, last);
}

export async function fetchMap(
  ctx: SyncContext,
  client: V2Client,
  containerId: string,
  completed: boolean,
): Promise<'stored' | 'refused' | 'missing'> {
  const { cache, clock } = ctx.options;
  const existing = cache.getRouteMap(containerId);
  const response = await client.get(`containers/${encodeURIComponent(containerId)}/map_geojson`, {
    headers: existing?.etag ? { 'If-None-Match': existing.etag } : {},
    accept: [304, 403, 404],
  });
  const now = isoString(clock.now());
  if (response.status === 403) {
    cache.setState(STATE.routingRefused, now);
    return 'refused';
  }
  if (response.status === 404) return 'missing';
  if (response.status === 304 && existing) {
    cache.touchRouteMap(containerId, now, completed);
    return 'stored';
  }
  const body = response.body as { type?: unknown; features?: unknown } | null;
  if (!body || body.type !== 'FeatureCollection' || !Array.isArray(body.features)) {
    ctx.options.onSkipped?.({
      type: 'map_geojson',
      id: containerId,
      reason: 'not a GeoJSON FeatureCollection',
    });
    return 'missing';
  }
  cache.putRouteMap({
    containerId,
    geojson: JSON.stringify(body),
    fetchedAt: now,
    etag: response.headers.get('etag'),
    completed,
  });
  return 'stored';
}

/**
 * A container's route map for the detail view: from the cache when it is fresh (or final),
 * else fetched now through `client` (null: no service to ask). Null when the account has no
 * routing entitlement or nothing is known.
 */
export async function routeMap(
  ctx: SyncContext,
  containerId: string,
  client: (() => V2Client) | null,
): Promise<RouteMapRecord | null> {
  const { cache, clock } = ctx.options;
  const existing = cache.getRouteMap(containerId);
  const fresh =
    existing &&
    (existing.completed ||
      clock.now() - Date.parse(existing.fetchedAt) < (ctx.options.mapRefreshMs ?? HOUR));
  if (fresh || !client || cache.getState<string>(STATE.routingRefused)) return existing;
  const arrived = cache.containerArrived(containerId);
  try {
    await fetchMap(ctx, client(), containerId, arrived);
  } catch (error) {
    if (!(error instanceof V2Error)) throw error;
    // Offline: the cached map (if any) is the best there is.
  }
  return cache.getRouteMap(containerId);
}
