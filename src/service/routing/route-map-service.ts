/**
 * The route map service behind `GET /containers/{id}/map_geojson`: loads what the map needs
 * (port calls, ports, leg vessels, recorded positions), builds it (route-map.ts), and answers
 * with ETag / 304 and stored copies of completed journeys (route-cache.ts).
 */
import type { Clock } from '../../shared/clock';
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
import { ByteLru } from '../byte-lru';
import type { SeaRoutes } from './sea-routes-client';
import { buildInlandLeg, type InlandLegData } from './inland-leg';
import type { RouteFeatureCollection } from '../../shared/api/resources';
import {
  FRESH_POSITION_MS,
  buildRouteMap,
  legVesselRef,
  type RouteLegData,
  type RouteMapData,
  type RoutePort,
  type RouteVessel,
  type TrackPoint,
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
  /** The box's rail leg past the port of discharge, or null when it does not move on by rail. */
  inland?(input: RouteInput): Promise<InlandLegData | null>;
}

/** Rough in-memory size of one kept position (object, five numbers, array slot). */
const BYTES_PER_POSITION = 120;

/**
 * Each started leg's recorded positions kept between builds (bounded in bytes, least recently
 * used dropped) and topped up with only the positions recorded since the last load. The arrays
 * handed out only ever grow at their end, which lets `buildRouteMap` pick up where it left off.
 * A position stored late but stamped before the last kept one is not picked up (AIS reports of
 * one vessel come in time order); a leg that closes (its ATA arrives) is loaded afresh under a
 * new key.
 */
export class LegTrackMemo {
  private readonly tracks: ByteLru<string, { points: TrackPoint[]; loadedTo: number }>;

  constructor(maxBytes = 16 * 1024 * 1024) {
    this.tracks = new ByteLru(maxBytes);
  }

  get bytes(): number {
    return this.tracks.bytes;
  }

  async load(
    positions: VesselPositionHistory,
    vessel: RouteVessel,
    fromMs: number,
    toMs: number,
    closed: boolean,
  ): Promise<TrackPoint[]> {
    const key = `${vessel.id}|${fromMs}|${closed ? toMs : 'open'}`;
    const kept = this.tracks.get(key);
    if (kept && kept.loadedTo >= toMs) return kept.points;
    if (kept) {
      // From just after the last kept position, not the last load: a batch of positions may be
      // stored after a load yet stamped before it.
      const lastAt = kept.points[kept.points.length - 1]?.at ?? fromMs - 1;
      const newer = await positions.positions(vessel, lastAt + 1, toMs);
      for (const p of newer) if (p.at > lastAt) kept.points.push(p);
      kept.loadedTo = toMs;
      this.tracks.resize(key, kept.points.length * BYTES_PER_POSITION);
      return kept.points;
    }
    const points = await positions.positions(vessel, fromMs, toMs);
    this.tracks.set(key, { points, loadedTo: toMs }, points.length * BYTES_PER_POSITION);
    return points;
  }
}

/**
 * Loads ports, leg vessels and each started leg's recorded positions (ATD to ATA, or now); with
 * a `memo`, positions already loaded by an earlier call are not read again.
 */
export async function loadRouteMapData(
  calls: readonly PortCall[],
  source: Pick<RouteDataSource, 'ports' | 'vessel' | 'positions'>,
  now: number,
  memo?: LegTrackMemo,
): Promise<RouteMapData> {
  const ports = new Map<string, RoutePort>();
  for (const port of await source.ports(calls.map((c) => c.locode))) ports.set(port.locode, port);
  const legs: RouteLegData[] = [];
  for (let k = 0; k < calls.length - 1; k++) {
    const ref = legVesselRef(calls, k);
    const vessel = ref ? await source.vessel(ref) : null;
    const atd = calls[k]!.outbound_atd_at;
    const ata = calls[k + 1]!.inbound_ata_at;
    const fromMs = atd !== null ? Date.parse(atd) : NaN;
    const toMs = ata !== null ? Date.parse(ata) : now;
    const track =
      vessel && atd !== null
        ? memo
          ? await memo.load(source.positions, vessel, fromMs, toMs, ata !== null)
          : await source.positions.positions(vessel, fromMs, toMs)
        : [];
    legs.push({ vessel, voyage_number: ref?.voyage_number ?? null, track });
  }
  return { calls, ports, legs };
}

