/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk untyped response bodies */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import {
  InferNumberDocument,
  MetroAreaDocument,
  PortDocument,
  ShippingLineDocument,
  ShippingLineListDocument,
  TerminalDocument,
  VesselDocument,
} from '../../src/shared/api';
import { SHIPPED_REFERENCE_DIR } from '../../src/service';
import { referenceId } from '../../src/service/store/reference';
import { checkDigit } from '../../src/shared/iso6346';
import { startTestService, type TestService } from '../support/service';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('rate limits', () => {
  it('limits requests per account on a rolling minute of real time with Retry-After', async () => {
    t = await startTestService({ requestsPerMinute: 3 });
    const secondKeyOfA = await t.service.store.accounts.createKey(t.accountA);
    for (let i = 0; i < 2; i++) expect((await t.get('/shipments')).status).toBe(200);
    // Another key of the same account shares the budget.
    expect((await t.get('/shipments', secondKeyOfA)).status).toBe(200);
    const limited = await t.get('/shipments', secondKeyOfA);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.body.errors[0]).toMatchObject({ status: '429', title: 'Too Many Requests' });
    // Another account has its own budget.
    expect((await t.get('/shipments', t.keyB)).status).toBe(200);
    // Simulated time running ahead does not open the window.
    t.clock.advance(24 * 3600_000);
    expect((await t.get('/shipments')).status).toBe(429);
    t.wallClock.advance(30_000);
    expect((await t.get('/shipments')).headers.get('retry-after')).toBe('30');
    t.wallClock.advance(30_001);
    expect((await t.get('/shipments')).status).toBe(200);
  });

  it('limits failed authentication per client address, even for a right key meanwhile', async () => {
    t = await startTestService({ failedAuthPerMinute: 3 });
    for (let i = 0; i < 3; i++)
      expect((await t.get('/shipments', `qs_guess${i}`)).status).toBe(401);
    const blocked = await t.get('/shipments', 'qs_guess3');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('60');
    expect(blocked.body.errors[0]).toMatchObject({ status: '429', title: 'Too Many Requests' });
    expect((await t.get('/shipments')).status).toBe(429);
    t.clock.advance(24 * 3600_000);
    expect((await t.get('/shipments')).status).toBe(429);
    t.wallClock.advance(60_001);
    expect((await t.get('/shipments')).status).toBe(200);
  });

  it('limits tracking request creation separately', async () => {
    t = await startTestService({ trackingRequestsPerMinute: 2 });
    const create = (n: string) =>
      t!.send('POST', '/tracking_requests', {
        data: {
          type: 'tracking_request',
          attributes: { request_type: 'bill_of_lading', request_number: n, scac: 'MSCU' },
        },
      });
    expect((await create('MEDU1')).status).toBe(201);
    expect((await create('MEDU2')).status).toBe(201);
    const third = await create('MEDU3');
    expect(third.status).toBe(429);
    expect(third.body.errors[0].detail).toContain('create tracking requests limit');
    expect((await t.get('/tracking_requests')).status).toBe(200);
  });
});

