/**
 * HTTP caching of the route map. Clients poll a container at sea about once an hour; most polls
 * change nothing, so every response carries a strong ETag (a hash of the exact body) and a
 * matching If-None-Match gets 304 with no body. A completed journey's map never changes (spec,
 * Limits), so it is built once, stored, and served from the stored copy from then on.
 *
 * A journey is complete when the vessel has arrived at the POD (its ATA is known) and the
 * container has left the POD by truck (full out), arrived at its ramp after moving on by rail
 * (the rail arrival or unloading), was picked up at its final destination or returned empty, or
 * the line stopped tracking the shipment. Before that, late carrier reports at the POD
 * (discharge, corrections) may still change the ports' times, and a rail leg its status and
 * times (a rail departure no longer completes the map: the leg and ramp are drawn on it).
 */
import { createHash } from 'node:crypto';
import type { PortCall } from '../feeds/normalize/shipment-facts';
import type { StoredRouteMap } from '../store/route-map-copies';
import type { ContainersTable, ShipmentsTable } from '../store/schema';

/**
 * The builder's output format, carried in every ETag so that copies stored by an older builder
 * (e.g. before arrived legs without positions were drawn; m3: the rail leg and ramp) are
 * rebuilt once instead of served forever. Change it whenever the same data would now give a different map.
 */
const ROUTE_MAP_FORMAT = 'm3.';

/**
 * Strong ETag of a serialized body: the quoted format tag and base64url SHA-256 (first 128 bits).
 */
export function routeEtag(body: string): string {
  return `"${ROUTE_MAP_FORMAT}${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** True when a stored copy was made by this builder's format (see ROUTE_MAP_FORMAT). */
export const isCurrentFormat = (copy: { etag: string }): boolean =>
  copy.etag.startsWith(`"${ROUTE_MAP_FORMAT}`);

/** True when an If-None-Match header value matches `etag` (RFC 9110 weak comparison). */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || (t !== '' && opaque(t) === opaque(etag)));
}

export type JourneyContainer = Pick<
  ContainersTable,
  | 'pod_full_out_at'
  | 'ind_ata_at'
  | 'ind_rail_unloaded_at'
  | 'final_destination_full_out_at'
  | 'empty_terminated_at'
>;
export type JourneyShipment = Pick<ShipmentsTable, 'line_tracking_stopped_at'>;

/** True when the container's map can no longer change (see the module comment). */
export function isJourneyComplete(
  calls: readonly PortCall[],
  container: JourneyContainer,
  shipment: JourneyShipment,
): boolean {
  const pod = calls[calls.length - 1];
  if (calls.length < 2 || !pod || pod.inbound_ata_at === null) return false;
  return (
    container.pod_full_out_at !== null ||
    container.ind_ata_at !== null ||
    container.ind_rail_unloaded_at !== null ||
    container.final_destination_full_out_at !== null ||
    container.empty_terminated_at !== null ||
    shipment.line_tracking_stopped_at !== null
  );
}

export type { StoredRouteMap } from '../store/route-map-copies';

/** Stored copies of completed journeys' maps, by container id. */
export interface RouteMapCopies {
  get(containerId: string): Promise<StoredRouteMap | null>;
  put(copy: StoredRouteMap): Promise<void>;
}

export interface RouteResponse {
  status: 200 | 304;
  /** The JSON body for 200; null for 304. */
  body: string | null;
  etag: string;
  /** Cache-Control value to send with the response. */
  cacheControl: string;
}

/** Completed journeys may be cached by clients for a day; others must revalidate each time. */
export const CACHE_CONTROL_COMPLETE = 'private, max-age=86400';
export const CACHE_CONTROL_LIVE = 'private, no-cache';