export interface RouteMapServiceOptions {
  source: RouteDataSource;
  clock: Clock;
  /** Sea routes (on a worker in the service: sea-routes-client.ts). */
  routes: SeaRoutes;
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

/**
 * What a built map depends on besides reference data: the port calls, each leg's vessel and
 * recorded positions (by count and last time, the arrays only grow) and whether the last one is
 * still fresh. Equal signatures give the same map.
 */
function mapSignature(
  data: RouteMapData,
  inland: InlandLegData | null,
  now: number,
  freshMs: number,
): string {
  const legs = data.legs.map((leg) => {
    const last = leg.track[leg.track.length - 1];
    return `${leg.vessel?.id ?? ''}:${leg.track.length}:${last?.at ?? ''}:${last && now - last.at <= freshMs ? 1 : 0}`;
  });
  return `${JSON.stringify(data.calls)}|${legs.join(',')}|${JSON.stringify(inland)}`;
}

/** The ocean map with the rail leg and ramp beside it (the `inland` member), when there is one. */
function withInland(
  map: RouteFeatureCollection | null,
  data: RouteMapData,
  inland: InlandLegData | null,
): RouteFeatureCollection | null {
  if (!map) return null;
  const pod = data.calls[data.calls.length - 1];
  const leg = buildInlandLeg(data.calls, pod && data.ports.get(pod.locode), inland);
  return leg ? { ...map, inland: leg } : map;
}

/** Built maps of live journeys kept for polls that find nothing new (bounded in bytes). */
const LIVE_MAPS_BYTES = 8 * 1024 * 1024;

export function createRouteMapService(options: RouteMapServiceOptions): RouteMapService {
  const { source, clock, copies } = options;
  const freshMs = options.freshPositionMs ?? FRESH_POSITION_MS;
  const tracks = new LegTrackMemo();
  const liveMaps = new ByteLru<string, { signature: string; body: string; etag: string }>(
    LIVE_MAPS_BYTES,
  );

  const build = (data: RouteMapData, inland: InlandLegData | null, now: number) =>
    options.routes.withRoutes((router) =>
      withInland(
        buildRouteMap(data, { now, router, freshPositionMs: options.freshPositionMs }),
        data,
        inland,
      ),
    );
  const inlandOf = (input: RouteInput) => source.inland?.(input) ?? Promise.resolve(null);

  return {
    async build(input) {
      const calls = await source.portCalls(input);
      if (calls.length === 0) return null;
      const now = clock.now();
      const data = await loadRouteMapData(calls, source, now, tracks);
      return build(data, await inlandOf(input), now);
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
        const id = input.container.id;
        const calls = await source.portCalls(input);
        const journeyDone = isJourneyComplete(calls, input.container, input.shipment);
        const now = clock.now();
        // A completed journey is built once, from everything stored (no kept positions).
        const data =
          calls.length > 0
            ? await loadRouteMapData(calls, source, now, journeyDone ? undefined : tracks)
            : null;
        const inland = data ? await inlandOf(input) : null;
        const signature = data && !journeyDone ? mapSignature(data, inland, now, freshMs) : null;
        const kept = signature !== null ? liveMaps.get(id) : undefined;
        if (kept && kept.signature === signature) {
          // Nothing new since the last poll: the same body, without building or hashing it.
          ({ body, etag } = kept);
          complete = false;
        } else {
          const map = data && (await build(data, inland, now));
          body = JSON.stringify(map ?? emptyFeatureCollection());
          etag = routeEtag(body);
          complete = map !== null && journeyDone;
          if (complete) {
            liveMaps.delete(id);
            await copies.put({
              container_id: id,
              body,
              etag,
              stored_at: new Date(clock.now()).toISOString(),
            });
          } else if (signature !== null) {
            liveMaps.set(id, { signature, body, etag }, 2 * (body.length + signature.length));
          }
        }
      }
      const cacheControl = complete ? CACHE_CONTROL_COMPLETE : CACHE_CONTROL_LIVE;
      return etagMatches(input.ifNoneMatch, etag)
        ? { status: 304, body: null, etag, cacheControl }
        : { status: 200, body, etag, cacheControl };
    },
  };
}
