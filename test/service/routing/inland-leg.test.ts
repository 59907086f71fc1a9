import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { InlandFeatureCollection } from '../../../src/shared/api/route-features';
import { buildInlandLeg, type InlandLegData } from '../../../src/service/routing/inland-leg';
import { inlandPlace } from '../../../src/service/routing/inland-source';
import { ReferenceData } from '../../../src/service/store/reference';
import type {
  ContainersTable,
  MetroAreasTable,
  PortsTable,
  RailTerminalsTable,
  ShipmentsTable,
} from '../../../src/service/store/schema';
import { CHICAGO_RAMP, DAY, PORTS, T0, VESSELS, iso, portCalls } from './fixtures';

const calls = portCalls(
  [PORTS.shanghai, PORTS.losAngeles],
  [{ vessel: VESSELS[0]!, voyage: 'V1', etd: T0, eta: T0 + 14 * DAY, atd: T0, ata: T0 + 14 * DAY }],
);
const pod = PORTS.losAngeles;
const KANSAS_CITY: [number, number] = [-94.58, 39.1];

const leg = (extra: Partial<InlandLegData> = {}): InlandLegData => ({
  ramp: CHICAGO_RAMP,
  rail_loaded_at: null,
  rail_departed_at: null,
  eta_at: iso(T0 + 20 * DAY),
  arrived_at: null,
  unloaded_at: null,
  places: [],
  ...extra,
});

describe('buildInlandLeg', () => {
  it('runs the rail leg from the port of discharge to the ramp, the ramp last', () => {
    const map = buildInlandLeg(calls, pod, leg({ rail_departed_at: iso(T0 + 15 * DAY) }))!;
    expect(Value.Check(InlandFeatureCollection, map)).toBe(true);
    const [rail, ramp] = map.features;
    expect(rail!.geometry.coordinates).toEqual([
      [pod.longitude, pod.latitude],
      [CHICAGO_RAMP.longitude, CHICAGO_RAMP.latitude],
    ]);
    expect(rail!.properties).toMatchObject({
      feature_type: 'rail_leg',
      ports_sequence: 2,
      from_name: 'Los Angeles',
      to_name: 'BNSF Logistics Park Chicago',
      status: 'under_way',
      estimated: true,
      point_count: 2,
    });
    expect(ramp!.geometry.coordinates).toEqual([CHICAGO_RAMP.longitude, CHICAGO_RAMP.latitude]);
    expect(ramp!.properties).toMatchObject({
      feature_type: 'ramp',
      label: 'Ramp',
      last_stop: true,
      location_type: 'RailTerminal',
      firms_code: 'H572',
      time_zone: 'America/Chicago',
      inbound_eta_at: iso(T0 + 20 * DAY),
      inbound_ata_at: null,
    });
  });

  it('passes through the places the rail events name, in the order they happened', () => {
    const map = buildInlandLeg(
      calls,
      pod,
      leg({
        rail_departed_at: iso(T0 + 15 * DAY),
        places: [
          // Listed out of order; the arrival's place is the ramp's and the loading's the port's.
          { at: T0 + 19 * DAY, position: [CHICAGO_RAMP.longitude!, CHICAGO_RAMP.latitude!] },
          { at: T0 + 17 * DAY, position: KANSAS_CITY },
          { at: T0 + 15 * DAY, position: [pod.longitude!, pod.latitude!] },
          { at: T0 + 18 * DAY, position: null },
        ],
      }),
    )!;
    expect(map.features[0]!.geometry.coordinates).toEqual([
      [pod.longitude, pod.latitude],
      KANSAS_CITY,
      [CHICAGO_RAMP.longitude, CHICAGO_RAMP.latitude],
    ]);
  });

  it('tells planned, under way and arrived apart', () => {
    const status = (extra: Partial<InlandLegData>) =>
      buildInlandLeg(calls, pod, leg(extra))!.features[0]!.properties;
    expect(status({})).toMatchObject({ status: 'planned', arrived_at: null });
    expect(status({ rail_loaded_at: iso(T0 + 15 * DAY) })).toMatchObject({ status: 'under_way' });
    // An unloading without an arrival report still means the box is at the ramp.
    expect(status({ unloaded_at: iso(T0 + 19 * DAY) })).toMatchObject({
      status: 'arrived',
      arrived_at: iso(T0 + 19 * DAY),
    });
  });

  it('keeps the ramp as the last stop without a line when the port has no position', () => {
    const map = buildInlandLeg(calls, { ...pod, longitude: null, latitude: null }, leg())!;
    expect(map.features.map((f) => f.properties.feature_type)).toEqual(['ramp']);
    expect(buildInlandLeg(calls, pod, null)).toBeNull();
    expect(buildInlandLeg(calls, pod, leg({ ramp: { ...CHICAGO_RAMP, latitude: null } }))).toBe(
      null,
    );
  });
});

