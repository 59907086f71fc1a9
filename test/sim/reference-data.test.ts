import { readFileSync } from 'node:fs';
import path from 'node:path';
import tzLookup from '@photostructure/tz-lookup';
import { describe, expect, it } from 'vitest';
import {
  REFERENCE_FILES,
  type MetroAreaRecord,
  type PortRecord,
  type RailTerminalRecord,
  type ShippingLineRecord,
  type TerminalRecord,
  type VesselRecord,
} from '../../src/shared/reference-data';

const dir = path.resolve(__dirname, '..', '..', 'resources', 'reference');
const load = <T>(file: string): T[] =>
  JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T[];

const ports = load<PortRecord>(REFERENCE_FILES.ports);
const metros = load<MetroAreaRecord>(REFERENCE_FILES.metroAreas);
const terminals = load<TerminalRecord>(REFERENCE_FILES.terminals);
const ramps = load<RailTerminalRecord>(REFERENCE_FILES.railTerminals);
const lines = load<ShippingLineRecord>(REFERENCE_FILES.shippingLines);
const vessels = load<VesselRecord>(REFERENCE_FILES.vessels);

/** Documented places where tz-lookup's coarse border grid picks the neighbouring country. */
const ZONE_OVERRIDES: Record<string, string> = {
  MAPTM: 'Africa/Casablanca',
  JOAQJ: 'Asia/Amman',
};

const duplicates = (values: string[]): string[] => values.filter((v, i) => values.indexOf(v) !== i);

const isIanaZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.includes('/') && !zone.startsWith('Etc/');
  } catch {
    return false;
  }
};

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