describe('reference data', () => {
  it('serves ports, metro areas, terminals, vessels and lines by id and natural key', async () => {
    t = await startTestService();
    const byCode = await t.get('/ports/USLAX');
    expect(Value.Check(PortDocument, byCode.body)).toBe(true);
    expect(byCode.body.data.id).toBe(referenceId('port', 'USLAX'));
    expect((await t.get(`/ports/${byCode.body.data.id}`)).body.data.attributes.code).toBe('USLAX');
    expect(Value.Check(MetroAreaDocument, (await t.get('/metro_areas/USCHI')).body)).toBe(true);
    const terminal = await t.get(`/terminals/${referenceId('terminal', 'Y258')}`);
    expect(Value.Check(TerminalDocument, terminal.body)).toBe(true);
    expect(terminal.body.data.attributes).not.toHaveProperty('bic_facility_code');
    const vessel = await t.get('/vessels/9839430');
    expect(Value.Check(VesselDocument, vessel.body)).toBe(true);
    expect((await t.get(`/vessels/${vessel.body.data.id}`)).body.data.attributes.name).toBe(
      'MSC GULSUN',
    );
    const lines = await t.get('/shipping_lines');
    expect(Value.Check(ShippingLineListDocument, lines.body)).toBe(true);
    expect(lines.body.data.map((l: any) => l.attributes.scac)).toEqual(['MAEU', 'MSCU', 'UALC']);
    expect(Value.Check(ShippingLineDocument, (await t.get('/shipping_lines/MEDU')).body)).toBe(
      true,
    );
    expect((await t.get('/ports/ZZZZZ')).status).toBe(404);
  });

  it('keeps reference ids stable across restarts', async () => {
    t = await startTestService();
    const first = (await t.get('/ports/CNSHA')).body.data.id;
    await t.service.close();
    const again = await startTestService();
    try {
      expect((await again.get('/ports/CNSHA')).body.data.id).toBe(first);
    } finally {
      await again.close();
    }
    fs.rmSync(t.dataDir, { recursive: true, force: true });
    t = undefined;
  });

  it.skipIf(!fs.existsSync(path.join(SHIPPED_REFERENCE_DIR, 'ports.json')))(
    'loads the shipped reference files',
    async () => {
      t = await startTestService({}, SHIPPED_REFERENCE_DIR);
      const ports = JSON.parse(
        fs.readFileSync(path.join(SHIPPED_REFERENCE_DIR, 'ports.json'), 'utf8'),
      );
      const res = await t.get(`/ports/${ports[0].locode}`);
      expect(res.status).toBe(200);
      expect(Value.Check(PortDocument, res.body)).toBe(true);
      const lines = await t.get('/shipping_lines');
      expect(lines.body.data.length).toBeGreaterThan(0);
      expect(Value.Check(ShippingLineListDocument, lines.body)).toBe(true);
    },
  );
});

describe('infer_number', () => {
  const infer = (number: string) =>
    t!.send(
      'POST',
      '/tracking_requests/infer_number',
      { number },
      { contentType: 'application/json' },
    );

  it('recognises container numbers by owner code and check digit', async () => {
    t = await startTestService();
    const base = 'MSCU123456';
    const valid = `${base}${checkDigit(base)}`;
    const res = await infer(valid);
    expect(res.status).toBe(200);
    expect(Value.Check(InferNumberDocument, res.body)).toBe(true);
    expect(res.body.data.attributes.number_type).toBe('container');
    expect(res.body.data.attributes.validation.check_digit_passed).toBe(true);
    expect(res.body.data.attributes.shipping_line).toMatchObject({
      decision: 'auto_select',
      selected: { scac: 'MSCU', confidence: 1 },
    });
    const typo = await infer(`${base}${(checkDigit(base) + 1) % 10}`);
    expect(typo.body.data.attributes.validation.check_digit_passed).toBe(false);
    expect(typo.body.data.attributes.shipping_line.decision).toBe('needs_confirmation');
    expect(typo.body.data.attributes.validation.reason).toBe(
      `check digit should be ${checkDigit(base)}`,
    );
    // A fourth letter other than U, J or Z is not a container's category, whatever the digit.
    const body = 'MSCX123456';
    const category = await infer(`${body}${checkDigit(body)}`);
    expect(category.body.data.attributes.validation).toMatchObject({
      is_valid: false,
      check_digit_passed: false,
      reason: 'the fourth letter of a container number is U, J or Z',
    });
  });

  it('recognises bill of lading and booking prefixes, and refuses garbage', async () => {
    t = await startTestService();
    const bl = await infer('MAEU123456789');
    expect(bl.body.data.attributes).toMatchObject({
      number_type: 'bill_of_lading',
      shipping_line: { decision: 'auto_select', selected: { scac: 'MAEU' } },
    });
    const booking = await infer('212345678');
    expect(booking.body.data.attributes).toMatchObject({
      number_type: 'booking',
      shipping_line: { decision: 'needs_confirmation' },
    });
    const unknown = await infer('ZZZZ12345');
    expect(unknown.body.data.attributes.shipping_line).toMatchObject({
      decision: 'no_prediction',
      selected: null,
    });
    const garbage = await infer('??');
    expect(garbage.status).toBe(422);
    expect((await infer('')).status).toBe(422);
  });
});

describe('openapi', () => {
  it('serves the generated document with the sync extension marked', async () => {
    t = await startTestService();
    const res = await fetch(`${t.baseUrl}/openapi.json`);
    const doc = (await res.json()) as any;
    expect(doc.paths['/containers/{id}/transport_events']).toBeDefined();
    expect(doc.paths['/tracking_requests'].post).toBeDefined();
    const params = doc.paths['/shipments'].get.parameters;
    const updated = params.find((p: any) => p.name === 'filter[updated_at][start]');
    expect(JSON.stringify(updated)).toContain('x-quayside-extension');
  });
});
