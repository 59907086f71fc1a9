/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk untyped response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import {
  ContainerDocument,
  ContainerListDocument,
  ErrorDocument,
  RawEventListDocument,
  RouteFeatureCollection,
  SearchDocument,
  ShipmentDocument,
  ShipmentListDocument,
  TrackingRequestDocument,
  TrackingRequestListDocument,
  TransportEventListDocument,
  WebhookListDocument,
  WebhookNotificationListDocument,
} from '../../src/shared/api';
import { seedShipment, startTestService, type TestService } from '../support/service';

function expectValid(schema: TSchema, body: unknown) {
  const errors = [...Value.Errors(schema, body)].slice(0, 3);
  expect(errors.map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
}

let t: TestService;
let seeded: Awaited<ReturnType<typeof seedShipment>>;
let other: Awaited<ReturnType<typeof seedShipment>>;

beforeAll(async () => {
  t = await startTestService();
  seeded = await seedShipment(t, t.accountA, 'MEDUAA0001');
  other = await seedShipment(t, t.accountB, 'MEDUBB0002');
});
afterAll(async () => t?.close());

describe('authentication and account isolation', () => {
  it('refuses requests without a token or with a bad one', async () => {
    const none = await fetch(`${t.baseUrl}/shipments`);
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toContain('application/vnd.api+json');
    const bad = await t.get('/shipments', 'qs_not-a-key');
    expect(bad.status).toBe(401);
    expectValid(ErrorDocument, bad.body);
    expect(bad.body.errors[0].status).toBe('401');
  });

  it("never shows another account's data", async () => {
    const mine = await t.get('/shipments');
    expect(mine.body.data.map((s: any) => s.attributes.bill_of_lading_number)).toEqual([
      'MEDUAA0001',
    ]);
    const theirs = await t.get('/shipments', t.keyB);
    expect(theirs.body.data.map((s: any) => s.attributes.bill_of_lading_number)).toEqual([
      'MEDUBB0002',
    ]);
    expect((await t.get(`/shipments/${other.shipment.id}`)).status).toBe(404);
    expect((await t.get(`/containers/${other.containers[0]!.id}`)).status).toBe(404);
    expect((await t.get(`/containers/${other.containers[0]!.id}/transport_events`)).status).toBe(
      404,
    );
    expect((await t.get(`/tracking_requests/${other.request.id}`)).status).toBe(404);
    expect(
      (await t.send('PATCH', `/shipments/${other.shipment.id}/stop_tracking`, {})).status,
    ).toBe(404);
    const search = await t.get('/search?query=MEDUBB');
    expect(search.body.data).toEqual([]);
  });
});

describe('shipments', () => {
  it('lists with includes and validates against the shared schemas', async () => {
    const res = await t.get(
      '/shipments?include=containers,port_of_lading,port_of_discharge,pod_terminal,destination',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    expectValid(ShipmentListDocument, res.body);
    const s = res.body.data[0];
    expect(s.attributes).toMatchObject({
      port_of_lading_locode: 'CNSHA',
      port_of_discharge_name: 'Los Angeles',
      destination_locode: 'USCHI',
      shipping_line_name: 'Mediterranean Shipping Company',
      pod_timezone: 'America/Los_Angeles',
    });
    expect(s.relationships.destination.data.type).toBe('metro_area');
    expect(s.relationships.containers.data).toHaveLength(2);
    const types = res.body.included.map((r: any) => r.type).sort();
    expect(types).toEqual(['container', 'container', 'metro_area', 'port', 'port', 'terminal']);
    expect(res.body.meta).toEqual({ size: 30, total: 1 });
  });

  it('resolves dotted include paths and refuses unknown ones naming the parameter', async () => {
    const res = await t.get('/containers?include=shipment.port_of_lading');
    expect(res.status).toBe(200);
    expect(res.body.included.map((r: any) => r.type).sort()).toEqual(['port', 'shipment']);
    const bad = await t.get('/shipments?include=containers.nonsense');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'include' });
  });

  it('gets one, stops and resumes tracking, and filters by tracking state and number', async () => {
    const one = await t.get(`/shipments/${seeded.shipment.id}?include=containers`);
    expectValid(ShipmentDocument, one.body);
    const stopped = await t.send('PATCH', `/shipments/${seeded.shipment.id}/stop_tracking`, {});
    expect(stopped.status).toBe(200);
    expectValid(ShipmentDocument, stopped.body);
    expect(stopped.body.data.attributes.line_tracking_stopped_reason).toBe('cancelled_by_user');
    expect((await t.get('/shipments?filter[tracking_stopped]=true')).body.meta.total).toBe(1);
    expect((await t.get('/shipments?filter[tracking_stopped]=false')).body.meta.total).toBe(0);
    const resumed = await t.send('PATCH', `/shipments/${seeded.shipment.id}/resume_tracking`, {});
    expect(resumed.body.data.attributes.line_tracking_stopped_at).toBeNull();
    expect((await t.get('/shipments?number=MEDUAA0001')).body.meta.total).toBe(1);
    expect((await t.get('/shipments?number=NOPE')).body.meta.total).toBe(0);
    expect((await t.get(`/shipments?q=${seeded.containers[0]!.number}`)).body.meta.total).toBe(1);
  });

  it('filters by updated_at (sync extension)', async () => {
    const before = new Date(t.clock.now()).toISOString();
    t.clock.advance(5000);
    // Stopping and resuming tracking through the API changes the shipment.
    const shipmentPath = `/shipments/${seeded.shipment.id}`;
    expect((await t.send('PATCH', `${shipmentPath}/stop_tracking`, {})).status).toBe(200);
    expect((await t.send('PATCH', `${shipmentPath}/resume_tracking`, {})).status).toBe(200);
    const res = await t.get(`/shipments?filter[updated_at][start]=${before}`);
    expect(res.body.data.map((s: any) => s.id)).toEqual([seeded.shipment.id]);
    const later = new Date(t.clock.now() + 1000).toISOString();
    expect((await t.get(`/shipments?filter[updated_at][start]=${later}`)).body.data).toEqual([]);
    expect((await t.get('/containers?filter[updated_at][start]=yesterday')).status).toBe(400);
  });
});