describe('reference data', () => {
  it('has about 200 ports, 15 metros, and the main lines', () => {
    expect(ports.length).toBeGreaterThanOrEqual(180);
    expect(metros.length).toBeGreaterThanOrEqual(15);
    for (const scac of [
      'MSCU',
      'MAEU',
      'CMDU',
      'COSU',
      'HLCU',
      'ONEY',
      'EGLV',
      'HDMU',
      'YMLU',
      'ZIMU',
      'OOLU',
      'PABV',
      'WHLC',
      'MATS',
    ]) {
      expect(lines.map((l) => l.scac)).toContain(scac);
    }
    expect(vessels.length).toBeGreaterThanOrEqual(55);
  });

  it('has unique keys in every file', () => {
    expect(duplicates(ports.map((p) => p.locode))).toEqual([]);
    expect(duplicates(metros.map((m) => m.locode))).toEqual([]);
    expect(duplicates([...ports, ...metros].map((p) => p.locode))).toEqual([]);
    expect(duplicates(terminals.map((t) => t.firms_code))).toEqual([]);
    expect(duplicates(ramps.map((r) => r.firms_code))).toEqual([]);
    expect(duplicates([...terminals, ...ramps].map((t) => t.firms_code))).toEqual([]);
    expect(duplicates(lines.map((l) => l.scac))).toEqual([]);
    expect(duplicates(lines.flatMap((l) => l.container_prefixes))).toEqual([]);
    expect(duplicates(vessels.map((v) => v.imo))).toEqual([]);
    expect(duplicates(vessels.map((v) => v.mmsi))).toEqual([]);
    expect(duplicates(vessels.map((v) => v.name))).toEqual([]);
  });

  it('uses well-formed UN/LOCODEs whose country matches', () => {
    for (const p of [...ports, ...metros]) {
      expect(p.locode, p.locode).toMatch(LOCODE);
      expect(p.locode.slice(0, 2)).toBe(p.country_code);
    }
  });

  it('has coordinates in range', () => {
    for (const p of [...ports, ...metros]) {
      expect(Math.abs(p.latitude), p.locode).toBeLessThanOrEqual(90);
      expect(Math.abs(p.longitude), p.locode).toBeLessThanOrEqual(180);
      expect(p.latitude === 0 && p.longitude === 0, p.locode).toBe(false);
    }
  });

  it('has valid IANA zones that agree with the coordinates', () => {
    const disagreements: string[] = [];
    for (const p of [...ports, ...metros]) {
      expect(isIanaZone(p.time_zone), `${p.locode} ${p.time_zone}`).toBe(true);
      const expected = ZONE_OVERRIDES[p.locode] ?? tzLookup(p.latitude, p.longitude);
      if (expected !== p.time_zone)
        disagreements.push(`${p.locode}: ${p.time_zone} vs ${expected}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('gives vessels valid IMO check digits and MMSIs with a maritime identification digit', () => {
    for (const v of vessels) {
      expect(v.imo, v.name).toMatch(/^[1-9][0-9]{6}$/);
      const digits = [...v.imo].map(Number);
      const sum = digits.slice(0, 6).reduce((acc, d, i) => acc + d * (7 - i), 0);
      expect(sum % 10, `${v.name} ${v.imo}`).toBe(digits[6]);
      // Ship station MMSIs start with a MID 201..775.
      expect(v.mmsi, v.name).toMatch(/^[2-7][0-9]{8}$/);
      const mid = Number(v.mmsi.slice(0, 3));
      expect(mid, v.name).toBeGreaterThanOrEqual(201);
      expect(mid, v.name).toBeLessThanOrEqual(775);
      expect(v.service_speed_knots).toBeGreaterThanOrEqual(12);
      expect(v.service_speed_knots).toBeLessThanOrEqual(25);
    }
  });

  it('rejects a vessel with a wrong IMO check digit (the rule is not vacuous)', () => {
    const imo = '9811001';
    const digits = [...imo].map(Number);
    const sum = digits.slice(0, 6).reduce((acc, d, i) => acc + d * (7 - i), 0);
    expect(sum % 10).not.toBe(digits[6]);
  });

  it('links every terminal, ramp and vessel to something that exists', () => {
    const portCodes = new Set(ports.map((p) => p.locode));
    const metroCodes = new Set(metros.map((m) => m.locode));
    const scacs = new Set(lines.map((l) => l.scac));
    for (const t of terminals) expect(portCodes.has(t.port_locode), t.firms_code).toBe(true);
    for (const r of ramps) {
      expect(metroCodes.has(r.metro_locode), r.firms_code).toBe(true);
      if (r.port_locode !== null) expect(portCodes.has(r.port_locode), r.firms_code).toBe(true);
      expect(['UPRR', 'BNSF', 'CSXT', 'NS', 'CN', 'CPKC']).toContain(r.rail_carrier_scac);
    }
    for (const v of vessels) expect(scacs.has(v.operator_scac), v.name).toBe(true);
  });

  it('covers the main US and European container ports with terminals', () => {
    const withTerminals = new Set(terminals.map((t) => t.port_locode));
    for (const locode of [
      'USLAX',
      'USLGB',
      'USOAK',
      'USSEA',
      'USTIW',
      'USNYC',
      'USSAV',
      'USCHS',
      'USORF',
      'USHOU',
      'USBAL',
      'NLRTM',
      'BEANR',
      'DEHAM',
      'DEBRV',
      'GBFXT',
      'FRLEH',
      'ESVLC',
      'ESALG',
    ]) {
      expect(withTerminals.has(locode), locode).toBe(true);
    }
    for (const t of terminals) {
      if (t.port_locode.startsWith('US'))
        expect(t.firms_code, t.name).toMatch(/^[A-Z][A-Z0-9]{3}$/);
      else expect(t.smdg_code, t.name).toMatch(/^[A-Z0-9]{2,6}$/);
    }
    for (const r of ramps) expect(r.firms_code, r.name).toMatch(/^[A-Z][A-Z0-9]{3}$/);
  });

  it('gives every line of the simulated fleet ISO 6346 owner prefixes ending in U', () => {
    const operators = new Set(vessels.map((v) => v.operator_scac));
    for (const l of lines) {
      expect(l.scac).toMatch(/^[A-Z]{4}$/);
      // A listed line whose owner codes are not known has none (numbers never guess it).
      if (operators.has(l.scac)) expect(l.container_prefixes.length).toBeGreaterThan(0);
      for (const prefix of l.container_prefixes) expect(prefix).toMatch(/^[A-Z]{3}U$/);
    }
  });
});
