import { describe, expect, it } from 'vitest';
import type { DcsaEvent } from '../../../../src/shared/feeds/dcsa';
import {
  rawEventsForContainer,
  toRawEvents,
} from '../../../../src/service/feeds/normalize/raw-events';
import { deriveRoute } from '../../../../src/service/feeds/normalize/route';
import {
  mergeTransportEvents,
  normalizeEvents,
  type TransportEventDraft,
} from '../../../../src/service/feeds/normalize/transport-events';
import {
  deriveContainerMilestones,
  deriveShipmentFacts,
} from '../../../../src/service/feeds/normalize/shipment-facts';
import {
  CONTAINER,
  equipmentEvent,
  feederJourneyEvents,
  journeyEvents,
  transportEvent,
} from '../dcsa/fixtures';

const iso = (s: string) => new Date(s).toISOString();

describe('DCSA events to raw events', () => {
  it('keeps the carrier identity, classifier, UTC time, location, facility, vessel, voyage, mode and load', () => {
    const { events, issues } = toRawEvents(journeyEvents());
    expect(issues).toEqual([]);
    expect(events).toHaveLength(30);
    // Chronological, whatever order the carrier listed them in.
    expect(events.map((e) => e.timestamp)).toEqual([...events.map((e) => e.timestamp)].sort());

    const load = events.find(
      (e) => e.original_event === 'EQUIPMENT/LOAD' && e.location_locode === 'CNSHA',
    );
    expect(load).toEqual({
      data_source: 'shipping_line',
      source_event_id: expect.stringMatching(/^00000000-/),
      original_event: 'EQUIPMENT/LOAD',
      event_type: 'EQUIPMENT',
      event_code: 'LOAD',
      classifier: 'ACT',
      estimated: false,
      timestamp: '2026-01-05T10:00:00.000Z',
      reported_at: '2026-01-05T10:00:00.000Z',
      location_locode: 'CNSHA',
      location_name: null,
      facility_code: 'SIPGW',
      facility_code_list_provider: 'SMDG',
      facility_smdg_code: 'SIPGW',
      facility_type_code: null,
      vessel_imo: '9321483',
      vessel_name: 'MSC AURORA',
      voyage_number: '601W',
      mode_of_transport: 'VESSEL',
      empty_indicator: 'LADEN',
      equipment_reference: CONTAINER,
      unlisted: {},
      sequence: 7,
    });

    // An estimate sent with a local offset is stored in UTC and flagged as estimated.
    const etd = events.find(
      (e) =>
        e.original_event === 'TRANSPORT/DEPA' &&
        e.classifier === 'EST' &&
        e.location_locode === 'CNSHA',
    );
    expect(etd).toMatchObject({
      estimated: true,
      timestamp: '2026-01-05T10:00:00.000Z',
      voyage_number: '601W',
      empty_indicator: null,
    });

    // Arrivals carry the import voyage, departures the export voyage.
    const laxArrival = events.find(
      (e) =>
        e.original_event === 'TRANSPORT/ARRI' &&
        e.classifier === 'ACT' &&
        e.location_locode === 'USLAX' &&
        e.facility_type_code === null,
    );
    expect(laxArrival).toMatchObject({
      voyage_number: '115E',
      vessel_imo: '9811000',
      vessel_name: 'MSC BOREAS',
    });

    const shipment = events.filter((e) => e.event_type === 'SHIPMENT').map((e) => e.original_event);
    expect(shipment).toEqual(['SHIPMENT/CONF', 'SHIPMENT/ISSU']);
  });

  it('drops impossible times and future actuals, clears malformed codes, reports unknown locodes', () => {
    const good = equipmentEvent('GTOT', 'ACT', '2026-01-02T08:00:00Z', 'EMPTY', {
      locode: 'CNSHA',
      mode: 'TRUCK',
    });
    const ancient = equipmentEvent('GTIN', 'ACT', '1970-01-01T00:00:00Z', 'LADEN', {
      locode: 'CNSHA',
      mode: 'TRUCK',
    });
    const future = transportEvent('DEPA', 'ACT', '2026-06-01T00:00:00Z', {
      locode: 'CNSHA',
      mode: 'VESSEL',
    });
    const futureEstimate = transportEvent('ARRI', 'EST', '2026-06-01T00:00:00Z', {
      locode: 'USLAX',
      mode: 'VESSEL',
    });
    const badLocode = transportEvent('ARRI', 'ACT', '2026-01-03T00:00:00Z', {
      locode: 'LA-X1',
      mode: 'VESSEL',
    });
    const unknownLocode = transportEvent('ARRI', 'ACT', '2026-01-03T00:00:00Z', {
      locode: 'ZZZZZ',
      mode: 'VESSEL',
    });
    const badImo = transportEvent('DEPA', 'ACT', '2026-01-04T00:00:00Z', {
      locode: 'CNSHA',
      mode: 'VESSEL',
      vessel: { vesselIMONumber: '9321484', vesselName: 'X', vesselFlag: 'PA' },
    });
    const known = new Set(['CNSHA', 'USLAX']);
    const { events, issues } = toRawEvents(
      [good, ancient, future, futureEstimate, badLocode, unknownLocode, badImo],
      {
        now: Date.parse('2026-01-10T00:00:00Z'),
        isKnownLocode: (c) => known.has(c),
      },
    );
    expect(events.map((e) => e.original_event)).toEqual([
      'EQUIPMENT/GTOT',
      'TRANSPORT/ARRI',
      'TRANSPORT/ARRI',
      'TRANSPORT/DEPA',
      'TRANSPORT/ARRI',
    ]);
    expect(issues.map((i) => [i.kind, i.original_event, i.dropped])).toEqual([
      ['impossible_timestamp', 'EQUIPMENT/GTIN', true],
      ['actual_in_future', 'TRANSPORT/DEPA', true],
      ['invalid_locode', 'TRANSPORT/ARRI', false],
      ['unknown_locode', 'TRANSPORT/ARRI', false],
      ['invalid_vessel_imo', 'TRANSPORT/DEPA', false],
    ]);
    expect(events.find((e) => e.source_event_id === badLocode.eventID)?.location_locode).toBeNull();
    expect(events.find((e) => e.source_event_id === unknownLocode.eventID)?.location_locode).toBe(
      'ZZZZZ',
    );
    expect(events.find((e) => e.source_event_id === badImo.eventID)?.vessel_imo).toBeNull();
  });
});