describe('containers and events', () => {
  it('lists and gets containers with type container and the documented includes', async () => {
    const list = await t.get('/containers?include=shipment');
    expectValid(ContainerListDocument, list.body);
    expect(list.body.data.every((c: any) => c.type === 'container')).toBe(true);
    const c = seeded.containers[0]!;
    const one = await t.get(
      `/containers/${c.id}?include=shipment,pod_terminal,pickup_facility,transport_events`,
    );
    expectValid(ContainerDocument, one.body);
    expect(one.body.data.attributes).toMatchObject({
      pickup_lfd: '2026-01-25T08:00:00.000Z',
      holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: null }],
      current_status: 'on_ship',
    });
    expect(one.body.included.filter((r: any) => r.type === 'transport_event')).toHaveLength(2);
  });

  it('returns transport events newest first with self/current links and includes', async () => {
    const c = seeded.containers[0]!;
    const res = await t.get(
      `/containers/${c.id}/transport_events?include=location,vessel,shipment`,
    );
    expectValid(TransportEventListDocument, res.body);
    expect(res.body.data.map((e: any) => e.attributes.event)).toEqual([
      'container.transport.vessel_departed',
      'container.transport.vessel_loaded',
    ]);
    expect(res.body.data[0].attributes.timezone).toBe('Asia/Shanghai');
    expect(res.body.links.self).toContain('/transport_events?include=');
    expect(res.body.links.self).not.toContain('page[number]');
    expect(res.body.links.current).toContain('page[number]=1');
    expect(res.body.included.map((r: any) => r.type).sort()).toEqual([
      'port',
      'shipment',
      'vessel',
    ]);
  });

  it('returns raw events including estimates', async () => {
    const res = await t.get(`/containers/${seeded.containers[0]!.id}/raw_events`);
    expectValid(RawEventListDocument, res.body);
    expect(res.body.data.map((e: any) => [e.attributes.event, e.attributes.estimated])).toEqual([
      ['vessel_loaded', false],
      ['vessel_arrived', true],
    ]);
  });

  it('serves map_geojson only with the routing entitlement', async () => {
    const ok = await t.get(`/containers/${seeded.containers[0]!.id}/map_geojson`);
    expect(ok.status).toBe(200);
    expectValid(RouteFeatureCollection, ok.body);
    expect(ok.body).toEqual({ type: 'FeatureCollection', features: [] });
    const refused = await t.get(`/containers/${other.containers[0]!.id}/map_geojson`, t.keyB);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toBe(
      'Routing data feature is not enabled for this account',
    );
  });
});

