import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { VesselResource } from '../../../src/shared/api/resources';
import { ManualClock } from '../../../src/shared/clock';
import { AisVesselStore } from '../../../src/service/feeds/ais/vessel-store';
import { aisPositionHistory } from '../../support/memory-routing';
import {
  DEFAULT_POSITIONS_WINDOW_MS,
  PositionsQueryError,
  parseShowPositions,
  parseVesselKey,
  renderVessel,
  vesselDocument,
} from '../../../src/service/routing/vessel-positions';
import type { VesselsTable } from '../../../src/service/store/schema';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 4, 24, 12);

const row: VesselsTable = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
  imo: '9811000',
  mmsi: '353136000',
  name: 'EVER GIVEN',
  operator_scac: 'EGLV',
  latitude: 1.3,
  longitude: 103.8,
  nautical_speed_knots: 0.2,
  navigational_heading_degrees: 51,
  position_timestamp: new Date(NOW - 3 * DAY).toISOString(),
};

describe('parseVesselKey', () => {
  it('reads a UUID as an id and seven digits as an IMO number', () => {
    expect(parseVesselKey(row.id.toUpperCase())).toEqual({ by: 'id', id: row.id });
    expect(parseVesselKey('9811000')).toEqual({ by: 'imo', imo: '9811000' });
    expect(parseVesselKey('IMO9811000')).toEqual({ by: 'imo', imo: '9811000' });
    expect(parseVesselKey('98110')).toBeNull();
    expect(parseVesselKey('ever-given')).toBeNull();
  });
});

describe('parseShowPositions', () => {
  it('returns null unless history is asked for', () => {
    expect(parseShowPositions({}, NOW)).toBeNull();
    expect(parseShowPositions({ show_positions: 'false' }, NOW)).toBeNull();
  });

  it('defaults to the last 7 days up to now', () => {
    expect(parseShowPositions({ show_positions: 'true' }, NOW)).toEqual({
      fromMs: NOW - DEFAULT_POSITIONS_WINDOW_MS,
      toMs: NOW,
    });
    const to = '2026-05-20T00:00:00Z';
    expect(parseShowPositions({ 'show_positions[to_timestamp]': to }, NOW)).toEqual({
      fromMs: Date.parse(to) - DEFAULT_POSITIONS_WINDOW_MS,
      toMs: Date.parse(to),
    });
  });

  it('accepts flat and nested query keys', () => {
    const from = '2026-05-20T00:00:00Z';
    const to = '2026-05-24T00:00:00Z';
    const expected = { fromMs: Date.parse(from), toMs: Date.parse(to) };
    expect(
      parseShowPositions(
        { 'show_positions[from_timestamp]': from, 'show_positions[to_timestamp]': to },
        NOW,
      ),
    ).toEqual(expected);
    expect(
      parseShowPositions({ show_positions: { from_timestamp: from, to_timestamp: to } }, NOW),
    ).toEqual(expected);
  });

  it('names the bad parameter', () => {
    const bad = (query: Record<string, unknown>) => {
      try {
        parseShowPositions(query, NOW);
      } catch (e) {
        expect(e).toBeInstanceOf(PositionsQueryError);
        return (e as PositionsQueryError).parameter;
      }
      return 'accepted';
    };
    expect(bad({ 'show_positions[from_timestamp]': 'yesterday' })).toBe(
      'show_positions[from_timestamp]',
    );
    expect(bad({ 'show_positions[to_timestamp]': '2026-13-40T00:00:00Z' })).toBe(
      'show_positions[to_timestamp]',
    );
    expect(
      bad({
        'show_positions[from_timestamp]': '2026-05-24T00:00:00Z',
        'show_positions[to_timestamp]': '2026-05-20T00:00:00Z',
      }),
    ).toBe('show_positions[from_timestamp]');
    expect(bad({ 'show_positions[from_timestamp]': '2025-01-01T00:00:00Z' })).toBe(
      'show_positions[from_timestamp]',
    );
    expect(bad({ show_positions: 'maybe' })).toBe('show_positions');
  });
});

describe('vessel rendering', () => {
  it('keeps the stored position when no newer one was recorded', () => {
    const v = renderVessel(row, null);
    expect(Value.Check(VesselResource, v)).toBe(true);
    expect(v.attributes).toMatchObject({
      latitude: 1.3,
      longitude: 103.8,
      position_timestamp: row.position_timestamp,
    });
    expect(v.attributes.positions).toBeUndefined();
  });

  it('shows the AIS feed position and history from the vessel store', async () => {
    const clock = new ManualClock(NOW - 10 * DAY);
    const store = new AisVesselStore(clock, { historyLimit: 5000 });
    store.apply({
      kind: 'static',
      messageType: 5,
      mmsi: '353136000',
      imo: '9811000',
      name: 'EVER GIVEN',
      callSign: 'H3RC',
      shipType: 70,
      destination: 'NLRTM',
    });
    // One report every 6 hours for 10 days, heading north-east along the Strait.
    for (let i = 0; clock.now() <= NOW; i++) {
      store.apply({
        kind: 'position',
        messageType: 1,
        mmsi: '353136000',
        lat: 1 + i * 0.05,
        lon: 103 + i * 0.05,
        speedKnots: 14,
        courseDeg: 45,
        headingDeg: i % 2 === 0 ? 44 : null,
        navStatus: 0,
      });
      clock.advance(6 * HOUR);
    }
    const history = aisPositionHistory(store);
    // Without MMSI the vessel is found through the IMO number of its static report.
    const byImo = await history.latest({ imo: '9811000', mmsi: null });
    expect(byImo?.at).toBe(NOW);

    const window = parseShowPositions({ show_positions: 'true' }, NOW)!;
    const { data } = await vesselDocument(row, history, window);
    expect(Value.Check(VesselResource, data)).toBe(true);
    expect(data.attributes.position_timestamp).toBe(new Date(NOW).toISOString());
    expect(data.attributes.latitude).toBeCloseTo(1 + 40 * 0.05, 9);
    expect(data.attributes.nautical_speed_knots).toBe(14);
    const positions = data.attributes.positions!;
    // 7 days at one report per 6 hours, both ends included.
    expect(positions).toHaveLength(29);
    expect(positions[0]!.timestamp).toBe(new Date(NOW - 7 * DAY).toISOString());
    expect(positions.at(-1)!.timestamp).toBe(new Date(NOW).toISOString());
    expect(positions.every((p) => p.estimated === false)).toBe(true);
    // Heading falls back to the course over ground when the transponder sends none.
    expect(positions.map((p) => p.heading)).toContain(45);
    expect(positions.map((p) => p.heading)).toContain(44);

    const plain = await vesselDocument(row, history, null);
    expect(plain.data.attributes.positions).toBeUndefined();
  });
});
