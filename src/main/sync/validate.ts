/**
 * Tolerant checks of /v2 payloads (see tolerant-schemas.ts): only what the spec requires must be
 * there, present members must fit their type, numbers sent as strings become numbers, unknown
 * members are kept. A record that still does not fit is skipped and reported, never fatal.
 */
import { Compile } from 'typebox/compile';
import type {
  CachedContainer as Container,
  CachedEvent,
  CachedShipment as Shipment,
  CachedTerminal,
} from '../../shared/cached-resources';
import type { TrackingRequestResource } from '../../shared/api/resources';
import type {
  CustomFieldDefinitionResource,
  CustomFieldOptionResource,
  CustomFieldResource,
} from '../../shared/api/custom-fields';
import {
  numbersFromStrings,
  TOLERANT_SCHEMAS,
  withKnownAttributes,
  type TolerantKind,
} from './tolerant-schemas';

export interface SkippedRecord {
  type: string;
  id: string | null;
  reason: string;
}

const checkers = Object.fromEntries(
  Object.entries(TOLERANT_SCHEMAS).map(([kind, schema]) => [
    kind,
    { schema, compiled: Compile(schema) },
  ]),
) as Record<
  TolerantKind,
  { schema: (typeof TOLERANT_SCHEMAS)[TolerantKind]; compiled: ReturnType<typeof Compile> }
>;
type Known = TolerantKind;

/** A port as the sync reads it (not cached; checked so a bad one is reported). */
export interface CheckedPort {
  id: string;
  type: 'port';
  attributes?: Record<string, unknown>;
}

export interface TypeMap {
  shipment: Shipment;
  container: Container;
  transport_event: CachedEvent;
  terminal: CachedTerminal;
  rail_terminal: CachedTerminal;
  port: CheckedPort;
  tracking_request: Pick<TrackingRequestResource, 'id' | 'type'> & {
    attributes: Partial<TrackingRequestResource['attributes']>;
    relationships?: Partial<TrackingRequestResource['relationships']>;
  };
  custom_field: Loose<CustomFieldResource, 'api_slug' | 'value'>;
  custom_field_definition: Loose<
    CustomFieldDefinitionResource,
    'entity_type' | 'api_slug' | 'display_name' | 'data_type'
  >;
  custom_field_option: Loose<CustomFieldOptionResource, 'label' | 'value'>;
}

/** A resource as the tolerant check lets it through: `K` attributes present, the rest optional. */
type Loose<
  R extends { id: string; type: string; attributes: object },
  K extends keyof R['attributes'],
> = {
  id: string;
  type: R['type'];
  attributes: Pick<R['attributes'], K> & {
    [P in Exclude<keyof R['attributes'], K>]?: R['attributes'][P] | null;
  };
  relationships?: R extends { relationships?: infer Rel } ? Partial<NonNullable<Rel>> : never;
};

/** Checks one record; returns it (numbers converted, absent known attributes null) or why not. */
export function checkRecord<K extends Known>(
  type: K,
  raw: unknown,
): { ok: true; value: TypeMap[K] } | { ok: false; skipped: SkippedRecord } {
  const id =
    raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
      ? (raw as { id: string }).id
      : null;
  const { schema, compiled } = checkers[type];
  const converted = numbersFromStrings(schema, raw);
  if (compiled.Check(converted)) {
    return {
      ok: true,
      value: withKnownAttributes(type, converted as Record<string, unknown>) as TypeMap[K],
    };
  }
  const first = [...compiled.Errors(converted)][0];
  return {
    ok: false,
    skipped: {
      type,
      id,
      reason: first ? `${first.instancePath || '/'} ${first.message}` : 'does not match the schema',
    },
  };
}

/** Splits a list of records into the ones that fit and the skipped ones. */
export function checkRecords<K extends Known>(
  type: K,
  raws: readonly unknown[],
  skipped: SkippedRecord[],
): TypeMap[K][] {
  const out: TypeMap[K][] = [];
  for (const raw of raws) {
    const r = checkRecord(type, raw);
    if (r.ok) out.push(r.value);
    else skipped.push(r.skipped);
  }
  return out;
}

/** The collection envelope: `data` must be an array; `included`, `links`, `meta` are optional. */
export function collectionEnvelope(body: unknown): {
  data: unknown[];
  included: unknown[];
  next: string | null;
  total: number | null;
} | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.data)) return null;
  const links = (b.links && typeof b.links === 'object' ? b.links : {}) as Record<string, unknown>;
  const meta = (b.meta && typeof b.meta === 'object' ? b.meta : {}) as Record<string, unknown>;
  const total = Number(meta.total);
  return {
    data: b.data,
    included: Array.isArray(b.included) ? b.included : [],
    next: typeof links.next === 'string' && links.next ? links.next : null,
    total: Number.isFinite(total) ? total : null,
  };
}

export const typeOf = (raw: unknown): string | null =>
  raw && typeof raw === 'object' && typeof (raw as { type?: unknown }).type === 'string'
    ? (raw as { type: string }).type
    : null;