describe('tracking requests', () => {
  const body = (attributes: Record<string, unknown>) => ({
    data: { type: 'tracking_request', attributes },
  });

  it('creates a pending request and refuses duplicates while it is pending', async () => {
    const created = await t.send(
      'POST',
      '/tracking_requests',
      body({
        request_type: 'bill_of_lading',
        request_number: 'medu9000001',
        scac: 'MSCU',
      }),
    );
    expect(created.status).toBe(201);
    expectValid(TrackingRequestDocument, created.body);
    expect(created.body.data.attributes).toMatchObject({
      status: 'pending',
      request_number: 'MEDU9000001',
    });
    const dup = await t.send(
      'POST',
      '/tracking_requests',
      body({
        request_type: 'bill_of_lading',
        request_number: 'MEDU9000001',
        scac: 'MSCU',
      }),
    );
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].source.pointer).toBe('/data/attributes/request_number');
    // Another account may track the same number.
    const forB = await t.send(
      'POST',
      '/tracking_requests',
      body({
        request_type: 'bill_of_lading',
        request_number: 'MEDU9000001',
        scac: 'MSCU',
      }),
      { key: t.keyB },
    );
    expect(forB.status).toBe(201);
  });

  it('refuses invalid input with 422 and pointers', async () => {
    const badType = await t.send(
      'POST',
      '/tracking_requests',
      body({ request_type: 'bol', request_number: 'X1', scac: 'MSCU' }),
    );
    expect(badType.status).toBe(422);
    expect(badType.body.errors[0].source.pointer).toBe('/data/attributes/request_type');
    const missing = await t.send(
      'POST',
      '/tracking_requests',
      body({ request_type: 'bill_of_lading', scac: 'MSCU' }),
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/request_number');
    const blank = await t.send(
      'POST',
      '/tracking_requests',
      body({ request_type: 'bill_of_lading', request_number: ' ', scac: 'MSCU' }),
    );
    expect(blank.body.errors[0].detail).toBe("Request number can't be blank");
    const unknown = await t.send(
      'POST',
      '/tracking_requests',
      body({ request_type: 'bill_of_lading', request_number: 'A1', scac: 'XXXX' }),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].detail).toBe("Scac 'XXXX' is not recognized");
    const unsupported = await t.send(
      'POST',
      '/tracking_requests',
      body({ request_type: 'container', request_number: 'UALU1234567', scac: 'UALC' }),
    );
    expect(unsupported.status).toBe(422);
    expect(unsupported.body.errors[0].detail).toContain('is not supported');
  });

  it('lists with filters, q, include tracked_object, and patches ref numbers and tags', async () => {
    const list = await t.get('/tracking_requests?filter[status]=created&include=tracked_object');
    expectValid(TrackingRequestListDocument, list.body);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.included[0].type).toBe('shipment');
    expect((await t.get('/tracking_requests?filter[scac]=MSCU')).body.meta.total).toBe(2);
    expect((await t.get('/tracking_requests?q=9000001')).body.meta.total).toBe(1);
    const start = new Date(t.clock.now() + 60_000).toISOString();
    expect(
      (await t.get(`/tracking_requests?filter[created_at][start]=${start}`)).body.meta.total,
    ).toBe(0);
    const patched = await t.send('PATCH', `/tracking_requests/${seeded.request.id}`, {
      data: { type: 'tracking_request', attributes: { ref_numbers: ['R-1'], tags: ['urgent'] } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ ref_numbers: ['R-1'], tags: ['urgent'] });
    expect(
      (await t.get(`/tracking_requests/${seeded.request.id}`)).body.data.attributes.tags,
    ).toEqual(['urgent']);
  });
});

