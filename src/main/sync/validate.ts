/**
 * Tolerant checks of /v2 payloads with the shared TypeBox schemas: unknown members are ignored,
 * values the schema wants as numbers or booleans are converted when they arrive as strings
 * (latitude "31.2"), and a record that still does not fit is skipped and reported, never fatal.
 */
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { RailTerminalResource } from '../../shared/api/resources';
import {
  CachedContainer,
  CachedEventSchema,
  CachedShipment,
  CachedTerminalSchema,
  type CachedContainer as Container,
  type CachedEvent,
  type CachedShipment as Shipment,
  type CachedTerminal,
} from '../../shared/cached-resources';

export interface SkippedRecord {
  type: string;
  id: string | null;
  reason: string;
}

const checker = (schema: TSchema) => ({ schema, compiled: Compile(schema) });
const checkers = {
  shipment: checker(CachedShipment),
  container: checker(CachedContainer),
  transport_event: checker(CachedEventSchema),
  terminal: checker(CachedTerminalSchema),
  rail_terminal: checker(RailTerminalResource),
};
type Known = keyof typeof checkers;

export interface TypeMap {
  shipment: Shipment;
  container: Container;
  transport_event: CachedEvent;
  terminal: CachedTerminal;
  rail_terminal: CachedTerminal;
}

/** Checks one record; returns it (converted) or the reason it was refused. */
export function checkRecord<K extends Known>(
  type: K,
  raw: unknown,
): { ok: true; value: TypeMap[K] } | { ok: false; skipped: SkippedRecord } {
  const id =
    raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
      ? (raw as { id: string }).id
      : null;
  const { schema, compiled } = checkers[type];
  if (compiled.Check(raw)) return { ok: true, value: raw as TypeMap[K] };
  const converted = Value.Convert(schema, structuredClone(raw));
  if (compiled.Check(converted)) return { ok: true, value: converted as TypeMap[K] };
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
