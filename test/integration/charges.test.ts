/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../support/service';

let t: TestService;
let mine: Awaited<ReturnType<typeof seedShipment>>;
let theirs: Awaited<ReturnType<typeof seedShipment>>;

beforeAll(async () => {
  t = await startTestService();
  mine = await seedShipment(t, t.accountA, 'MEDUCHG001');
  theirs = await seedShipment(t, t.accountB, 'MEDUCHG002');
  const id = mine.containers[0]!.id;
  const { tracking } = t.service.store;
  // Discharged Wed 21 Jan 08:00 PST, available Fri 23 Jan 09:00 PST; terminal LFD Sun 25 Jan;
  // a freight hold by the line seen at the check of Tue 27 Jan 10:00 PST.
  await tracking.applyContainerChanges(id, {
    current_status: 'available',
    pod_discharged_at: '2026-01-21T16:00:00.000Z',
    terminal_checked_at: '2026-01-27T18:00:00.000Z',
    holds_at_pod_terminal: JSON.stringify([{ name: 'freight', status: 'hold', description: null }]),
  });
  await tracking.addTransportEvent(id, {
    event: 'container.transport.available',
    dataSource: 'terminal',
    timestamp: '2026-01-23T17:00:00.000Z',
  });
  // Wed 28 Jan 12:00 PST.
  t.clock.advanceTo(Date.parse('2026-01-28T20:00:00.000Z'));
});
afterAll(async () => t?.close());

describe('GET /v2/containers/{id}/charges', () => {
  it("answers the container's statement day by day, with the line's hold days flagged", async () => {
    const res = await t.get(`/containers/${mine.containers[0]!.id}/charges`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/vnd\.api\+json/);
    const doc = res.body.data;
    expect(doc.type).toBe('container_charges');
    expect(doc.id).toBe(mine.containers[0]!.id);
    expect(doc.relationships.container.data).toEqual({
      type: 'container',
      id: mine.containers[0]!.id,
    });
    const a = doc.attributes;
    expect(a.bill_of_lading).toBe('MEDUCHG001');
    const d = a.demurrage;
    expect(d.free_time_start).toBe('2026-01-23');
    expect(d.free_time_end).toBe('2026-01-25');
    expect(d.days.map((x: any) => x.date)).toEqual(['2026-01-26', '2026-01-27', '2026-01-28']);
    expect(d.days.filter((x: any) => x.dispute).map((x: any) => x.date)).toEqual([
      '2026-01-27',
      '2026-01-28',
    ]);
    expect(d.disputes[0].summary).toBe('Freight hold by the line 27–28 Jan');
    // The terminal's reported demurrage (seeded 150) wins over the tariff's estimate.
    expect(d.total).toBe(150);
    expect(d.total_source).toBe('terminal');
    expect(d.invoice_fields.map((f: any) => f.key)).toContain('free_time_end');
    expect(a.detention).toBeNull();
  });

  it("answers 404 for another account's container and for an id that is not one", async () => {
    const other = await t.get(`/containers/${theirs.containers[0]!.id}/charges`);
    expect(other.status).toBe(404);
    expect(other.body.errors[0].status).toBe('404');
    expect((await t.get('/containers/not-a-uuid/charges')).status).toBe(404);
  });

  it('is documented as a Quayside extension', async () => {
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as any;
    const op = doc.paths['/containers/{id}/charges'].get;
    expect(op['x-quayside-extension']).toBe(true);
    expect(JSON.stringify(op.responses['200'])).toContain('container_charges');
  });
});

describe('GET /v2/parties/{id}/charges', () => {
  it("sums the customer's containers over the range and refuses a bad range", async () => {
    const party = await t.send('POST', '/parties', {
      data: { attributes: { company_name: 'Harbour Foods' } },
    });
    const partyId = party.body.data.id as string;
    const patched = await t.send('PATCH', `/shipments/${mine.shipment.id}`, {
      data: {
        type: 'shipment',
        attributes: {},
        relationships: { customer: { data: { type: 'party', id: partyId } } },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    // The first container is charged 26-28 Jan; the second (LFD 25 Jan, still on the ship) too.
    const res = await t.get(
      `/parties/${partyId}/charges?filter[from]=2026-01-27&filter[to]=2026-01-31`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const a = res.body.data.attributes;
    expect(res.body.data.type).toBe('party_charges');
    expect(a.customer).toBe('Harbour Foods');
    const first = a.lines.find((l: any) => l.container_id === mine.containers[0]!.id);
    expect(first.days).toBe(2);
    expect(first.disputed).toBe(first.total);
    expect(a.totals).toHaveLength(1);
    expect(a.totals[0].total).toBe(a.lines.reduce((sum: number, l: any) => sum + l.total, 0));

    const backwards = await t.get(
      `/parties/${partyId}/charges?filter[from]=2026-01-31&filter[to]=2026-01-27`,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].source).toEqual({ parameter: 'filter[to]' });
    const notADate = await t.get(
      `/parties/${partyId}/charges?filter[from]=2026-02-30&filter[to]=2026-03-01`,
    );
    expect(notADate.status).toBe(400);
    expect(notADate.body.errors[0].source).toEqual({ parameter: 'filter[from]' });
    expect((await t.get(`/parties/${partyId}/charges`)).status).toBe(400);
    // Another account's party is not found.
    const other = await t.get(
      `/parties/${partyId}/charges?filter[from]=2026-01-27&filter[to]=2026-01-31`,
      t.keyB,
    );
    expect(other.status).toBe(404);
  });
});