describe('HTTP errors', () => {
  it('answers malformed JSON with 400, wrong content type with 415, big bodies with 413', async () => {
    const malformed = await t.send('POST', '/tracking_requests', '{"data":');
    expect(malformed.status).toBe(400);
    expectValid(ErrorDocument, malformed.body);
    const text = await t.send('POST', '/tracking_requests', 'hello', { contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expectValid(ErrorDocument, text.body);
    const huge = await t.send('POST', '/tracking_requests', { pad: 'x'.repeat(1024 * 1024 + 10) });
    expect(huge.status).toBe(413);
    expectValid(ErrorDocument, huge.body);
    const route = await t.get('/no_such_thing');
    expect(route.status).toBe(404);
    expectValid(ErrorDocument, route.body);
    const badPage = await t.get('/shipments?page[size]=abc');
    expect(badPage.status).toBe(400);
    expect(badPage.body.errors[0].source.parameter).toBe('page[size]');
    expect((await t.get('/containers/not-a-uuid')).status).toBe(404);
  });
});

describe('pagination', () => {
  it('pages with links and truncates page size to 100', async () => {
    const { tracking } = t.service.store;
    for (let i = 0; i < 5; i++) {
      await tracking.createTrackingRequest(t.accountA, {
        requestType: 'bill_of_lading',
        requestNumber: `PAGE${i}`,
        scac: 'MAEU',
      });
      t.clock.advance(10);
    }
    const first = await t.get('/tracking_requests?filter[scac]=MAEU&page[size]=2');
    expect(first.body.meta).toEqual({ size: 2, total: 5 });
    expect(first.body.data.map((r: any) => r.attributes.request_number)).toEqual([
      'PAGE4',
      'PAGE3',
    ]);
    expect(first.body.links.prev).toBeUndefined();
    expect(first.body.links.last).toContain('page[number]=3');
    const next = await fetch(first.body.links.next, {
      headers: { Authorization: `Token ${t.keyA}` },
    });
    const second = (await next.json()) as any;
    expect(second.data.map((r: any) => r.attributes.request_number)).toEqual(['PAGE2', 'PAGE1']);
    expect(second.links.prev).toContain('page[number]=1');
    expect(second.links.next).toContain('filter[scac]=MAEU');
    const big = await t.get('/tracking_requests?page[size]=500');
    expect(big.body.meta.size).toBe(100);
  });
});

describe('search and webhooks', () => {
  it('finds shipments, containers and requests by number or reference', async () => {
    const res = await t.get('/search?query=aa0001');
    expectValid(SearchDocument, res.body);
    // Every item is a `search_result`, as the real service sends (its MCP server reads these).
    const kinds = (body: any) => body.data.map((r: any) => `${r.type} ${r.attributes.entity_type}`);
    expect(kinds(res.body)).toEqual(['search_result shipment']);
    expect(res.body.data[0].attributes.scac).toBe('MSCU');
    const byRef = await t.get('/search?query=PO-MEDUAA');
    expect(byRef.body.data[0].attributes.containers_count).toBe(2);
    const byContainer = await t.get(`/search?query=${seeded.containers[1]!.number}`);
    expectValid(SearchDocument, byContainer.body);
    expect(kinds(byContainer.body)).toEqual(['search_result cargo']);
    // A container carries its line, as the real service's results do.
    expect(byContainer.body.data[0].attributes).toMatchObject({
      number: seeded.containers[1]!.number,
      scac: 'MSCU',
    });
    const pending = await t.get('/search?query=9000001');
    expect(kinds(pending.body)).toEqual(['search_result tracking_request']);
    expect((await t.get('/search')).status).toBe(400);
  });

  it('lists webhooks and notifications (empty)', async () => {
    const hooks = await t.get('/webhooks');
    expectValid(WebhookListDocument, hooks.body);
    const notes = await t.get('/webhook_notifications');
    expectValid(WebhookNotificationListDocument, notes.body);
    expect(notes.body.meta.total).toBe(0);
  });
});
