/**
 * A carrier's answer in the recorded T&T 2.2 shape with a value outside the DCSA code lists in
 * every coded member: each event stands alone, what can be read is kept as sent, and only the
 * event without a time is skipped (and named).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DcsaClient } from '../../../../src/service/feeds/dcsa/client';
import {
  deriveRoute,
  normalizeEvents,
  rawEventsForContainer,
  toRawEvents,
  type RawEvent,
} from '../../../../src/service/feeds';
import { sendJson, startServer, type TestServer } from '../../../support/http-server';
import { BOOKING, CONTAINER, journeyEvents } from './fixtures';

const call = (locode: string, mode: string, facilityType?: string) => ({
  transportCallID: `TC-${locode}`,
  UNLocationCode: locode,
  modeOfTransport: mode,
  ...(facilityType ? { facilityTypeCode: facilityType } : {}),
});

/** One event per coded member with a value no DCSA list has, plus what cannot be used. */
function unlistedEvents(): unknown[] {
  const base = {
    eventCreatedDateTime: '2026-01-20T08:00:00Z',
    eventDateTime: '2026-01-20T08:00:00Z',
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }],
  };
  return [
    {
      ...base,
      eventID: 'u-equipment',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'WASH',
      equipmentReference: CONTAINER,
      emptyIndicatorCode: 'PARTIAL',
      transportCall: call('USLAX', 'TRUCK', 'CYRD'),
    },
    {
      ...base,
      eventID: 'u-transport',
      eventType: 'TRANSPORT',
      eventClassifierCode: 'REQ',
      transportEventTypeCode: 'OMIT',
      transportCall: call('SGSIN', 'INLAND_WATERWAY'),
    },
    {
      ...base,
      eventID: 'u-gate',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'GTOT',
      equipmentReference: CONTAINER,
      emptyIndicatorCode: 'UNKNOWN',
      transportCall: call('USLAX', 'TRUCK'),
    },
    {
      ...base,
      eventID: 'u-mode',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'LOAD',
      equipmentReference: CONTAINER,
      emptyIndicatorCode: 'LADEN',
      // A load on an unlisted mode is not taken for a vessel load at some port.
      transportCall: call('USLAX', 'HYPERLOOP'),
    },
    {
      ...base,
      eventID: 'u-shipment',
      eventType: 'SHIPMENT',
      eventClassifierCode: 'ACT',
      shipmentEventTypeCode: 'HOLD',
      documentID: BOOKING,
      documentTypeCode: 'XYZ',
    },
    {
      ...base,
      eventID: 'u-reefer',
      eventType: 'REEFER',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'TEMP',
      equipmentReference: CONTAINER,
    },
    { ...base, eventID: 'u-iot', eventType: 'IOT', eventClassifierCode: 'ACT' },
    {
      ...base,
      eventID: 'u-shape',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'INSP',
      equipmentReference: CONTAINER,
      emptyIndicatorCode: 'LADEN',
      // A vessel sent as a number: the member is left out, the event kept.
      transportCall: { ...call('USLAX', 'TRUCK'), vessel: 42 },
    },
    {
      eventID: 'u-timeless',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'LOAD',
      equipmentReference: CONTAINER,
      eventCreatedDateTime: '2026-01-20T08:00:00Z',
    },
  ];
}

const milestones = (raw: RawEvent[]) => {
  const own = rawEventsForContainer(raw, CONTAINER);
  return normalizeEvents(own, deriveRoute(own)).transport.map(
    (t) => `${t.event}@${t.location_locode ?? ''}@${t.timestamp}`,
  );
};

describe('DCSA codes outside the code lists', () => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('keeps every readable event as sent and skips only the one without a time', async () => {
    const journey = journeyEvents();
    server = await startServer((_req, res) =>
      sendJson(res, 200, [...journey, ...unlistedEvents()]),
    );
    const client = new DcsaClient('MSCU', { baseUrl: server.baseUrl, timeoutMs: 2000 });
    const result = await client.lookup({ kind: 'equipmentReference', value: CONTAINER });
    expect(result.outcome).toBe('found');
    if (result.outcome !== 'found') return;

    expect(result.dropped).toEqual([
      {
        page: 1,
        index: journey.length + 8,
        eventType: 'EQUIPMENT',
        eventID: 'u-timeless',
        reason: 'no readable eventDateTime (null)',
      },
    ]);
    expect(result.events).toHaveLength(journey.length + 8);

    const { events: raw, issues } = toRawEvents(result.events);
    expect(issues.filter((i) => i.dropped)).toEqual([]);
    const byId = new Map(raw.map((e) => [e.source_event_id, e]));
    // Shown as sent: the carrier's own identity of each event and the unlisted values.
    expect(byId.get('u-equipment')).toMatchObject({
      original_event: 'EQUIPMENT/WASH',
      empty_indicator: 'PARTIAL',
      facility_type_code: 'CYRD',
      unlisted: {
        equipmentEventTypeCode: 'WASH',
        emptyIndicatorCode: 'PARTIAL',
        facilityTypeCode: 'CYRD',
      },
    });
    expect(byId.get('u-transport')).toMatchObject({
      original_event: 'TRANSPORT/OMIT',
      classifier: 'REQ',
      estimated: true,
      mode_of_transport: null,
      unlisted: {
        transportEventTypeCode: 'OMIT',
        eventClassifierCode: 'REQ',
        modeOfTransport: 'INLAND_WATERWAY',
      },
    });
    expect(byId.get('u-gate')?.unlisted).toEqual({ emptyIndicatorCode: 'UNKNOWN' });
    expect(byId.get('u-mode')?.unlisted).toEqual({ modeOfTransport: 'HYPERLOOP' });
    expect(byId.get('u-shipment')).toMatchObject({
      original_event: 'SHIPMENT/HOLD',
      unlisted: { shipmentEventTypeCode: 'HOLD' },
    });
    // An unlisted eventType is read as the closest generic one and kept as sent.
    expect(byId.get('u-reefer')).toMatchObject({
      original_event: 'REEFER/TEMP',
      event_type: 'EQUIPMENT',
      equipment_reference: CONTAINER,
      unlisted: { eventType: 'REEFER', equipmentEventTypeCode: 'TEMP' },
    });
    expect(byId.get('u-iot')).toMatchObject({ original_event: 'IOT', event_type: 'SHIPMENT' });
    expect(byId.get('u-shape')).toMatchObject({
      original_event: 'EQUIPMENT/INSP',
      location_locode: 'USLAX',
      vessel_imo: null,
    });
    const kinds = new Set(
      issues.filter((i) => i.kind === 'unlisted_code').map((i) => i.source_event_id),
    );
    expect([...kinds].sort()).toEqual(
      ['u-equipment', 'u-gate', 'u-mode', 'u-reefer', 'u-shipment', 'u-transport', 'u-iot'].sort(),
    );

    // Nothing they say is taken for a milestone: the container's history and route are those
    // of the listed events alone.
    const plain = toRawEvents(journey).events;
    expect(milestones(raw)).toEqual(milestones(plain));
    expect(deriveRoute(raw)).toEqual(deriveRoute(plain));
    const named = normalizeEvents(rawEventsForContainer(raw, CONTAINER)).raw;
    for (const id of ['u-equipment', 'u-transport', 'u-gate', 'u-mode', 'u-reefer', 'u-shape'])
      expect(named.find((e) => e.source_event_id === id)?.event, id).toBeNull();
  });
});
