import { describe, expect, it } from 'vitest';
import { eventHistory, eventLabel } from '../../src/shared/container';
import { formatDateTime } from '../../src/shared/date-style';

const NY = 'America/New_York';
const CHI = 'America/Chicago';
const places = {
  port: { name: 'Wando Welch Terminal', zone: NY },
  ramp: { name: 'Chicago ramp', zone: CHI },
};

/** An event as the API sends it: its name (after `container.`), instant, zone and place. */
const ev = (name: string, timestamp: string | null, timezone: string | null, locode?: string) => ({
  event: `container.${name}`,
  timestamp,
  timezone,
  location_locode: locode ?? null,
});

describe('the event history as a dispatcher reads it', () => {
  it('lists events in the order they happened, by the instant, not the local wall-clock text', () => {
    // Loaded on rail 15:40 EST (20:40Z), departed 15:21 CST (21:21Z): the earlier wall-clock
    // text is the later instant.
    const history = eventHistory(
      [
        ev('transport.rail_departed', '2026-12-03T21:21:00Z', CHI, 'USCHS'),
        ev('transport.rail_loaded', '2026-12-03T20:40:00Z', NY, 'USCHS'),
        { event: 'container.created', timestamp: null, timezone: null },
        ev('transport.vessel_discharged', '2026-12-01T09:00:00Z', NY, 'USCHS'),
      ],
      places,
    );
    expect(history.map((h) => h.label)).toEqual([
      'Discharged from vessel',
      'Loaded on rail',
      'Rail departed',
      'Tracking started',
    ]);
  });

  it('names every event in words, unknown ones spelled out, estimates marked', () => {
    expect(eventLabel('container.pickup_lfd_line.changed').text).toBe('Line last free day changed');
    expect(eventLabel('container.transport.rail_loaded').text).toBe('Loaded on rail');
    expect(eventLabel('container.transport.estimated.vessel_arrived')).toEqual({
      text: 'Vessel arrived',
      estimated: true,
    });
    expect(eventLabel('container.customs.released').text).toBe('Customs released');
    expect(eventLabel(null).text).toBe('—');
  });

  it('places every event: its location, else the ramp for rail arrivals, else the terminal', () => {
    const history = eventHistory(
      [
        ev('pickup_lfd_line.changed', '2026-12-01T10:00:00Z', null),
        ev('transport.rail_unloaded', '2026-12-05T10:00:00Z', null),
        ev('transport.vessel_arrived', '2026-11-30T10:00:00Z', NY, 'USCHS'),
      ],
      places,
    );
    expect(history.map((h) => [h.label, h.place, h.zone])).toEqual([
      ['Vessel arrived', 'USCHS', NY],
      ['Line last free day changed', 'Wando Welch Terminal', NY],
      ['Unloaded from rail', 'Chicago ramp', CHI],
    ]);
  });

  it('names a place outside the reference data as the source did, with its code', () => {
    const history = eventHistory(
      [
        {
          ...ev('transport.arrived_at_inland_destination', '2026-12-06T10:00:00Z', null, 'USZZD'),
          location_name: 'Zeeland Inland Depot',
        },
        { ...ev('transport.full_out', '2026-12-07T10:00:00Z', null), location_name: 'Yard 7' },
      ],
      places,
    );
    expect(history.map((h) => h.place)).toEqual(['Zeeland Inland Depot (USZZD)', 'Yard 7']);
  });

  it('writes one instant in one zone, whichever events share it', () => {
    const history = eventHistory(
      [
        ev('pickup_lfd_rail.changed', '2026-12-03T20:52:00Z', CHI),
        ev('transport.rail_departed', '2026-12-03T20:52:00Z', NY, 'USCHS'),
      ],
      places,
    );
    const times = history.map((h) => formatDateTime(h.event.timestamp, h.zone));
    expect(new Set(times).size).toBe(1);
    expect(times[0]).toBe('3 Dec 2026 15:52 EST');
  });
});
