/* eslint-disable @typescript-eslint/no-explicit-any -- tool answers are untyped JSON */
/**
 * The service's /mcp over streamable HTTP, driven by the official SDK client against a real
 * service on 127.0.0.1:0: every tool listed, each called with good and bad arguments, answers
 * scoped to the key's account.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUAYSIDE_TOOL_NAMES, T49_TOOL_NAMES } from '../../../src/shared/mcp/tools';
import { seedShipment, startTestService, type TestService } from '../../support/service';
import { callTool as call } from '../../support/mcp-client';
import { ARRIVAL, arrivalNotice } from '../../support/documents/generated-pdfs';

async function connect(t: TestService, key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', t.baseUrl), {
      requestInit: { headers: { Authorization: `Token ${key}` } },
    }),
  );
  return client;
}

describe('/mcp on the service', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  let seeded: Awaited<ReturnType<typeof seedShipment>>;
  let other: Awaited<ReturnType<typeof seedShipment>>;

  beforeAll(async () => {
    t = await startTestService();
    seeded = await seedShipment(t, t.accountA, 'MEDUAA0001');
    other = await seedShipment(t, t.accountB, 'MEDUBB0002');
    a = await connect(t, t.keyA);
    b = await connect(t, t.keyB);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.close();
  });

  it('refuses a request without a valid key, as /v2 does', async () => {
    const res = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).errors[0].status).toBe('401');
  });

  it("lists Terminal49's ten tools and Quayside's own", async () => {
    const { tools } = await a.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [...T49_TOOL_NAMES, ...QUAYSIDE_TOOL_NAMES]) expect(names).toContain(name);
    const getContainer = tools.find((tool) => tool.name === 'get_container')!;
    expect(getContainer.inputSchema.required).toEqual(['id']);
  });

  it('answers each read tool for its own account, stating the time it is true at', async () => {
    const container = seeded.containers[0]!;
    const search = await call(a, 'search_container', { query: container.number });
    expect(search.body.as_of).toBe(new Date(t.clock.now()).toISOString());
    expect(search.body.containers.map((c: any) => c.container_number)).toEqual([container.number]);
    expect(search.body.containers[0].link).toBe(`quayside://find?q=${container.number}`);
    const byBl = await call(a, 'search_container', { query: 'meduaa0001' });
    expect(byBl.body.shipments.map((s: any) => s.bill_of_lading)).toEqual(['MEDUAA0001']);

    const detail = await call(a, 'get_container', {
      id: container.id,
      include: ['transport_events'],
    });
    expect(detail.body.container).toMatchObject({
      container_number: container.number,
      holds: ['Customs'],
      fees: { amount: 150, currency: 'USD' },
    });
    expect(detail.body.container.last_free_day.date).toBe('2026-01-25');
    expect(detail.body.transport_events.total).toBe(2);

    const shipment = await call(a, 'get_shipment_details', { id: seeded.shipment.id });
    expect(shipment.body.shipment.bill_of_lading).toBe('MEDUAA0001');
    expect(shipment.body.containers).toHaveLength(2);

    const events = await call(a, 'get_container_transport_events', { id: container.id });
    expect(events.body.timeline.map((e: any) => e.event)).toEqual([
      'container.transport.vessel_loaded',
      'container.transport.vessel_departed',
    ]);
    const route = await call(a, 'get_container_route', { id: container.id });
    expect(route.body.route_locations.map((l: any) => l.locode)).toEqual([
      'CNSHA',
      'USLAX',
      'USCHI',
    ]);

    const containers = await call(a, 'list_containers', { port: 'USLAX', page_size: 1 });
    expect(containers.body.meta).toMatchObject({ total: 2, page_size: 1, more: true });
    const shipments = await call(a, 'list_shipments', { carrier: 'MSCU' });
    expect(shipments.body.items.map((s: any) => s.bill_of_lading)).toEqual(['MEDUAA0001']);
    const requests = await call(a, 'list_tracking_requests', { status: 'created' });
    expect(requests.body.items.map((r: any) => r.request_number)).toEqual(['MEDUAA0001']);
    const lines = await call(a, 'get_supported_shipping_lines', { search: 'msc' });
    expect(lines.body.shipping_lines.map((l: any) => l.scac)).toContain('MSCU');

    const lfds = await call(a, 'list_last_free_days', { from: '2026-01-24', to: '2026-01-26' });
    expect(lfds.body.meta.total).toBe(2);
    const holds = await call(a, 'list_holds_and_fees', { hold: 'customs' });
    expect(holds.body.with_holds).toBe(2);
    const worklist = await call(a, 'get_worklist');
    expect(worklist.body.complete).toBe(true);
    // Sections by urgency, terminals within: every listed box says what to do next.
    const listed = (
      worklist.body.sections as {
        section: string;
        terminals: {
          terminal: string;
          items: { container_number: string; next_action: string }[];
        }[];
      }[]
    ).flatMap((section) => section.terminals.flatMap((place) => place.items));
    expect(Array.isArray(worklist.body.sections)).toBe(true);
    for (const item of listed) expect(item.next_action.length).toBeGreaterThan(5);
    const money = await call(a, 'get_money_at_risk');
    expect(money.body.totals).toHaveProperty('demurrage_accrued');
    const fields = await call(a, 'list_custom_fields');
    expect(fields.body.fields).toEqual([]);
  });

  it("never shows another account's data", async () => {
    const mine = seeded.containers[0]!;
    const theirs = other.containers[0]!;
    expect((await call(b, 'get_container', { id: mine.id })).isError).toBe(true);
    expect((await call(a, 'get_container', { id: theirs.id })).isError).toBe(true);
    const search = await call(a, 'search_container', { query: 'MEDUBB0002' });
    expect(search.body.total_results).toBe(0);
    const list = await call(b, 'list_containers', {});
    expect(list.body.items.map((c: any) => c.id).sort()).toEqual(
      other.containers.map((c) => c.id).sort(),
    );
    const holds = await call(b, 'list_holds_and_fees', {});
    expect(holds.body.items.every((c: any) => c.bill_of_lading === 'MEDUBB0002')).toBe(true);
  });

  it('rejects bad arguments with a clear error and changes nothing', async () => {
    for (const [name, args] of [
      ['get_container', { id: 'not-a-uuid' }],
      ['search_container', {}],
      ['list_containers', { page_size: 500 }],
      ['list_last_free_days', { from: '25/01/2026', to: '2026-01-26' }],
      ['get_supported_shipping_lines', { search: 42 }],
    ] as const) {
      const result = await call(a, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toMatch(/invalid|expected|too|must|date/i);
    }
    const range = await call(a, 'list_last_free_days', { from: '2026-02-01', to: '2026-01-01' });
    expect(range).toMatchObject({ isError: true, text: 'to is before from.' });
    const badDigit = await call(a, 'track_container', { number: 'MSCU1234560' });
    expect(badDigit.isError).toBe(true);
    expect(badDigit.text).toMatch(/check digit/i);
    const before = await t.get('/tracking_requests');
    expect(before.body.data).toHaveLength(1);
  });

  it('tracks a new number through the API use case, and says when one is tracked already', async () => {
    const already = await call(a, 'track_container', { number: seeded.containers[0]!.number });
    expect(already.body).toMatchObject({ tracking_request_created: false });
    const tracked = await call(a, 'track_container', {
      number: 'MEDU-BB0009',
      numberType: 'bill_of_lading',
      scac: 'MSCU',
    });
    expect(tracked.isError, tracked.text).toBe(false);
    expect(tracked.body.tracking_request).toMatchObject({ number: 'MEDUBB0009', scac: 'MSCU' });
    const list = await t.get('/tracking_requests');
    expect(list.body.data.map((r: any) => r.attributes.request_number)).toContain('MEDUBB0009');
    const seenByB = await t.get('/tracking_requests', t.keyB);
    expect(seenByB.body.data.map((r: any) => r.attributes.request_number)).not.toContain(
      'MEDUBB0009',
    );
  });

  it('lists documents with the numbers read from them, per shipment, for its own account only', async () => {
    // Automatic tracking links a document to the shipment its bill of lading names.
    const settings = await t.send('PATCH', '/documents/settings', {
      data: { attributes: { tracking_mode: 'automatic' } },
    });
    expect(settings.status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob([await arrivalNotice('MEDUAA0001')]), 'arrival.pdf');
    const uploaded = await fetch(`${t.baseUrl}/documents`, {
      method: 'POST',
      headers: { Authorization: `Token ${t.keyA}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    await t.service.store.context.documents.service.idle();

    const listed = await call(a, 'list_documents', {});
    expect(listed.body.meta.total).toBe(1);
    const [document] = listed.body.items;
    expect(document).toMatchObject({
      name: 'arrival.pdf',
      document_type: 'arrival_notice',
      extraction_status: 'extracted',
      carrier_scac: 'MSCU',
    });
    expect(
      document.extracted_numbers
        .filter((n: any) => n.kind === 'container')
        .map((n: any) => n.value),
    ).toEqual(ARRIVAL.containers);
    expect(document.extracted_numbers.find((n: any) => n.kind === 'bill_of_lading').value).toBe(
      'MEDUAA0001',
    );
    const byShipment = await call(a, 'list_documents', { shipment_id: seeded.shipment.id });
    expect(document.shipment_ids).toEqual([seeded.shipment.id]);
    expect(byShipment.body.items.map((d: any) => d.id)).toEqual([document.id]);
    const elsewhere = await call(a, 'list_documents', { shipment_id: other.shipment.id });
    expect(elsewhere.body.items).toEqual([]);
    expect((await call(b, 'list_documents', {})).body.meta.total).toBe(0);
  });
});