describe('inlandPlace', () => {
  const ref = new ReferenceData();
  const metro = (id: string, locode: string, name: string, lon: number, lat: number) =>
    ({
      id,
      locode,
      name,
      state_abbr: null,
      country_code: 'US',
      time_zone: 'America/Chicago',
      latitude: lat,
      longitude: lon,
    }) satisfies MetroAreasTable;
  ref.metrosById.set('m-chi', metro('m-chi', 'USCHI', 'Chicago', -87.63, 41.88));
  ref.metrosById.set('m-lax', metro('m-lax', 'USLAX', 'Los Angeles', -118.24, 34.05));
  ref.portsById.set('p-lax', { id: 'p-lax', locode: 'USLAX' } as PortsTable);
  ref.railTerminalsById.set('r-lpc', {
    id: 'r-lpc',
    firms_code: 'H572',
    name: 'BNSF Logistics Park Chicago',
    nickname: 'LPC',
    metro_area_id: 'm-chi',
    port_id: null,
    rail_carrier_scac: 'BNSF',
  } satisfies RailTerminalsTable);

  const noRail = {
    current_status: 'available',
    pod_rail_loaded_at: null,
    pod_rail_departed_at: null,
    ind_eta_at: null,
    ind_ata_at: null,
    ind_rail_unloaded_at: null,
  } satisfies Partial<ContainersTable>;
  const shipment = {
    port_of_discharge_id: 'p-lax',
    destination_id: null,
    destination_type: null,
    destination_terminal_id: null,
    destination_terminal_type: null,
    destination_eta_at: null,
  } satisfies Partial<ShipmentsTable>;

  it('names the ramp when the shipment does, placed at its metro area', () => {
    const place = inlandPlace(ref, noRail, {
      ...shipment,
      destination_terminal_id: 'r-lpc',
      destination_terminal_type: 'rail_terminal',
    });
    expect(place).toMatchObject({
      kind: 'rail_terminal',
      name: 'BNSF Logistics Park Chicago',
      city: 'Chicago',
      longitude: -87.63,
      position_estimated: true,
    });
  });

  it('falls back to the inland destination, and only past the port of discharge', () => {
    const toChicago = { ...shipment, destination_id: 'm-chi', destination_type: 'metro_area' };
    expect(inlandPlace(ref, noRail, toChicago)).toMatchObject({
      kind: 'metro_area',
      name: 'Chicago',
    });
    const toPortCity = { ...shipment, destination_id: 'm-lax', destination_type: 'metro_area' };
    expect(inlandPlace(ref, noRail, toPortCity)).toBeNull();
    expect(inlandPlace(ref, { ...noRail, current_status: 'on_rail' }, toPortCity)).toMatchObject({
      name: 'Los Angeles',
    });
    expect(inlandPlace(ref, { ...noRail, current_status: 'on_rail' }, shipment)).toBeNull();
  });
});
