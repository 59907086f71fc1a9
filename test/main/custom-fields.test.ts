/* The detail views' custom field and refresh calls against a real service on 127.0.0.1. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OFFLINE_EDIT_MESSAGE,
  cachedCustomFields,
  listCustomFields,
  listTrackingRequestFields,
  refreshContainer,
  setCustomField,
} from '../../src/main/core/custom-field-requests';
import { seedShipment, startTestService, type TestService } from '../support/service';

let t: TestService;
let seeded: Awaited<ReturnType<typeof seedShipment>>;
const connection = () => ({ baseUrl: t.baseUrl, apiKey: t.keyA });

beforeAll(async () => {
  t = await startTestService();
  seeded = await seedShipment(t, t.accountA, 'MEDUDF0001');
  const def = await t.send('POST', '/custom_field_definitions', {
    data: {
      type: 'custom_field_definition',
      attributes: {
        entity_type: 'Container',
        api_slug: 'trucker',
        display_name: 'Trucker',
        data_type: 'enum',
      },
    },
  });
  for (const [label, value] of [
    ['Acme Drayage', 'acme'],
    ['Bay Haulers', 'bay'],
  ]) {
    await t.send('POST', `/custom_field_definitions/${def.body.data.id}/options`, {
      data: { type: 'custom_field_option', attributes: { label, value } },
    });
  }
});
afterAll(async () => t?.close());

describe('custom fields from the detail view', () => {
  it('lists the fields with their options, sets and clears a value', async () => {
    const id = seeded.containers[0]!.id;
    const listed = await listCustomFields(connection(), { entityType: 'container', id });
    expect(listed).toEqual({
      ok: true,
      fields: [
        {
          apiSlug: 'trucker',
          displayName: 'Trucker',
          dataType: 'enum',
          options: [
            { value: 'acme', label: 'Acme Drayage' },
            { value: 'bay', label: 'Bay Haulers' },
          ],
          value: null,
          displayValue: null,
        },
      ],
    });
    const set = await setCustomField(connection(), {
      entityType: 'container',
      id,
      apiSlug: 'trucker',
      value: 'bay',
    });
    expect(set).toMatchObject({ ok: true, field: { value: 'bay', displayValue: 'Bay Haulers' } });
    const after = await listCustomFields(connection(), { entityType: 'container', id });
    expect(after.ok && after.fields[0]!.displayValue).toBe('Bay Haulers');

    const refused = await setCustomField(connection(), {
      entityType: 'container',
      id,
      apiSlug: 'trucker',
      value: 'nobody',
    });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toContain("'nobody' is not an option");

    expect(
      await setCustomField(connection(), {
        entityType: 'container',
        id,
        apiSlug: 'trucker',
        value: null,
      }),
    ).toEqual({ ok: true, field: null });
  });

  it("lists the Track form's fields and sets one on a new tracking request", async () => {
    const def = await t.send('POST', '/custom_field_definitions', {
      data: {
        type: 'custom_field_definition',
        attributes: {
          entity_type: 'TrackingRequest',
          api_slug: 'po_number',
          display_name: 'PO number',
          data_type: 'short_text',
        },
      },
    });
    expect(def.status).toBe(201);
    expect(await listTrackingRequestFields(connection())).toEqual({
      ok: true,
      fields: [
        {
          apiSlug: 'po_number',
          displayName: 'PO number',
          dataType: 'short_text',
          options: [],
          value: null,
          displayValue: null,
        },
      ],
    });
    const set = await setCustomField(connection(), {
      entityType: 'tracking_request',
      id: seeded.request.id,
      apiSlug: 'po_number',
      value: 'PO-4471',
    });
    expect(set).toMatchObject({ ok: true, field: { value: 'PO-4471' } });
    const values = await t.get(`/tracking_requests/${seeded.request.id}/custom_fields`);
    expect(
      values.body.data.map((v: { attributes: { value: unknown } }) => v.attributes.value),
    ).toEqual(['PO-4471']);
  });

  it('refuses edits in plain words when the service cannot be reached', async () => {
    const offline = { baseUrl: 'http://127.0.0.1:9/v2', apiKey: t.keyA };
    const outcome = await setCustomField(offline, {
      entityType: 'container',
      id: seeded.containers[0]!.id,
      apiSlug: 'trucker',
      value: 'acme',
    });
    expect(outcome).toMatchObject({ ok: false, message: OFFLINE_EDIT_MESSAGE });
  });

  it('reads a record\'s fields from the cache while the service cannot be reached, never "not saved"', async () => {
    const offline = { baseUrl: 'http://127.0.0.1:9/v2', apiKey: t.keyA };
    const id = seeded.containers[0]!.id;
    // Unreachable is told apart from a refusal: the handler then reads the cache instead.
    expect(await listCustomFields(offline, { entityType: 'container', id })).toMatchObject({
      ok: false,
      unreachable: true,
    });
    const definitions = [
      {
        id: 'd1',
        entityType: 'Container',
        apiSlug: 'trucker',
        displayName: 'Trucker',
        dataType: 'enum',
        options: [
          { value: 'acme', label: 'Acme Drayage' },
          { value: 'bay', label: 'Bay Haulers' },
        ],
        json: {},
      },
      {
        id: 'd2',
        entityType: 'Shipment',
        apiSlug: 'po',
        displayName: 'PO',
        dataType: 'short_text',
        options: [],
        json: {},
      },
      {
        id: 'd3',
        entityType: 'Container',
        apiSlug: 'seal_checked',
        displayName: 'Seal checked',
        dataType: 'boolean',
        options: [],
        json: {},
      },
    ];
    expect(cachedCustomFields(definitions, { trucker: 'bay' }, 'container')).toEqual([
      {
        apiSlug: 'seal_checked',
        displayName: 'Seal checked',
        dataType: 'boolean',
        options: [],
        value: null,
        displayValue: null,
      },
      {
        apiSlug: 'trucker',
        displayName: 'Trucker',
        dataType: 'enum',
        options: definitions[0]!.options,
        value: 'bay',
        displayValue: 'Bay Haulers',
      },
    ]);
    expect(cachedCustomFields(definitions, { po: 'PO-1' }, 'shipment')).toMatchObject([
      { apiSlug: 'po', value: 'PO-1', displayValue: 'PO-1' },
    ]);
  });

  it('refreshes a container and says plainly when the limit is used up', async () => {
    const id = seeded.containers[1]!.id;
    const first = await refreshContainer(connection(), id);
    expect(first.ok).toBe(true);
    expect(first.message).toContain('Started refresh for Shipping line');
    for (let i = 1; i < 10; i++) await refreshContainer(connection(), id);
    const limited = await refreshContainer(connection(), id);
    expect(limited).toEqual({
      ok: false,
      message:
        'The service allows 10 refreshes a minute and they are used up. Try again in a minute.',
    });
  });
});