describe('route and transport events', () => {
  const container = () => rawEventsForContainer(toRawEvents(journeyEvents()).events, CONTAINER);

  it('derives POL, transshipments, POD and destination from the events', () => {
    expect(deriveRoute(container())).toEqual({
      pol: 'CNSHA',
      pod: 'USLAX',
      transshipments: ['SGSIN'],
      destination: 'USCHI',
      ports: ['CNSHA', 'SGSIN', 'USLAX'],
    });
  });

  it('maps every actual milestone to exactly one transport event', () => {
    const { transport } = normalizeEvents(container());
    expect(
      transport.map((e) => [
        e.event.replace('container.transport.', ''),
        e.location_locode,
        e.timestamp,
      ]),
    ).toEqual([
      ['empty_out', 'CNSHA', iso('2026-01-02T08:00:00Z')],
      ['full_in', 'CNSHA', iso('2026-01-04T07:30:00Z')],
      ['vessel_loaded', 'CNSHA', iso('2026-01-05T10:00:00Z')],
      ['vessel_departed', 'CNSHA', iso('2026-01-05T20:00:00Z')],
      ['transshipment_arrived', 'SGSIN', iso('2026-01-11T06:00:00Z')],
      ['transshipment_discharged', 'SGSIN', iso('2026-01-11T12:00:00Z')],
      ['transshipment_loaded', 'SGSIN', iso('2026-01-13T09:00:00Z')],
      ['transshipment_departed', 'SGSIN', iso('2026-01-13T15:00:00Z')],
      ['vessel_arrived', 'USLAX', iso('2026-02-02T09:30:00Z')],
      ['vessel_berthed', 'USLAX', iso('2026-02-02T11:00:00Z')],
      ['vessel_discharged', 'USLAX', iso('2026-02-03T04:00:00Z')],
      ['rail_loaded', 'USLAX', iso('2026-02-05T10:00:00Z')],
      ['rail_departed', 'USLAX', iso('2026-02-05T20:00:00Z')],
      ['rail_arrived', 'USCHI', iso('2026-02-09T08:00:00Z')],
      ['arrived_at_inland_destination', 'USCHI', iso('2026-02-09T08:00:00Z')],
      ['rail_unloaded', 'USCHI', iso('2026-02-09T14:00:00Z')],
      ['full_out', 'USCHI', iso('2026-02-11T09:00:00Z')],
      ['empty_in', 'USCHI', iso('2026-02-14T16:00:00Z')],
    ]);
    const departed = transport.find((e) => e.event === 'container.transport.vessel_departed');
    expect(departed).toEqual({
      event: 'container.transport.vessel_departed',
      timestamp: '2026-01-05T20:00:00.000Z',
      location_locode: 'CNSHA',
      location_name: null,
      facility_smdg_code: 'SIPGW',
      vessel_imo: '9321483',
      vessel_name: 'MSC AURORA',
      voyage_number: '601W',
      mode_of_transport: 'VESSEL',
      equipment_reference: null,
      data_source: 'shipping_line',
      original_events: ['TRANSPORT/DEPA'],
      reported_by: ['shipping_line'],
    });
    expect(
      transport.find((e) => e.event === 'container.transport.vessel_discharged')
        ?.equipment_reference,
    ).toBe(CONTAINER);
  });

  it('names raw estimates and leaves raw-only events unnamed', () => {
    const { raw } = normalizeEvents(container());
    const named = (original: string, classifier: string, locode: string) =>
      raw
        .filter(
          (e) =>
            e.original_event === original &&
            e.classifier === classifier &&
            e.location_locode === locode,
        )
        .map((e) => e.event);
    expect(named('TRANSPORT/DEPA', 'EST', 'CNSHA')).toEqual([
      'container.transport.estimated.vessel_departed',
    ]);
    expect(named('TRANSPORT/DEPA', 'PLN', 'CNSHA')).toEqual([
      'container.transport.estimated.vessel_departed',
    ]);
    expect(named('TRANSPORT/ARRI', 'EST', 'SGSIN')).toEqual([
      'container.transport.estimated.vessel_arrived',
    ]);
    expect(named('TRANSPORT/ARRI', 'EST', 'USLAX')).toEqual([
      'container.transport.estimated.vessel_arrived',
    ]);
    expect(named('TRANSPORT/ARRI', 'EST', 'USCHI')).toEqual([
      'container.transport.estimated.arrived_at_inland_destination',
    ]);
    for (const rawOnly of ['EQUIPMENT/STUF', 'EQUIPMENT/STRP', 'EQUIPMENT/INSP']) {
      expect(raw.find((e) => e.original_event === rawOnly)?.event).toBeNull();
    }
    // Estimates never become transport events.
    expect(normalizeEvents(container()).transport.some((e) => e.event.includes('estimated'))).toBe(
      false,
    );
  });

  it('names barge legs through a transshipment port as feeder events', () => {
    const { route, transport } = normalizeEvents(toRawEvents(feederJourneyEvents()).events);
    expect(route).toMatchObject({
      pol: 'CNZUH',
      pod: 'USLAX',
      transshipments: ['HKHKG'],
      destination: null,
    });
    expect(
      transport.map((e) => `${e.event.replace('container.transport.', '')}@${e.location_locode}`),
    ).toEqual([
      'vessel_loaded@CNZUH',
      'vessel_departed@CNZUH',
      'feeder_arrived@HKHKG',
      'feeder_discharged@HKHKG',
      'transshipment_loaded@HKHKG',
      'transshipment_departed@HKHKG',
    ]);
  });

  it('merges the same milestone from two sources into one event', () => {
    const { transport } = normalizeEvents(container());
    const discharged = transport.find(
      (e) => e.event === 'container.transport.vessel_discharged',
    ) as TransportEventDraft;
    const fromTerminal: TransportEventDraft = {
      ...discharged,
      timestamp: '2026-02-03T04:05:00.000Z',
      vessel_imo: null,
      vessel_name: null,
      voyage_number: null,
      data_source: 'terminal',
      original_events: ['terminal.discharged_at'],
      reported_by: ['terminal'],
    };
    const merged = mergeTransportEvents(transport, [fromTerminal]);
    expect(merged).toHaveLength(transport.length);
    expect(merged.find((e) => e.event === 'container.transport.vessel_discharged')).toMatchObject({
      timestamp: '2026-02-03T04:00:00.000Z',
      vessel_imo: '9811000',
      data_source: 'shipping_line',
      original_events: ['EQUIPMENT/DISC', 'terminal.discharged_at'],
      reported_by: ['shipping_line', 'terminal'],
    });
  });
});

