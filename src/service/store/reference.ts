/**
 * Curated reference data (ports, metro areas, terminals, rail terminals, shipping lines,
 * vessels): loaded from `resources/reference/*.json` into tables at startup, idempotently, and
 * kept in memory for rendering (it is small and read on every response).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { v5 as uuidv5 } from 'uuid';
import { retryOnConflict } from './dialect';
import { byImo } from './vessels';
import {
  REFERENCE_FILES,
  type MetroAreaRecord,
  type PortRecord,
  type RailTerminalRecord,
  type ShippingLineRecord,
  type TerminalRecord,
  type VesselRecord,
} from '../../shared/reference-data';
import type {
  Database,
  MetroAreasTable,
  PortsTable,
  RailTerminalsTable,
  ShippingLinesTable,
  TerminalsTable,
} from './schema';

/** Fixed namespace: ids of reference records are stable across restarts and instances. */
export const REFERENCE_NAMESPACE = '5b0f6a4e-2f55-4c1e-9a0c-7a1c0de5a11d';
export const referenceId = (kind: string, naturalKey: string): string =>
  uuidv5(`${kind}:${naturalKey}`, REFERENCE_NAMESPACE);

const Str = Type.String();
const NStr = Type.Union([Type.String(), Type.Null()]);
const StrArray = Type.Array(Type.String());
const Locode = Type.String({ pattern: '^[A-Z]{2}[A-Z0-9]{3}$' });

const PortSchema = Type.Object({
  locode: Locode,
  name: Str,
  city: NStr,
  state_abbr: NStr,
  state: NStr,
  country_code: Type.String({ minLength: 2, maxLength: 2 }),
  country: Str,
  time_zone: Str,
  latitude: Type.Number(),
  longitude: Type.Number(),
});
const MetroSchema = Type.Object({
  locode: Locode,
  name: Str,
  state_abbr: NStr,
  country_code: Str,
  time_zone: Str,
  latitude: Type.Number(),
  longitude: Type.Number(),
});
const TerminalSchema = Type.Object({
  firms_code: Str,
  smdg_code: NStr,
  bic_facility_code: NStr,
  name: Str,
  nickname: NStr,
  street: NStr,
  city: NStr,
  state: NStr,
  state_abbr: NStr,
  zip: NStr,
  country: Str,
  port_locode: Locode,
});
const RailTerminalSchema = Type.Object({
  firms_code: Str,
  name: Str,
  nickname: NStr,
  metro_locode: Locode,
  port_locode: Type.Union([Locode, Type.Null()]),
  rail_carrier_scac: Str,
});
const ShippingLineSchema = Type.Object({
  scac: Type.String({ pattern: '^[A-Z]{4}$' }),
  name: Str,
  short_name: Str,
  container_prefixes: StrArray,
  bill_of_lading_prefixes: StrArray,
  booking_prefixes: StrArray,
  alternative_scacs: StrArray,
  tracks_by: Type.Array(
    Type.Union([
      Type.Literal('bill_of_lading'),
      Type.Literal('booking_number'),
      Type.Literal('container'),
    ]),
  ),
});
const VesselSchema = Type.Object({
  name: Str,
  imo: Type.String({ pattern: '^[0-9]{7}$' }),
  mmsi: Type.String({ pattern: '^[0-9]{9}$' }),
  operator_scac: Str,
  teu: Type.Number(),
  service_speed_knots: Type.Number(),
});

export interface ReferenceRecords {
  ports: PortRecord[];
  metroAreas: MetroAreaRecord[];
  terminals: TerminalRecord[];
  railTerminals: RailTerminalRecord[];
  shippingLines: ShippingLineRecord[];
  vessels: VesselRecord[];
}

function readArray<T>(dir: string, file: string, schema: TSchema): T[] {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) return [];
  const parsed: unknown = JSON.parse(fs.readFileSync(full, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${full}: expected a JSON array`);
  parsed.forEach((item, i) => {
    if (!Value.Check(schema, item)) {
      const first = Value.Errors(schema, item)[0];
      throw new Error(
        `${full}[${i}]: ${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid'}`,
      );
    }
  });
  return parsed as T[];
}

