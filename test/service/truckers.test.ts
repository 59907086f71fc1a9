/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk untyped response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../support/service';

let t: TestService;
let mine: Awaited<ReturnType<typeof seedShipment>>;
let theirs: Awaited<ReturnType<typeof seedShipment>>;

beforeAll(async () => {
  t = await startTestService();
  mine = await seedShipment(t, t.accountA, 'MEDUTR0001');
  theirs = await seedShipment(t, t.accountB, 'MEDUTR0002');
});
afterAll(async () => t?.close());

const trucker = (name: string, extra: Record<string, unknown> = {}, key?: string) =>
  t.send(
    'POST',
    '/parties',
    { data: { type: 'party', attributes: { company_name: name, roles: ['trucker'], ...extra } } },
    key ? { key } : undefined,
  );

const assign = (items: { id: string; trucker: string | null }[]) =>
  t.send('PATCH', '/containers', {
    data: items.map((i) => ({
      type: 'container',
      id: i.id,
      relationships: { trucker: { data: i.trucker ? { type: 'party', id: i.trucker } : null } },
    })),
  });

describe('truckers', () => {
  it('keeps a trucker party with its SCAC and contacts, and lists truckers apart', async () => {
    const made = await trucker('Harbor Dray', {
      scac: ' hbdr ',
      contacts: [{ name: 'Dispatch', email: 'dispatch@harbordray.example', phone: '+1 555 0100' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.attributes).toMatchObject({
      company_name: 'Harbor Dray',
      roles: ['trucker'],
      scac: 'HBDR',
      contacts: [{ name: 'Dispatch', email: 'dispatch@harbordray.example', phone: '+1 555 0100' }],
    });
    await t.send('POST', '/parties', { data: { attributes: { company_name: 'Harbour Foods' } } });

    const truckers = await t.get('/parties?filter[role]=trucker');
    expect(truckers.body.data.map((p: any) => p.attributes.company_name)).toEqual(['Harbor Dray']);
    const all = await t.get('/parties');
    expect(all.body.data).toHaveLength(2);
    // Another account's truckers are not listed.
    expect((await t.get('/parties?filter[role]=trucker', t.keyB)).body.data).toEqual([]);
  });

  it('refuses a bad SCAC, a bad email, an empty contact and an unknown role', async () => {
    const scac = await trucker('Bad Scac', { scac: 'TOOLONG' });
    expect(scac.status).toBe(422);
    expect(scac.body.errors[0].source.pointer).toBe('/data/attributes/scac');
    const email = await trucker('Bad Mail', { contacts: [{ name: 'A', email: 'not-mail' }] });
    expect(email.status).toBe(422);
    expect(email.body.errors[0].source.pointer).toBe('/data/attributes/contacts/0/email');
    const empty = await trucker('Empty Contact', { contacts: [{}] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].source.pointer).toBe('/data/attributes/contacts/0');
    const role = await t.send('POST', '/parties', {
      data: { attributes: { company_name: 'Odd Role', roles: ['pilot'] } },
    });
    expect(role.status).toBeGreaterThanOrEqual(400);
    expect(role.status).toBeLessThan(500);
    const names = (await t.get('/parties')).body.data.map((p: any) => p.attributes.company_name);
    expect(names).not.toContain('Bad Scac');
    expect(names).not.toContain('Odd Role');
  });

  it('assigns a trucker to several containers at once and moves their updated_at', async () => {
    const dray = (await t.get('/parties?filter[role]=trucker')).body.data[0].id;
    const [a, b] = mine.containers;
    const before = (await t.get(`/containers/${a!.id}`)).body.data.attributes.updated_at;
    t.clock.advance(60_000);
    const res = await assign([
      { id: a!.id, trucker: dray },
      { id: b!.id, trucker: dray },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((c: any) => c.relationships.trucker.data)).toEqual([
      { type: 'party', id: dray },
      { type: 'party', id: dray },
    ]);
    const after = (await t.get(`/containers/${a!.id}`)).body.data;
    expect(after.relationships.trucker.data.id).toBe(dray);
    expect(after.attributes.updated_at > before).toBe(true);
    // Incremental sync finds the change.
    const changed = await t.get(`/containers?filter[updated_at][start]=${before}`);
    expect(changed.body.data.map((c: any) => c.id)).toEqual(expect.arrayContaining([a!.id, b!.id]));
    // Ref numbers are untouched by an assignment.
    expect(after.attributes.ref_numbers).toEqual(
      (await t.get(`/containers/${b!.id}`)).body.data.attributes.ref_numbers,
    );
  });

  it('refuses a customer as trucker, another account’s party or box, all or nothing', async () => {
    const dray = (await t.get('/parties?filter[role]=trucker')).body.data[0].id;
    const customer = (await t.get('/parties')).body.data.find(
      (p: any) => p.attributes.company_name === 'Harbour Foods',
    ).id;
    const [a, b] = mine.containers;
    await assign([{ id: a!.id, trucker: null }]);

    const notTrucker = await assign([
      { id: a!.id, trucker: dray },
      { id: b!.id, trucker: customer },
    ]);
    expect(notTrucker.status).toBe(422);
    expect(notTrucker.body.errors[0].source.pointer).toBe('/data/1/relationships/trucker/data/id');
    expect((await t.get(`/containers/${a!.id}`)).body.data.relationships.trucker.data).toBeNull();

    const theirTrucker = (await trucker('Their Dray', {}, t.keyB)).body.data.id;
    const foreign = await assign([{ id: a!.id, trucker: theirTrucker }]);
    expect(foreign.status).toBe(422);
    const foreignBox = await assign([
      { id: a!.id, trucker: dray },
      { id: theirs.containers[0]!.id, trucker: dray },
    ]);
    expect(foreignBox.status).toBe(404);
    expect(foreignBox.body.errors[0].source.pointer).toBe('/data/1/id');
    expect((await t.get(`/containers/${a!.id}`)).body.data.relationships.trucker.data).toBeNull();

    const nothing = await t.send('PATCH', '/containers', {
      data: { type: 'container', id: a!.id },
    });
    expect(nothing.status).toBe(422);
  });

  it('assigns a whole shipment, and the real API’s ref number edit still works', async () => {
    const dray = (await t.get('/parties?filter[role]=trucker')).body.data[0].id;
    const res = await t.send('PATCH', `/shipments/${mine.shipment.id}`, {
      data: { attributes: {}, relationships: { trucker: { data: { type: 'party', id: dray } } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const c of mine.containers) {
      expect((await t.get(`/containers/${c.id}`)).body.data.relationships.trucker.data.id).toBe(
        dray,
      );
    }
    const refs = await t.send('PATCH', '/containers', {
      data: { type: 'container', id: mine.containers[0]!.id, attributes: { ref_numbers: ['R1'] } },
    });
    expect(refs.status).toBe(200);
    expect(refs.body.data.attributes.ref_numbers).toEqual(['R1']);
    expect(refs.body.data.relationships.trucker.data.id).toBe(dray);
  });

  it('marks the additions as extensions in the served OpenAPI document', async () => {
    const doc = (await t.get('/openapi.json')).body;
    const text = JSON.stringify(doc);
    const partyList = doc.paths['/parties'].get.parameters.find(
      (p: any) => p.name === 'filter[role]',
    );
    expect(partyList.schema['x-quayside-extension']).toBe(true);
    expect(text).toContain('The trucker (a party) the box is assigned to.');
  });
});