describe('shipment facts and container milestones', () => {
  it('derives dates, POD vessel and the port calls of the route map', () => {
    const raw = toRawEvents(journeyEvents()).events;
    const facts = deriveShipmentFacts(raw);
    expect(facts).toMatchObject({
      port_of_lading_locode: 'CNSHA',
      port_of_discharge_locode: 'USLAX',
      destination_locode: 'USCHI',
      pol_etd_at: iso('2026-01-05T10:00:00Z'), // EST beats the earlier PLN
      pol_atd_at: iso('2026-01-05T20:00:00Z'), // the first report of the departure
      pod_eta_at: iso('2026-02-02T10:00:00Z'),
      pod_original_eta_at: iso('2026-02-01T08:00:00Z'),
      pod_ata_at: iso('2026-02-02T09:30:00Z'),
      destination_eta_at: iso('2026-02-09T12:00:00Z'),
      destination_ata_at: iso('2026-02-09T08:00:00Z'),
      pod_vessel_name: 'MSC BOREAS',
      pod_vessel_imo: '9811000',
      pod_voyage_number: '115E',
    });
    expect(facts.port_calls).toEqual([
      {
        sequence: 1,
        label: 'POL',
        locode: 'CNSHA',
        inbound_eta_at: null,
        inbound_ata_at: null,
        outbound_etd_at: iso('2026-01-05T10:00:00Z'),
        outbound_atd_at: iso('2026-01-05T20:00:00Z'),
        inbound_vessel: null,
        outbound_vessel: { imo: '9321483', name: 'MSC AURORA', voyage_number: '601W' },
        updated_at: iso('2026-01-06T00:00:00Z'),
      },
      {
        sequence: 2,
        label: 'TS1',
        locode: 'SGSIN',
        inbound_eta_at: iso('2026-01-11T04:00:00Z'),
        inbound_ata_at: iso('2026-01-11T06:00:00Z'),
        outbound_etd_at: iso('2026-01-13T14:00:00Z'),
        outbound_atd_at: iso('2026-01-13T15:00:00Z'),
        inbound_vessel: { imo: '9321483', name: 'MSC AURORA', voyage_number: '601W' },
        outbound_vessel: { imo: '9811000', name: 'MSC BOREAS', voyage_number: '115E' },
        updated_at: iso('2026-01-13T15:00:00Z'),
      },
      {
        sequence: 3,
        label: 'POD',
        locode: 'USLAX',
        inbound_eta_at: iso('2026-02-02T10:00:00Z'),
        inbound_ata_at: iso('2026-02-02T09:30:00Z'),
        outbound_etd_at: null,
        outbound_atd_at: null,
        inbound_vessel: { imo: '9811000', name: 'MSC BOREAS', voyage_number: '115E' },
        outbound_vessel: null,
        updated_at: iso('2026-02-05T20:00:00Z'),
      },
    ]);
  });

  it('derives per-container milestones', () => {
    const raw = rawEventsForContainer(toRawEvents(journeyEvents()).events, CONTAINER);
    expect(deriveContainerMilestones(raw)).toEqual({
      // At origin: the empty picked up, gated in full, loaded and sailed.
      empty_out_at: iso('2026-01-02T08:00:00Z'),
      pol_full_in_at: iso('2026-01-04T07:30:00Z'),
      pol_vessel_loaded_at: iso('2026-01-05T10:00:00Z'),
      pol_vessel_departed_at: iso('2026-01-05T20:00:00Z'),
      pod_arrived_at: iso('2026-02-02T09:30:00Z'),
      pod_discharged_at: iso('2026-02-03T04:00:00Z'),
      pod_full_out_at: null, // moved inland by rail
      pod_rail_loaded_at: iso('2026-02-05T10:00:00Z'),
      pod_rail_departed_at: iso('2026-02-05T20:00:00Z'),
      ind_eta_at: iso('2026-02-09T12:00:00Z'),
      ind_ata_at: iso('2026-02-09T08:00:00Z'),
      ind_rail_unloaded_at: iso('2026-02-09T14:00:00Z'),
      final_destination_full_out_at: iso('2026-02-11T09:00:00Z'),
      empty_terminated_at: iso('2026-02-14T16:00:00Z'),
    });
  });

  it('knows nothing yet from planned events only except the plan itself', () => {
    const planned: DcsaEvent[] = journeyEvents().filter((e) => e.eventClassifierCode !== 'ACT');
    const facts = deriveShipmentFacts(toRawEvents(planned).events);
    expect(facts.pol_atd_at).toBeNull();
    expect(facts.pod_ata_at).toBeNull();
    expect(facts.pod_eta_at).toBe(iso('2026-02-02T10:00:00Z'));
    // The first departure estimate reported, kept however the plan moves.
    expect(facts.pol_original_etd_at).toBe(iso('2026-01-05T12:00:00Z'));
    expect(normalizeEvents(toRawEvents(planned).events).transport).toEqual([]);
  });
});
