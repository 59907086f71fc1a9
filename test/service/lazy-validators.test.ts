/**
 * Route validators are built on each route's first request (api/lazy-validators.ts): the first
 * request is checked as every later one, and every route's schemas still compile.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../support/service';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});

afterAll(async () => {
  await t?.close();
});

describe('route validators built on first use', () => {
  it("checks a route's very first request against its schema, with a JSON:API error", async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000301');
    const edit = (refNumbers: unknown) =>
      t.send('PATCH', `/shipments/${seeded.shipment.id}`, {
        data: { type: 'shipment', attributes: { ref_numbers: refNumbers } },
      });
    const refused = await edit([{ po: 1 }]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].status).toBe('422');
    expect(refused.body.errors[0].source.pointer).toMatch(/^\/data\/attributes\/ref_numbers/);
    expect((await edit(['PO-1'])).status).toBe(200);
    expect((await edit([{ po: 2 }])).status).toBe(422);
  });

  it("builds every route's validators when asked, and each only once", async () => {
    const built = t.service.app.validators.buildAll();
    // Params, query strings and bodies of the /v2 routes: well over a hundred.
    expect(built).toBeGreaterThan(100);
    expect(t.service.app.validators.buildAll()).toBe(0);
    expect((await t.get('/containers?page[size]=5')).status).toBe(200);
  });

  it('has route schemas that are all valid JSON Schema (the service does not check them itself)', () => {
    const metaCheck = new Ajv({ strict: false });
    addFormats(metaCheck);
    const schemas = t.service.app.validators.schemas();
    expect(schemas.length).toBeGreaterThan(100);
    const invalid = schemas.filter(({ schema }) => !metaCheck.validateSchema(schema as object));
    expect(invalid.map((s) => `${s.method} ${s.url} ${s.httpPart}`)).toEqual([]);
    // The check itself refuses a schema that is not JSON Schema.
    expect(metaCheck.validateSchema({ type: 'strng' })).toBe(false);
  });
});
