/**
 * The route map service behind `GET /containers/{id}/map_geojson`: loads what the map needs
 * (port calls, ports, leg vessels, recorded positions), builds it (route-map.ts), and answers
 * with ETag / 304 and stored copies of completed journeys (route-cache.ts).
 */
import type { RouteFeatureCollection } from '../../shared/api/resources';
import type { Clock } from '../../shared/clock';
import type { SeaRouter } from '../../shared/geo/sea-routes';
import type { PortCall, VesselRef } from '../feeds/normalize/shipment-facts';
import type { ContainersTable, ShipmentsTable } from '../store/schema';
import { emptyFeatureCollection, type RouteBuilder } from './index';
import type { VesselPositionHistory } from './positions';
import {
  CACHE_CONTROL_COMPLETE,
  CACHE_CONTROL_LIVE,
  etagMatches,
  isCurrentFormat,
  isJourneyComplete,
  routeEtag,
  type RouteMapCopies,
  type RouteResponse,
} from './route-cache';
import {
  buildRouteMap,
  legVesselRef,
  type RouteLegData,
  type RouteMapData,
  type RoutePort,
  type RouteVessel,
} from './route-map';

export interface RouteInput {
  container: ContainersTable;
  shipment: ShipmentsTable;
}

/** What the route map reads from the rest of the service. */
export interface RouteDataSource {
  /** The shipment's port calls (deriveShipmentFacts(...).port_calls), POL first. */
  portCalls(input: RouteInput): Promise<readonly PortCall[]>;
  /** Ports by UN/LOCODE; unknown codes are left out. */
  ports(locodes: readonly string[]): Promise<readonly RoutePort[]>;
  /** The vessel a port call names (by IMO), or null when unknown. */
  vessel(ref: VesselRef): Promise<RouteVessel | null>;
  positions: VesselPositionHistory;
}

/** Loads ports, leg vessels and each started leg's recorded positions (ATD to ATA, or now). */
export async function loadRouteMapData(
  calls: readonly PortCall[],
  source: Pick<RouteDataSource, 'ports' | 'vessel' | 'positions'>,
  now: number,
): Promise<RouteMapData> {
  const ports = new Map<string, RoutePort>();
  for (const port of await source.ports(calls.map((c) => c.locode))) ports.set(port.locode, port);
  const legs: RouteLegData[] = [];
  for (let k = 0; k < calls.length - 1; k++) {
    const ref = legVesselRef(calls, k);
    const vessel = ref ? await source.vessel(ref) : null;
    const atd = calls[k]!.outbound_atd_at;
    const ata = calls[k + 1]!.inbound_ata_at;
    const track =
      vessel && atd !== null
        ? await source.positions.positions(
            vessel,
            Date.parse(atd),
            ata !== null ? Date.parse(ata) : now,
          )
        : [];
    legs.push({ vessel, voyage_number: ref?.voyage_number ?? null, track });
  }
  return { calls, ports, legs };
}

export interface RouteMapServiceOptions {
  source: RouteDataSource;
  clock: Clock;
  /** The sea router; a function so the network graph is built only when first needed. */
  router: () => SeaRouter;
  copies: RouteMapCopies;
  freshPositionMs?: number;
}

export interface RouteMapService extends RouteBuilder {
  /**
   * The map_geojson response: the stored copy for a completed journey, else a fresh build (stored
   * when the journey is complete); 304 when `ifNoneMatch` matches the body's ETag.
   */
  respond(input: RouteInput & { ifNoneMatch?: string | string[] }): Promise<RouteResponse>;
}

export function createRouteMapService(options: RouteMapServiceOptions): RouteMapService {
  const { source, clock, copies } = options;

  async function buildFrom(calls: readonly PortCall[]): Promise<RouteFeatureCollection | null> {
    if (calls.length === 0) return null;
    const now = clock.now();
    const data = await loadRouteMapData(calls, source, now);
    return buildRouteMap(data, {
      now,
      router: options.router(),
      freshPositionMs: options.freshPositionMs,
    });
  }

  return {
    async build(input) {
      return buildFrom(await source.portCalls(input));
    },

    async respond(input) {
      const stored = await copies.get(input.container.id);
      let body: string;
      let etag: string;
      let complete: boolean;
      if (stored && isCurrentFormat(stored)) {
        ({ body, etag } = stored);
        complete = true;
      } else {
        const calls = await source.portCalls(input);
        const map = await buildFrom(calls);
        body = JSON.stringify(map ?? emptyFeatureCollection());
        etag = routeEtag(body);
        complete = map !== null && isJourneyComplete(calls, input.container, input.shipment);
        if (complete) {
          await copies.put({
            container_id: input.container.id,
            body,
            etag,
            stored_at: new Date(clock.now()).toISOString(),
          });
        }
      }
      const cacheControl = complete ? CACHE_CONTROL_COMPLETE : CACHE_CONTROL_LIVE;
      return etagMatches(input.ifNoneMatch, etag)
        ? { status: 304, body: null, etag, cacheControl }
        : { status: 200, body, etag, cacheControl };
    },
  };
}
