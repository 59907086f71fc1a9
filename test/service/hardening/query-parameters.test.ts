/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk untyped response bodies */
/**
 * Query parameters that name built-in object properties or carry numeric extremes get a 400
 * naming the parameter, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../../support/service';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
  await seedShipment(t, t.accountA, 'MEDUAA0001');
});
afterAll(async () => t?.close());

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];
const INCLUDE_ROUTES = [
  '/shipments',
  '/containers',
  '/tracking_requests',
  '/webhook_notifications',
];

describe('include', () => {
  it('refuses built-in property names with a 400 naming the parameter', async () => {
    for (const route of INCLUDE_ROUTES) {
      for (const name of [...PROTOTYPE_NAMES, `shipment.${PROTOTYPE_NAMES[0]}`]) {
        const res = await t.get(`${route}?include=${encodeURIComponent(name)}`);
        expect(res.status, `${route} include=${name}`).toBe(400);
        expect(res.body.errors[0].source).toEqual({ parameter: 'include' });
      }
    }
  });

  it('still resolves real relationships', async () => {
    const res = await t.get('/shipments?include=containers');
    expect(res.status).toBe(200);
    expect(res.body.included.some((r: any) => r.type === 'container')).toBe(true);
  });
});

describe('page bounds', () => {
  it('answers huge page numbers with a 400 naming page[number]', async () => {
    for (const value of ['307445734561825861', '1e308', '9007199254740993', '1000001']) {
      const res = await t.get(`/shipments?page[number]=${value}`);
      expect(res.status, `page[number]=${value}`).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter: 'page[number]' });
    }
  });

  it('truncates huge page sizes and still pages normally at the bound', async () => {
    const big = await t.get('/shipments?page[size]=1e308');
    expect(big.status).toBe(200);
    const last = await t.get('/shipments?page[number]=1000000');
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
  });
});
