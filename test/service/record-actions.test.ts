/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk untyped response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../support/service';

let t: TestService;
let mine: Awaited<ReturnType<typeof seedShipment>>;
let theirs: Awaited<ReturnType<typeof seedShipment>>;

beforeAll(async () => {
  t = await startTestService({ webhookSourceIps: ['203.0.113.7'] });
  mine = await seedShipment(t, t.accountA, 'MEDURA0001');
  theirs = await seedShipment(t, t.accountB, 'MEDURA0002');
});
afterAll(async () => t?.close());

describe('PATCH /shipments/{id}', () => {
  it('edits ref numbers, tags, customer and custom fields, and bumps updated_at', async () => {
    const party = await t.send('POST', '/parties', {
      data: { attributes: { company_name: 'Harbour Foods' } },
    });
    await t.send('POST', '/custom_field_definitions', {
      data: {
        type: 'custom_field_definition',
        attributes: {
          entity_type: 'Shipment',
          api_slug: 'appointment',
          display_name: 'Delivery appointment',
          data_type: 'datetime',
        },
      },
    });
    const before = (await t.get(`/shipments/${mine.shipment.id}`)).body.data.attributes;
    t.clock.advance(60_000);
    const res = await t.send('PATCH', `/shipments/${mine.shipment.id}`, {
      data: {
        type: 'shipment',
        attributes: {
          ref_numbers: ['PO-1', ' PO-2 ', 'PO-1'],
          tags: ['hot'],
          custom_fields: { appointment: '2026-02-03T09:00:00Z' },
        },
        relationships: { customer: { data: { type: 'party', id: party.body.data.id } } },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.attributes).toMatchObject({
      ref_numbers: ['PO-1', 'PO-2'],
      tags: ['hot'],
      customer_name: 'Harbour Foods',
    });
    expect(res.body.data.attributes.updated_at > before.updated_at).toBe(true);
    expect(res.body.included[0].attributes.value).toBe('2026-02-03T09:00:00.000Z');

    // Renaming the party renames the shipment's customer.
    await t.send('PATCH', `/parties/${party.body.data.id}`, {
      data: { attributes: { company_name: 'Harbour Foods Ltd' } },
    });
    const after = await t.get(`/shipments/${mine.shipment.id}`);
    expect(after.body.data.attributes.customer_name).toBe('Harbour Foods Ltd');
  });

  it('refuses bad input without changing anything, and hides other accounts', async () => {
    const bad = await t.send('PATCH', `/shipments/${mine.shipment.id}`, {
      data: {
        attributes: { tags: ['changed'], custom_fields: { appointment: 'tomorrow' } },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/custom_fields/appointment');
    expect((await t.get(`/shipments/${mine.shipment.id}`)).body.data.attributes.tags).toEqual([
      'hot',
    ]);
    const notParty = await t.send('PATCH', `/shipments/${mine.shipment.id}`, {
      data: {
        attributes: {},
        relationships: { customer: { data: { type: 'party', id: theirs.shipment.id } } },
      },
    });
    expect(notParty.status).toBe(422);
    const wrongType = await t.send('PATCH', `/shipments/${mine.shipment.id}`, {
      data: { attributes: { tags: { hot: true } } },
    });
    expect(wrongType.status).toBe(422);
    const other = await t.send('PATCH', `/shipments/${theirs.shipment.id}`, {
      data: { attributes: { tags: ['x'] } },
    });
    expect(other.status).toBe(404);
  });
});

describe('PATCH /containers', () => {
  it('edits one container or many, all or nothing', async () => {
    const [a, b] = mine.containers;
    const one = await t.send('PATCH', '/containers', {
      data: { type: 'container', id: a!.id, attributes: { ref_numbers: ['REF-1'] } },
    });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.data.attributes.ref_numbers).toEqual(['REF-1']);

    const many = await t.send('PATCH', '/containers', {
      data: [
        { type: 'container', id: a!.id, attributes: { ref_numbers: ['REF-2'] } },
        { type: 'container', id: b!.id, attributes: { ref_numbers: ['REF-3'] } },
      ],
    });
    expect(many.status).toBe(200);
    expect(many.body.data.map((c: any) => c.attributes.ref_numbers)).toEqual([
      ['REF-2'],
      ['REF-3'],
    ]);

    const mixed = await t.send('PATCH', '/containers', {
      data: [
        { type: 'container', id: a!.id, attributes: { ref_numbers: ['LOST'] } },
        { type: 'container', id: theirs.containers[0]!.id, attributes: { ref_numbers: ['X'] } },
      ],
    });
    expect(mixed.status).toBe(404);
    expect(mixed.body.errors[0].source.pointer).toBe('/data/1/id');
    expect((await t.get(`/containers/${a!.id}`)).body.data.attributes.ref_numbers).toEqual([
      'REF-2',
    ]);
    const theirsAfter = await t.get(`/containers/${theirs.containers[0]!.id}`, t.keyB);
    expect(theirsAfter.body.data.attributes.ref_numbers).not.toContain('X');

    const malformed = await t.send('PATCH', '/containers', {
      data: { type: 'container', id: a!.id, attributes: { ref_numbers: { ref: 'REF' } } },
    });
    expect(malformed.status).toBe(422);
  });
});

describe('PATCH /containers/{id}/refresh', () => {
  it('schedules a check now and allows 10 per minute per account', async () => {
    const id = mine.containers[0]!.id;
    const first = await t.send('PATCH', `/containers/${id}/refresh`, {});
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.message).toBe('Started refresh for Shipping line, Terminal');
    for (let i = 1; i < 10; i++) {
      expect((await t.send('PATCH', `/containers/${id}/refresh`, {})).status).toBe(200);
    }
    const limited = await t.send('PATCH', `/containers/${id}/refresh`, {});
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].detail).toBe(
      "You've hit the refresh limit. Please try again in a minute.",
    );
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account has its own budget, and cannot refresh this container.
    expect((await t.send('PATCH', `/containers/${id}/refresh`, {}, { key: t.keyB })).status).toBe(
      404,
    );
    t.wallClock.advance(61_000);
    expect((await t.send('PATCH', `/containers/${id}/refresh`, {})).status).toBe(200);
  });
});

describe('GET /containers/{id}/route and /vessels/{id}/future_positions', () => {
  it('answers the route as port calls, 403 without routing, 404 for another account', async () => {
    const id = mine.containers[0]!.id;
    const res = await t.get(`/containers/${id}/route`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.type).toBe('route');
    expect(res.body.data.relationships.cargo.data.id).toBe(id);
    expect((await t.get(`/containers/${theirs.containers[0]!.id}/route`)).status).toBe(404);
    expect((await t.get(`/containers/${theirs.containers[0]!.id}/route`, t.keyB)).status).toBe(403);
  });

  it('estimates future positions between two ports along the sea route', async () => {
    const ports = (await t.get('/ports/CNSHA')).body.data;
    const lax = (await t.get('/ports/USLAX')).body.data;
    const vessel = (await t.get('/vessels/9839430')).body.data;
    const path = `/vessels/${vessel.id}/future_positions?port_id=${lax.id}&previous_port_id=${ports.id}`;
    const res = await t.get(path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const positions = res.body.data.attributes.positions;
    expect(positions.length).toBeGreaterThan(10);
    expect(positions.length).toBeLessThanOrEqual(721);
    expect(positions[0].latitude).toBeCloseTo(ports.attributes.latitude, 0);
    const last = positions.at(-1);
    expect(last.latitude).toBeCloseTo(lax.attributes.latitude, 0);
    // Trans-Pacific at ~16 kn: between one and four weeks.
    const days = (Date.parse(last.timestamp) - Date.parse(positions[0].timestamp)) / 86_400_000;
    expect(days).toBeGreaterThan(7);
    expect(days).toBeLessThan(28);

    const fromHere = await t.get(
      `/vessels/${vessel.id}/future_positions_with_coordinates?port_id=${lax.id}&previous_port_id=${ports.id}&latitude=30&longitude=-150`,
    );
    expect(fromHere.status).toBe(200);
    expect(fromHere.body.data.attributes.positions[0]).toMatchObject({
      latitude: 30,
      longitude: -150,
    });

    expect((await t.get(`/vessels/${vessel.id}/future_positions?port_id=${lax.id}`)).status).toBe(
      400,
    );
    expect(
      (
        await t.get(
          `/vessels/${vessel.id}/future_positions?port_id=nope&previous_port_id=${ports.id}`,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.get(
          `/vessels/${vessel.id}/future_positions_with_coordinates?port_id=${lax.id}&previous_port_id=${ports.id}&latitude=95&longitude=0`,
        )
      ).status,
    ).toBe(400);
    expect((await t.get(path, t.keyB)).status).toBe(403);
  });
});

describe('GET /webhooks/ips', () => {
  it('lists the addresses deliveries are sent from', async () => {
    const res = await t.get('/webhooks/ips');
    expect(res.status).toBe(200);
    expect(res.body.webhook_notification_ips).toEqual(['203.0.113.7']);
    expect(Number.isNaN(Date.parse(res.body.last_updated))).toBe(false);
  });
});

describe('tracking requests', () => {
  it('infers the SCAC with auto_detect_vocc_scac, or fails the request', async () => {
    const detected = await t.send('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: {
          request_type: 'bill_of_lading',
          request_number: 'MEDUAD0001',
          auto_detect_vocc_scac: true,
        },
      },
    });
    expect(detected.status, JSON.stringify(detected.body)).toBe(201);
    expect(detected.body.data.attributes.scac).toBe('MSCU');
    expect(detected.body.data.attributes.status).toBe('pending');

    const unknown = await t.send('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: {
          request_type: 'bill_of_lading',
          request_number: 'QQ12345',
          auto_detect_vocc_scac: true,
        },
      },
    });
    expect(unknown.status).toBe(201);
    expect(unknown.body.data.attributes).toMatchObject({
      scac: null,
      status: 'failed',
      failed_reason: 'scac_auto_detect_failed',
    });

    const noScac = await t.send('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: { request_type: 'bill_of_lading', request_number: 'MEDUAD0002' },
      },
    });
    expect(noScac.status).toBe(422);
    expect(noScac.body.errors[0].source.pointer).toBe('/data/attributes/scac');
  });

  it('includes tracked_object by default and takes a customer party', async () => {
    const list = await t.get('/tracking_requests');
    const shipmentIds = list.body.included
      .filter((r: any) => r.type === 'shipment')
      .map((r: any) => r.id);
    expect(shipmentIds).toContain(mine.shipment.id);
    const none = await t.get('/tracking_requests?include=');
    expect(none.body.included ?? []).toEqual([]);

    const party = await t.send('POST', '/parties', {
      data: { attributes: { company_name: 'Customer Co' } },
    });
    const created = await t.send('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: { request_type: 'bill_of_lading', request_number: 'MEDUCU0001', scac: 'MSCU' },
        relationships: { customer: { data: { type: 'party', id: party.body.data.id } } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.relationships.customer.data).toEqual({
      type: 'party',
      id: party.body.data.id,
    });
    const withCustomer = await t.get(`/tracking_requests/${created.body.data.id}?include=customer`);
    expect(withCustomer.body.included[0].attributes.company_name).toBe('Customer Co');

    // When the engine finds the shipment, the shipment is for the request's customer.
    const { tracking } = t.service.store;
    const found = await tracking.createShipment(t.accountA, {
      billOfLadingNumber: 'MEDUCU0001',
      scac: 'MSCU',
    });
    await tracking.finishTrackingRequest(created.body.data.id, {
      status: 'created',
      failedReason: null,
      shipmentId: found.id,
      nextAttemptAt: null,
      updatedAt: new Date(t.clock.now()).toISOString(),
    });
    const shipment = await t.get(`/shipments/${found.id}`);
    expect(shipment.body.data.attributes.customer_name).toBe('Customer Co');

    const foreign = await t.send(
      'POST',
      '/tracking_requests',
      {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'MEDUCU0002',
            scac: 'MSCU',
          },
          relationships: { customer: { data: { type: 'party', id: party.body.data.id } } },
        },
      },
      { key: t.keyB },
    );
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].source.pointer).toBe('/data/relationships/customer/data/id');
  });
});
