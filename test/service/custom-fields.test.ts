/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk untyped response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import {
  CustomFieldDefinitionDocument,
  CustomFieldDocument,
  CustomFieldListDocument,
  CustomFieldOptionDocument,
  PartyDocument,
  PartyListDocument,
} from '../../src/shared/api/custom-fields';
import { ErrorDocument } from '../../src/shared/api';
import { seedShipment, startTestService, type TestService } from '../support/service';

function expectValid(schema: TSchema, body: unknown) {
  const errors = [...Value.Errors(schema, body)].slice(0, 3);
  expect(errors.map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
}

let t: TestService;
let mine: Awaited<ReturnType<typeof seedShipment>>;
let theirs: Awaited<ReturnType<typeof seedShipment>>;

const definition = (attributes: Record<string, unknown>) => ({
  data: { type: 'custom_field_definition', attributes },
});
const value = (attributes: Record<string, unknown>) => ({
  data: { type: 'custom_field', attributes },
});

/** DELETE without a body (a JSON content type with an empty body is a 400). */
async function del(path: string, key = t.keyA) {
  const res = await fetch(t.baseUrl + path, {
    method: 'DELETE',
    headers: { Authorization: `Token ${key}` },
  });
  return { status: res.status, text: await res.text() };
}

async function define(attributes: Record<string, unknown>, key?: string) {
  const res = await t.send('POST', '/custom_field_definitions', definition(attributes), { key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function addOption(definitionId: string, label: string, optionValue: string) {
  const res = await t.send('POST', `/custom_field_definitions/${definitionId}/options`, {
    data: { type: 'custom_field_option', attributes: { label, value: optionValue } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expectValid(CustomFieldOptionDocument, res.body);
  return res.body.data;
}

let trucker: any;
let poNumber: any;
let services: any;

beforeAll(async () => {
  t = await startTestService();
  mine = await seedShipment(t, t.accountA, 'MEDUCF0001');
  theirs = await seedShipment(t, t.accountB, 'MEDUCF0002');
  trucker = await define({
    entity_type: 'Container',
    api_slug: 'trucker',
    display_name: 'Trucker',
    data_type: 'enum',
  });
  await addOption(trucker.id, 'Acme Drayage', 'acme');
  await addOption(trucker.id, 'Bay Haulers', 'bay');
  poNumber = await define({
    entity_type: 'Shipment',
    api_slug: 'po_number',
    display_name: 'PO number',
    data_type: 'short_text',
  });
  services = await define({
    entity_type: 'Container',
    api_slug: 'services',
    display_name: 'Services',
    data_type: 'enum_multi',
  });
  await addOption(services.id, 'Chassis', 'chassis');
  await addOption(services.id, 'Storage', 'storage');
});
afterAll(async () => t?.close());

describe('custom field definitions', () => {
  it('creates, reads, lists, edits and deletes definitions of the account', async () => {
    const got = await t.get(`/custom_field_definitions/${trucker.id}`);
    expect(got.status).toBe(200);
    expectValid(CustomFieldDefinitionDocument, got.body);
    expect(got.body.data.attributes).toMatchObject({
      entity_type: 'Container',
      api_slug: 'trucker',
      data_type: 'enum',
    });
    expect(got.body.data.relationships.options.data).toHaveLength(2);
    expect(got.body.included.map((o: any) => o.attributes.value)).toEqual(['acme', 'bay']);

    const list = await t.get('/custom_field_definitions?filter[entity_type]=Container');
    expect(list.body.data.map((d: any) => d.attributes.api_slug).sort()).toEqual([
      'services',
      'trucker',
    ]);
    const byName = await t.get('/custom_field_definitions?filter[display_name]=po');
    expect(byName.body.data.map((d: any) => d.attributes.api_slug)).toEqual(['po_number']);

    const patched = await t.send('PATCH', `/custom_field_definitions/${poNumber.id}`, {
      data: { type: 'custom_field_definition', attributes: { display_name: 'Customer PO' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes.display_name).toBe('Customer PO');

    const temp = await define({
      entity_type: 'Shipment',
      api_slug: 'temp',
      display_name: 'Temp',
      data_type: 'boolean',
    });
    expect((await del(`/custom_field_definitions/${temp.id}`)).status).toBe(200);
    expect((await t.get(`/custom_field_definitions/${temp.id}`)).status).toBe(404);
  });

  it('refuses bad definitions with 422 and a pointer', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { entity_type: 'Container', api_slug: 'Bad Slug', display_name: 'x', data_type: 'number' },
        '/data/attributes/api_slug',
      ],
      [
        { entity_type: 'Container', api_slug: 'trucker', display_name: 'x', data_type: 'number' },
        '/data/attributes/api_slug',
      ],
      [
        { entity_type: 'Container', api_slug: 'blank', display_name: '  ', data_type: 'number' },
        '/data/attributes/display_name',
      ],
      [
        { entity_type: 'Container', api_slug: 'x', display_name: 'x', data_type: 'colour' },
        '/data/attributes/data_type',
      ],
      [
        {
          entity_type: 'Container',
          api_slug: 'n',
          display_name: 'n',
          data_type: 'number',
          default_value: 'seven',
        },
        '/data/attributes/default_value',
      ],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await t.send('POST', '/custom_field_definitions', definition(attributes));
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expectValid(ErrorDocument, res.body);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    }
  });

  it("hides another account's definitions and options (404)", async () => {
    expect((await t.get(`/custom_field_definitions/${trucker.id}`, t.keyB)).status).toBe(404);
    expect((await t.get(`/custom_field_definitions/${trucker.id}/options`, t.keyB)).status).toBe(
      404,
    );
    const other = await t.get('/custom_field_definitions', t.keyB);
    expect(other.body.data).toEqual([]);
    const patch = await t.send(
      'PATCH',
      `/custom_field_definitions/${trucker.id}`,
      { data: { type: 'custom_field_definition', attributes: { display_name: 'Mine' } } },
      { key: t.keyB },
    );
    expect(patch.status).toBe(404);
    // The same slug is free in another account.
    await define(
      { entity_type: 'Container', api_slug: 'trucker', display_name: 'T', data_type: 'short_text' },
      t.keyB,
    );
  });
});

describe('custom field values', () => {
  it('sets a value on a container, shows it, and bumps the container for incremental sync', async () => {
    const container = mine.containers[0]!;
    const before = (await t.get(`/containers/${container.id}`)).body.data.attributes.updated_at;
    t.clock.advance(60_000);
    const set = await t.send(
      'POST',
      `/containers/${container.id}/custom_fields`,
      value({ api_slug: 'trucker', value: 'acme' }),
    );
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    expectValid(CustomFieldDocument, set.body);
    expect(set.body.data.attributes).toMatchObject({
      api_slug: 'trucker',
      value: 'acme',
      display_value: 'Acme Drayage',
    });
    expect(set.body.data.relationships.entity.data).toEqual({
      type: 'container',
      id: container.id,
    });

    const after = await t.get(`/containers/${container.id}?include=custom_fields,shipment`);
    expect(after.body.data.attributes.updated_at > before).toBe(true);
    expect(after.body.data.relationships.custom_fields.data).toEqual([
      { id: set.body.data.id, type: 'custom_field' },
    ]);
    const included = after.body.included.find((r: any) => r.type === 'custom_field');
    expect(included.attributes.display_value).toBe('Acme Drayage');
    expect(after.body.included.some((r: any) => r.type === 'shipment')).toBe(true);

    const changed = await t.get(`/containers?filter[updated_at][start]=${before}`);
    expect(changed.body.data.map((c: any) => c.id)).toContain(container.id);

    const patched = await t.send(
      'PATCH',
      `/containers/${container.id}/custom_fields/trucker`,
      value({ value: 'bay' }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes.display_value).toBe('Bay Haulers');
  });

  it('refuses a wrong type or an unknown option with 422 and source.pointer', async () => {
    const container = mine.containers[1]!;
    const bad: [string, Record<string, unknown>, string][] = [
      ['unknown option', { api_slug: 'trucker', value: 'nobody' }, '/data/attributes/value'],
      ['wrong type', { api_slug: 'trucker', value: 7 }, '/data/attributes/value'],
      ['multi not a list', { api_slug: 'services', value: 'chassis' }, '/data/attributes/value'],
      ['unknown slug', { api_slug: 'nope', value: 'x' }, '/data/attributes/api_slug'],
      // A shipment field cannot be set on a container.
      ['other entity', { api_slug: 'po_number', value: 'x' }, '/data/attributes/api_slug'],
      ['null', { api_slug: 'trucker', value: null }, '/data/attributes/value'],
    ];
    for (const [name, attributes, pointer] of bad) {
      const res = await t.send(
        'POST',
        `/containers/${container.id}/custom_fields`,
        value(attributes),
      );
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].source.pointer, name).toBe(pointer);
    }
    const missingValue = await t.send(
      'POST',
      `/containers/${container.id}/custom_fields`,
      value({ api_slug: 'trucker' }),
    );
    expect(missingValue.status).toBe(422);
    expect(missingValue.body.errors[0].source.pointer).toBe('/data/attributes/value');
  });

  it('checks every data type', async () => {
    const types: [string, unknown, unknown][] = [
      ['number', '12.5', 12.5],
      ['date', '2026-02-30', '2026-02-28'],
      ['datetime', '2026-02-01 10:00', '2026-02-01T10:00:00+02:00'],
      ['boolean', 'yes', true],
    ];
    for (const [dataType, wrong, right] of types) {
      const def = await define({
        entity_type: 'Shipment',
        api_slug: `f_${dataType}`,
        display_name: dataType,
        data_type: dataType,
      });
      const path = `/shipments/${mine.shipment.id}/custom_fields`;
      const refused = await t.send(
        'POST',
        path,
        value({ api_slug: def.attributes.api_slug, value: wrong }),
      );
      expect(refused.status, `${dataType} ${String(wrong)}`).toBe(422);
      const accepted = await t.send(
        'POST',
        path,
        value({ api_slug: def.attributes.api_slug, value: right }),
      );
      expect(accepted.status, dataType).toBe(201);
      if (dataType === 'datetime') {
        expect(accepted.body.data.attributes.value).toBe('2026-02-01T08:00:00.000Z');
      }
      if (dataType === 'boolean') expect(accepted.body.data.attributes.display_value).toBe('Yes');
    }
  });

  it('lists, filters and deletes values through /custom_fields', async () => {
    const shipmentPath = `/shipments/${mine.shipment.id}/custom_fields`;
    const created = await t.send('POST', '/custom_fields', {
      data: {
        type: 'custom_field',
        attributes: { api_slug: 'po_number', value: 'PO-77' },
        relationships: { entity: { data: { type: 'shipment', id: mine.shipment.id } } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const again = await t.send(
      'POST',
      shipmentPath,
      value({ api_slug: 'po_number', value: 'PO-78' }),
    );
    expect(again.status).toBe(422);

    const list = await t.get(`/custom_fields?filter[entity_id]=${mine.shipment.id}`);
    expect(list.status).toBe(200);
    expectValid(CustomFieldListDocument, list.body);
    expect(list.body.data.map((v: any) => v.attributes.api_slug)).toContain('po_number');
    const nested = await t.get(shipmentPath);
    expect(nested.body.data.length).toBe(list.body.data.length);

    const byId = await t.get(`/custom_fields/${created.body.data.id}`);
    expect(byId.body.data.attributes.value).toBe('PO-77');
    const patched = await t.send(
      'PATCH',
      `/custom_fields/${created.body.data.id}`,
      value({ value: 'PO-79' }),
    );
    expect(patched.body.data.attributes.value).toBe('PO-79');

    const shipments = await t.get('/shipments?filter[custom_fields][po_number]=po-79');
    expect(shipments.body.data.map((s: any) => s.id)).toEqual([mine.shipment.id]);
    const none = await t.get('/shipments?filter[custom_fields][po_number]=PO-7');
    expect(none.body.data).toEqual([]);
    const unknown = await t.get('/shipments?filter[custom_fields][nope]=x');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].source.parameter).toBe('filter[custom_fields][nope]');

    const removed = await del(`${shipmentPath}/po_number`);
    expect(removed.status).toBe(204);
    expect((await t.get(`/custom_fields/${created.body.data.id}`)).status).toBe(404);
  });

  it('filters containers by enum and enum_multi values', async () => {
    const [first, second] = mine.containers;
    await t.send(
      'PATCH',
      `/containers/${second!.id}/custom_fields/trucker`,
      value({ value: 'acme' }),
    );
    await t.send(
      'PATCH',
      `/containers/${first!.id}/custom_fields/services`,
      value({ value: ['chassis', 'storage'] }),
    );
    const acme = await t.get('/containers?filter[custom_fields][trucker]=acme');
    expect(acme.body.data.map((c: any) => c.id)).toEqual([second!.id]);
    const storage = await t.get('/containers?filter[custom_fields][services]=storage');
    expect(storage.body.data.map((c: any) => c.id)).toEqual([first!.id]);
    const both = await t.get(
      '/containers?filter[custom_fields][services]=storage&filter[custom_fields][trucker]=bay',
    );
    expect(both.body.data.map((c: any) => c.id)).toEqual([first!.id]);

    // An option in use cannot be deleted.
    const options = await t.get(`/custom_field_definitions/${services.id}/options`);
    const storageOption = options.body.data.find((o: any) => o.attributes.value === 'storage');
    const refused = await del(
      `/custom_field_definitions/${services.id}/options/${storageOption.id}`,
    );
    expect(refused.status).toBe(422);
  });

  it("never reads or writes another account's records (404)", async () => {
    const theirContainer = theirs.containers[0]!;
    expect((await t.get(`/containers/${theirContainer.id}/custom_fields`)).status).toBe(404);
    const post = await t.send(
      'POST',
      `/containers/${theirContainer.id}/custom_fields`,
      value({ api_slug: 'trucker', value: 'acme' }),
    );
    expect(post.status).toBe(404);
    const viaGlobal = await t.send('POST', '/custom_fields', {
      data: {
        type: 'custom_field',
        attributes: { api_slug: 'trucker', value: 'acme' },
        relationships: { entity: { data: { type: 'container', id: theirContainer.id } } },
      },
    });
    expect(viaGlobal.status).toBe(422);
    const mineValue = (await t.get(`/containers/${mine.containers[0]!.id}/custom_fields`)).body
      .data[0];
    expect((await t.get(`/custom_fields/${mineValue.id}`, t.keyB)).status).toBe(404);
    const theirPatch = await t.send(
      'PATCH',
      `/custom_fields/${mineValue.id}`,
      value({ value: 'acme' }),
      { key: t.keyB },
    );
    expect(theirPatch.status).toBe(404);
    expect((await del(`/custom_fields/${mineValue.id}`, t.keyB)).status).toBe(404);
  });

  it('sets values on tracking requests too', async () => {
    await define({
      entity_type: 'TrackingRequest',
      api_slug: 'note',
      display_name: 'Note',
      data_type: 'short_text',
    });
    const path = `/tracking_requests/${mine.request.id}/custom_fields`;
    const res = await t.send('POST', path, value({ api_slug: 'note', value: 'call first' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const withFields = await t.get(`/tracking_requests/${mine.request.id}?include=custom_fields`);
    expect(withFields.body.data.relationships.custom_fields.data).toHaveLength(1);
  });

  it('checks initial_custom_fields when a tracking request is made, and refuses it whole', async () => {
    const create = (number: string, initial: unknown, key?: string) =>
      t.send(
        'POST',
        '/tracking_requests',
        {
          data: {
            type: 'tracking_request',
            attributes: {
              request_type: 'bill_of_lading',
              request_number: number,
              scac: 'MSCU',
              initial_custom_fields: initial,
            },
          },
        },
        { key },
      );
    const refusals: [unknown, string, RegExp][] = [
      [
        { shipment: [{ api_slug: 'no_such_field', value: 'x' }] },
        '/data/attributes/initial_custom_fields/shipment/0/api_slug',
        /no_such_field/,
      ],
      // A container field named among the shipment's values.
      [
        { shipment: [{ api_slug: 'trucker', value: 'acme' }] },
        '/data/attributes/initial_custom_fields/shipment/0/api_slug',
        /trucker/,
      ],
      [
        {
          shipment: [{ api_slug: 'po_number', value: 'PO-1' }],
          containers: [{ api_slug: 'trucker', value: 'nobody' }],
        },
        '/data/attributes/initial_custom_fields/containers/0/value',
        /trucker/,
      ],
      [
        { containers: [{ api_slug: 'trucker', value: 'acme', number: 'not a box' }] },
        '/data/attributes/initial_custom_fields/containers/0/number',
        /container number/,
      ],
    ];
    for (const [initial, pointer, detail] of refusals) {
      const res = await create('MEDUCF0100', initial);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
      expect(res.body.errors[0].detail).toMatch(detail);
    }
    // Another account's definitions are not this account's.
    const foreign = await create(
      'MEDUCF0100',
      { shipment: [{ api_slug: 'po_number', value: 'PO-1' }] },
      t.keyB,
    );
    expect(foreign.status).toBe(422);
    // Nothing was created by the refused requests.
    const listed = await t.get('/tracking_requests?filter[request_number]=MEDUCF0100');
    expect(listed.body.data).toEqual([]);

    const accepted = await create('MEDUCF0100', {
      shipment: [{ api_slug: 'po_number', value: 'PO-1' }],
      containers: [
        { api_slug: 'trucker', value: 'acme' },
        { api_slug: 'trucker', value: 'bay', number: 'mscu 1234565' },
      ],
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body.data.attributes).not.toHaveProperty('initial_custom_fields');
  });
});

describe('parties', () => {
  it('creates, lists, reads and renames parties; names are unique per account', async () => {
    const created = await t.send('POST', '/parties', {
      data: { attributes: { company_name: 'Sodor Steamworks' } },
    });
    expect(created.status).toBe(201);
    expectValid(PartyDocument, created.body);
    const dup = await t.send('POST', '/parties', {
      data: { attributes: { company_name: 'Sodor Steamworks' } },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].source.pointer).toBe('/data/attributes/company_name');
    const blank = await t.send('POST', '/parties', { data: { attributes: { company_name: ' ' } } });
    expect(blank.status).toBe(422);
    expect(blank.body.errors[0].detail).toBe("Company name can't be blank");

    const list = await t.get('/parties');
    expectValid(PartyListDocument, list.body);
    expect(list.body.data.map((p: any) => p.attributes.company_name)).toEqual(['Sodor Steamworks']);
    const id = created.body.data.id;
    const renamed = await t.send('PATCH', `/parties/${id}`, {
      data: { attributes: { company_name: 'Sodor Ironworks' } },
    });
    expect(renamed.body.data.attributes.company_name).toBe('Sodor Ironworks');
    expect((await t.get(`/parties/${id}`)).body.data.attributes.company_name).toBe(
      'Sodor Ironworks',
    );
    expect((await t.get(`/parties/${id}`, t.keyB)).status).toBe(404);
    expect(
      (
        await t.send(
          'PATCH',
          `/parties/${id}`,
          { data: { attributes: { company_name: 'Stolen' } } },
          { key: t.keyB },
        )
      ).status,
    ).toBe(404);
    expect((await t.get('/parties', t.keyB)).body.data).toEqual([]);
  });
});