/** Reads and validates the reference files of `dir`; a missing file counts as an empty list. */
export function readReferenceDir(dir: string): ReferenceRecords {
  return {
    ports: readArray(dir, REFERENCE_FILES.ports, PortSchema),
    metroAreas: readArray(dir, REFERENCE_FILES.metroAreas, MetroSchema),
    terminals: readArray(dir, REFERENCE_FILES.terminals, TerminalSchema),
    railTerminals: readArray(dir, REFERENCE_FILES.railTerminals, RailTerminalSchema),
    shippingLines: readArray(dir, REFERENCE_FILES.shippingLines, ShippingLineSchema),
    vessels: readArray(dir, REFERENCE_FILES.vessels, VesselSchema),
  };
}

/** In-memory view of the reference tables, keyed for rendering and lookups. */
export class ReferenceData {
  portsById = new Map<string, PortsTable>();
  portsByLocode = new Map<string, PortsTable>();
  metrosById = new Map<string, MetroAreasTable>();
  metrosByLocode = new Map<string, MetroAreasTable>();
  terminalsById = new Map<string, TerminalsTable>();
  terminalsByFirms = new Map<string, TerminalsTable>();
  /** The terminals of each port (a port's `terminals` relationship). */
  terminalIdsByPort = new Map<string, string[]>();

  terminalsOf(portId: string): readonly string[] {
    return this.terminalIdsByPort.get(portId) ?? [];
  }
  railTerminalsById = new Map<string, RailTerminalsTable>();
  railTerminalsByFirms = new Map<string, RailTerminalsTable>();
  linesByScac = new Map<string, ShippingLinesTable>();
  /** Primary and alternative SCACs -> the line. */
  linesByAnyScac = new Map<string, ShippingLinesTable>();
  lines: ShippingLinesTable[] = [];

  static async fromDatabase(db: Kysely<Database>): Promise<ReferenceData> {
    const ref = new ReferenceData();
    for (const p of await db.selectFrom('ports').selectAll().execute()) {
      ref.portsById.set(p.id, p);
      ref.portsByLocode.set(p.locode, p);
    }
    for (const m of await db.selectFrom('metro_areas').selectAll().execute()) {
      ref.metrosById.set(m.id, m);
      ref.metrosByLocode.set(m.locode, m);
    }
    for (const t of await db.selectFrom('terminals').selectAll().execute()) {
      ref.terminalsById.set(t.id, t);
      ref.terminalsByFirms.set(t.firms_code, t);
      if (t.port_id) ref.terminalIdsByPort.set(t.port_id, [...ref.terminalsOf(t.port_id), t.id]);
    }
    for (const t of await db.selectFrom('rail_terminals').selectAll().execute()) {
      ref.railTerminalsById.set(t.id, t);
      ref.railTerminalsByFirms.set(t.firms_code, t);
    }
    ref.lines = await db.selectFrom('shipping_lines').selectAll().orderBy('scac').execute();
    for (const l of ref.lines) {
      ref.linesByScac.set(l.scac, l);
      ref.linesByAnyScac.set(l.scac, l);
    }
    for (const l of ref.lines) {
      for (const alt of JSON.parse(l.alternative_scacs) as string[]) {
        if (!ref.linesByAnyScac.has(alt)) ref.linesByAnyScac.set(alt, l);
      }
    }
    return ref;
  }
}

/**
 * Upserts the reference records into their tables. Ids are uuid v5 of the natural key, so
 * running it again (or on another instance) changes nothing but updated facts.
 */
