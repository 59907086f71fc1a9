/**
 * `include` handling: parse the comma-separated dotted paths, check each segment against the
 * relationships the resource types declare (an unknown one is a 400 naming the parameter),
 * then walk the relationships of the primary data, loading related resources type by type.
 */
import { ApiError } from './errors';

export interface Identifier {
  id: string;
  type: string;
}

export interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Identifier | Identifier[] | null }>;
  links?: Record<string, string>;
}

/** Relationship name -> the types it can point at, per resource type. */
export const RELATIONSHIP_TYPES: Record<string, Record<string, string[]>> = {
  shipment: {
    destination: ['port', 'metro_area'],
    port_of_lading: ['port'],
    port_of_discharge: ['port'],
    containers: ['container'],
    pod_terminal: ['terminal'],
    destination_terminal: ['terminal', 'rail_terminal'],
    line_tracking_stopped_by_user: ['user'],
  },
  container: {
    shipment: ['shipment'],
    pickup_facility: ['terminal'],
    pod_terminal: ['terminal'],
    transport_events: ['transport_event'],
    raw_events: ['raw_event'],
  },
  transport_event: {
    shipment: ['shipment'],
    container: ['container'],
    location: ['port', 'metro_area'],
    vessel: ['vessel'],
    terminal: ['terminal', 'rail_terminal'],
  },
  raw_event: { location: ['port', 'metro_area'], vessel: ['vessel'] },
  tracking_request: { tracked_object: ['shipment'], customer: ['party'] },
  terminal: { port: ['port'] },
  rail_terminal: { port: ['port'], metro_area: ['metro_area'] },
  webhook_notification: {
    webhook: ['webhook'],
    reference_object: ['tracking_request', 'transport_event'],
  },
};

/**
 * The types `relationship` of `type` can point at. Only the tables' own keys count: a name such
 * as `__proto__` or `toString` must not resolve to a built-in property of a plain object.
 */
function relationshipTargets(type: string, relationship: string): string[] {
  if (!Object.hasOwn(RELATIONSHIP_TYPES, type)) return [];
  const relationships = RELATIONSHIP_TYPES[type]!;
  return Object.hasOwn(relationships, relationship) ? relationships[relationship]! : [];
}

/** Parses and validates `include` for a primary type. Returns the list of paths (segments). */
export function parseInclude(raw: unknown, primaryType: string): string[][] {
  if (raw === undefined || raw === '') return [];
  if (typeof raw !== 'string') {
    throw new ApiError(400, 'include must be a comma-separated list', {
      source: { parameter: 'include' },
    });
  }
  const paths: string[][] = [];
  for (const item of raw.split(',')) {
    const trimmed = item.trim();
    if (!trimmed) continue;
    const segments = trimmed.split('.');
    if (!typesAlong(primaryType, segments)) {
      throw new ApiError(
        400,
        `${trimmed} is not a relationship that can be included on ${primaryType}`,
        { source: { parameter: 'include' } },
      );
    }
    paths.push(segments);
  }
  return paths;
}

/**
 * The types each step of `segments` can reach from `primaryType`, step by step; undefined when
 * a step names no relationship of the types before it.
 */
function typesAlong(primaryType: string, segments: string[]): string[][] | undefined {
  const steps: string[][] = [];
  let types = [primaryType];
  for (const segment of segments) {
    const next = new Set<string>();
    for (const t of types) for (const r of relationshipTargets(t, segment)) next.add(r);
    if (next.size === 0) return undefined;
    types = [...next];
    steps.push(types);
  }
  return steps;
}

/** Every type the (parsed) include paths can bring into a document of `primaryType`. */
export function includedTypes(paths: string[][], primaryType: string): Set<string> {
  const types = new Set<string>();
  for (const path of paths)
    for (const step of typesAlong(primaryType, path) ?? []) {
      for (const type of step) types.add(type);
    }
  return types;
}

export type TypeLoader = (type: string, ids: string[]) => Promise<Resource[]>;

/** Resolves include paths from the primary data; each resource appears at most once. */
export async function resolveIncludes(
  primary: Resource[],
  paths: string[][],
  load: TypeLoader,
): Promise<Resource[]> {
  if (paths.length === 0) return [];
  const included = new Map<string, Resource>();
  const primaryKeys = new Set(primary.map((r) => `${r.type}:${r.id}`));
  const cache = new Map<string, Resource>();
  for (const r of primary) cache.set(`${r.type}:${r.id}`, r);

  for (const path of paths) {
    let current = primary;
    for (const segment of path) {
      const wanted = new Map<string, Set<string>>();
      for (const r of current) {
        const data = r.relationships?.[segment]?.data;
        const ids = data == null ? [] : Array.isArray(data) ? data : [data];
        for (const ident of ids) {
          if (!wanted.has(ident.type)) wanted.set(ident.type, new Set());
          wanted.get(ident.type)!.add(ident.id);
        }
      }
      const next: Resource[] = [];
      for (const [type, idSet] of wanted) {
        const ids = [...idSet];
        const keys = ids.map((id) => `${type}:${id}`);
        const missing = ids.filter((_id, i) => !cache.has(keys[i]!));
        if (missing.length)
          for (const r of await load(type, missing)) cache.set(`${r.type}:${r.id}`, r);
        for (const key of keys) {
          const r = cache.get(key);
          if (!r) continue;
          next.push(r);
          if (!primaryKeys.has(key)) included.set(key, r);
        }
      }
      current = next;
    }
  }
  return [...included.values()];
}
