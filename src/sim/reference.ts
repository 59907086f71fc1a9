/** The curated reference data the simulated world plays over. */
import type {
  MetroAreaRecord,
  PortRecord,
  RailTerminalRecord,
  ShippingLineRecord,
  TerminalRecord,
  VesselRecord,
} from '../shared/reference-data';
import portsJson from '../../resources/reference/ports.json';
import metrosJson from '../../resources/reference/metro_areas.json';
import terminalsJson from '../../resources/reference/terminals.json';
import railJson from '../../resources/reference/rail_terminals.json';
import linesJson from '../../resources/reference/shipping_lines.json';
import vesselsJson from '../../resources/reference/vessels.json';

export const PORTS = portsJson as PortRecord[];
export const METROS = metrosJson as MetroAreaRecord[];
export const TERMINALS = terminalsJson as TerminalRecord[];
export const RAIL_TERMINALS = railJson as RailTerminalRecord[];
export const LINES = linesJson as ShippingLineRecord[];
export const VESSELS = vesselsJson as VesselRecord[];

const portIndex = new Map(PORTS.map((p) => [p.locode, p]));
const metroIndex = new Map(METROS.map((m) => [m.locode, m]));

export function port(locode: string): PortRecord {
  const p = portIndex.get(locode);
  if (!p) throw new Error(`unknown port ${locode}`);
  return p;
}

export function metro(locode: string): MetroAreaRecord {
  const m = metroIndex.get(locode);
  if (!m) throw new Error(`unknown metro area ${locode}`);
  return m;
}

export function line(scac: string): ShippingLineRecord {
  const l = LINES.find((x) => x.scac === scac);
  if (!l) throw new Error(`unknown line ${scac}`);
  return l;
}

/** The terminals of each port, grouped once: the world's builder asks for them in its loops. */
const TERMINALS_BY_PORT = new Map<string, TerminalRecord[]>();
for (const t of TERMINALS) {
  const atPort = TERMINALS_BY_PORT.get(t.port_locode);
  if (atPort) atPort.push(t);
  else TERMINALS_BY_PORT.set(t.port_locode, [t]);
}

export const terminalsAt = (locode: string): readonly TerminalRecord[] =>
  TERMINALS_BY_PORT.get(locode) ?? [];

export const rampsIn = (metroLocode: string): RailTerminalRecord[] =>
  RAIL_TERMINALS.filter((r) => r.metro_locode === metroLocode);