export async function loadReferenceData(
  db: Kysely<Database>,
  records: ReferenceRecords,
): Promise<void> {
  const ports: PortsTable[] = records.ports.map((p) => ({
    id: referenceId('port', p.locode),
    locode: p.locode,
    name: p.name,
    city: p.city,
    state_abbr: p.state_abbr,
    state: p.state,
    country_code: p.country_code,
    country: p.country,
    time_zone: p.time_zone,
    latitude: p.latitude,
    longitude: p.longitude,
  }));
  const metros: MetroAreasTable[] = records.metroAreas.map((m) => ({
    id: referenceId('metro_area', m.locode),
    locode: m.locode,
    name: m.name,
    state_abbr: m.state_abbr,
    country_code: m.country_code,
    time_zone: m.time_zone,
    latitude: m.latitude,
    longitude: m.longitude,
  }));
  const portIds = new Set(ports.map((p) => p.id));
  const metroIds = new Set(metros.map((m) => m.id));
  const known = (ids: Set<string>, id: string | null) => (id && ids.has(id) ? id : null);
  const terminals: TerminalsTable[] = records.terminals.map((t) => ({
    id: referenceId('terminal', t.firms_code),
    firms_code: t.firms_code,
    smdg_code: t.smdg_code,
    bic_facility_code: t.bic_facility_code,
    name: t.name,
    nickname: t.nickname,
    street: t.street,
    city: t.city,
    state: t.state,
    state_abbr: t.state_abbr,
    zip: t.zip,
    country: t.country,
    port_id: known(portIds, referenceId('port', t.port_locode)),
    port_locode: t.port_locode,
  }));
  const railTerminals: RailTerminalsTable[] = records.railTerminals.map((t) => ({
    id: referenceId('rail_terminal', t.firms_code),
    firms_code: t.firms_code,
    name: t.name,
    nickname: t.nickname,
    metro_area_id: known(metroIds, referenceId('metro_area', t.metro_locode)),
    port_id: t.port_locode ? known(portIds, referenceId('port', t.port_locode)) : null,
    rail_carrier_scac: t.rail_carrier_scac,
  }));
  const lines: ShippingLinesTable[] = records.shippingLines.map((l) => ({
    id: referenceId('shipping_line', l.scac),
    scac: l.scac,
    name: l.name,
    short_name: l.short_name,
    alternative_scacs: JSON.stringify(l.alternative_scacs),
    container_prefixes: JSON.stringify(l.container_prefixes),
    bill_of_lading_prefixes: JSON.stringify(l.bill_of_lading_prefixes),
    booking_prefixes: JSON.stringify(l.booking_prefixes),
    tracks_by: JSON.stringify(l.tracks_by),
  }));
  const vessels = [...records.vessels].sort(byImo).map((v) => ({
    id: referenceId('vessel', v.imo),
    imo: v.imo,
    mmsi: v.mmsi,
    name: v.name,
    operator_scac: v.operator_scac,
  }));

  // A running instance may be writing vessel positions meanwhile: rows are taken in its order,
  // and a transaction PostgreSQL still undid for a conflict runs again.
  await retryOnConflict(() =>
    db.transaction().execute(async (trx) => {
      const upsert = async <T extends keyof Database>(
        table: T,
        rows: Record<string, unknown>[],
        conflict: string,
      ) => {
        for (let i = 0; i < rows.length; i += 200) {
          const chunk = rows.slice(i, i + 200);
          const updatable = Object.keys(chunk[0]!).filter((k) => k !== 'id' && k !== conflict);
          await trx
            .insertInto(table)
            // eslint-disable-next-line @typescript-eslint/no-explicit-any -- generic over tables
            .values(chunk as any)
            .onConflict((oc) =>
              oc
                .column(conflict as never)
                .doUpdateSet(
                  (eb) =>
                    Object.fromEntries(
                      updatable.map((k) => [k, eb.ref(`excluded.${k}` as never)]),
                    ) as never,
                ),
            )
            .execute();
        }
      };
      if (ports.length) await upsert('ports', ports as never, 'locode');
      if (metros.length) await upsert('metro_areas', metros as never, 'locode');
      if (terminals.length) await upsert('terminals', terminals as never, 'firms_code');
      if (railTerminals.length)
        await upsert('rail_terminals', railTerminals as never, 'firms_code');
      if (lines.length) await upsert('shipping_lines', lines as never, 'scac');
      if (vessels.length) await upsert('vessels', vessels as never, 'imo');
    }),
  );
}
