import { describe, expect, it } from 'vitest';
import { eventHistory, eventLabel } from '../../src/shared/container';
import { formatDateTime } from '../../src/shared/date-style';

const NY = 'America/New_York';
const CHI = 'America/Chicago';
const places = {
  port: { name: 'Wando Welch Terminal', zone: NY },
  ramp: { name: 'Chicago ramp', zone: CHI },
};

describe('the event history as a dispatcher reads it', () => {
  it('lists events in the order they happened, by the instant, not the local wall-clock text', () => {
    // Loaded on rail 15:40 EST (20:40Z), departed 15:21 CST (21:21Z): the earlier wall-clock
    // text is the later instant.
    const history = eventHistory(
      [
        {
          event: 'container.transport.rail_departed',
          timestamp: '2026-12-03T21:21:00Z',
          timezone: CHI,
          location_locode: 'USCHS',
        },
        {
          event: 'container.transport.rail_loaded',
          timestamp: '2026-12-03T20:40:00Z',
          timezone: NY,
          location_locode: 'USCHS',
        },
        { event: 'container.created', timestamp: null, timezone: null },
        {
          event: 'container.transport.vessel_discharged',
          timestamp: '2026-12-01T09:00:00Z',
          timezone: NY,
          location_locode: 'USCHS',
        },
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
        {
          event: 'container.pickup_lfd_line.changed',
          timestamp: '2026-12-01T10:00:00Z',
          timezone: null,
        },
        {
          event: 'container.transport.rail_unloaded',
          timestamp: '2026-12-05T10:00:00Z',
          timezone: null,
        },
        {
          event: 'container.transport.vessel_arrived',
          timestamp: '2026-11-30T10:00:00Z',
          timezone: NY,
          location_locode: 'USCHS',
        },
      ],
      places,
    );
    expect(history.map((h) => [h.label, h.place, h.zone])).toEqual([
      ['Vessel arrived', 'USCHS', NY],
      ['Line last free day changed', 'Wando Welch Terminal', NY],
      ['Unloaded from rail', 'Chicago ramp', CHI],
    ]);
  });

  it('writes one instant in one zone, whichever events share it', () => {
    const history = eventHistory(
      [
        {
          event: 'container.pickup_lfd_rail.changed',
          timestamp: '2026-12-03T20:52:00Z',
          timezone: CHI,
        },
        {
          event: 'container.transport.rail_departed',
          timestamp: '2026-12-03T20:52:00Z',
          timezone: NY,
          location_locode: 'USCHS',
        },
      ],
      places,
    );
    const times = history.map((h) => formatDateTime(h.event.timestamp, h.zone));
    expect(new Set(times).size).toBe(1);
    expect(times[0]).toBe('3 Dec 2026 15:52 EST');
  });
});
