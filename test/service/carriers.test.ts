/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
/**
 * Carriers as the real world has them: every line the real service lists is known to Quayside,
 * with the kinds of number it is tracked by; a carrier that wants a static key header next to an
 * OAuth2 token (Maersk's Consumer-Key) is tracked through one composed auth block, end to end,
 * with its own codes and places outside the reference data kept as it sent them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service';
import { createAuthenticator } from '../../src/service/feeds/auth';
import { loadFeedsFile } from '../../src/service/feeds/config';
import { DcsaClient } from '../../src/service/feeds/dcsa/client';
import { ManualClock } from '../../src/shared/clock';
import { applyFeedAnswer, harborTerminalAnswer } from '../support/feed-answers';
import { CONTAINER, journeyEvents } from './feeds/dcsa/fixtures';
import { sendJson, startServer, type TestServer } from '../support/http-server';
import { seedShipment, startTestService, type TestService } from '../support/service';

const REFERENCE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../resources/reference',
);

/** Every line the real service's `GET /v2/shipping_lines` answers (a recorded response). */
const REAL_SERVICE_SCACS = [
  'ACLU', 'ANNU', 'APLU', 'ARKU', 'CHVW', 'CLAM', 'CMDU', 'COSU', 'CULU', 'EGLV', 'GOSU', 'HDMU',
  'HDUJ', 'HLCU', 'IILU', 'MAEU', 'MATS', 'MSCU', 'ONEY', 'OOLU', 'PCIU', 'SAFM', 'SEAU', 'SEJJ',
  'SMLM', 'SMLU', 'SQQY', 'SSBF', 'SSPH', 'TEST', 'TJFH', 'TRBR', 'TRKU', 'TXZJ', 'WDSB', 'WHLC',
  'YMLU', 'ZIMU',
]; // prettier-ignore

describe('the lines the real service lists', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({}, REFERENCE_DIR);
  });
  afterAll(async () => {
    await t.close();
  });

  it('knows every SCAC (as its own or an alternative), with names and bill of lading prefixes', async () => {
    const res = await t.get('/shipping_lines?page[size]=100');
    expect(res.status).toBe(200);
    const lines = res.body.data as any[];
    const known = new Map<string, any>();
    for (const line of lines) {
      known.set(line.attributes.scac, line);
      for (const alt of line.attributes.alternative_scacs) known.set(alt, line);
    }
    const missing = REAL_SERVICE_SCACS.filter((scac) => !known.has(scac));
    expect(missing).toEqual([]);
    for (const scac of REAL_SERVICE_SCACS) {
      const line = known.get(scac);
      expect(line.attributes.name.length, scac).toBeGreaterThan(1);
      expect(line.attributes.short_name.length, scac).toBeGreaterThan(1);
    }
    // PIL is listed by the real service as PCIU: the same line as Quayside's PABV.
    expect(known.get('PCIU').attributes.scac).toBe('PABV');
  });

  it('lists every SCAC it knows, each with the kinds of number it is tracked by', async () => {
    const res = await t.get('/shipping_lines?page[size]=100');
    const lines = res.body.data as any[];
    const scacs = lines.flatMap((l) => [l.attributes.scac, ...l.attributes.alternative_scacs]);
    expect(new Set(scacs).size).toBe(scacs.length);
    // The real service's 38, plus PIL's own PABV, Hamburg Süd and two alternatives.
    expect(scacs.sort()).toEqual([...REAL_SERVICE_SCACS, 'MAEI', 'PABV', 'SUDU', 'YMJA'].sort());
    expect(scacs).toHaveLength(42);
    const kinds = (scac: string) => {
      const a = lines.find((l) => l.attributes.scac === scac).attributes;
      return [
        a.bill_of_lading_tracking_support && 'bill_of_lading',
        a.booking_number_tracking_support && 'booking_number',
        a.container_number_tracking_support && 'container',
      ].filter(Boolean);
    };
    expect(kinds('MAEU')).toEqual(['bill_of_lading', 'booking_number', 'container']);
    expect(kinds('HDMU')).toEqual(['bill_of_lading', 'booking_number']);
    for (const l of lines)
      expect(kinds(l.attributes.scac).length, l.attributes.scac).toBeGreaterThan(0);
  });

  it('refuses a request of a kind of number the line is not tracked by, at request_type', async () => {
    const res = await t.send('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: { request_type: 'container', request_number: 'HMMU6012345', scac: 'HDMU' },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'Unprocessable Entity',
        detail:
          "Request type 'container' is not supported for HMM (HDMU): it is tracked by bill of lading or booking number",
        code: 'unsupported',
        source: { pointer: '/data/attributes/request_type' },
      },
    ]);
    const byBill = await t.send('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: {
          request_type: 'bill_of_lading',
          request_number: 'HDMUSEL1234567',
          scac: 'HDMU',
        },
      },
    });
    expect(byBill.status).toBe(201);
  });

  it("keeps a terminal's own place outside the reference data by its code and the terminal's name", async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDUPLACE01');
    const containerId = seeded.containers[0]!.id;
    await applyFeedAnswer(t.service.store, containerId, {
      terminal: harborTerminalAnswer({
        facility: {
          // A kind and a place the contract and the reference data do not list.
          kind: 'off_dock_yard',
          firms_code: null,
          smdg_code: null,
          name: 'Zeta Off-Dock Yard',
          locode: 'USZZY',
          time_zone: 'America/Los_Angeles',
        },
        discharged_at: '2026-01-09T08:00:00Z',
      }),
    });
    const events = (await t.get(`/containers/${containerId}/transport_events`)).body.data as any[];
    const discharged = events.find(
      (e) => e.attributes.event === 'container.transport.vessel_discharged',
    );
    expect(discharged.attributes).toMatchObject({
      location_locode: 'USZZY',
      location_name: 'Zeta Off-Dock Yard',
      data_source: 'terminal',
    });
    expect(discharged.relationships.location.data).toBeNull();
  });

  it("infers Evergreen's and COSCO's bills of lading by their real prefixes", async () => {
    for (const [number, scac] of [
      ['EGLV142300012345', 'EGLV'],
      ['COSU6312345670', 'COSU'],
    ]) {
      const res = await t.send('POST', '/tracking_requests/infer_number', { number });
      expect(res.status, number).toBe(200);
      expect(res.body.data.attributes.number_type, number).toBe('bill_of_lading');
      expect(res.body.data.attributes.shipping_line.candidates[0].scac, number).toBe(scac);
    }
  });

  it('has a valid sample feeds entry for each line with a DCSA track and trace API', () => {
    const sample = path.resolve(REFERENCE_DIR, '../feeds/carriers.sample.yaml');
    const names = [...readFileSync(sample, 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map(
      (m) => m[1]!,
    );
    const env = Object.fromEntries(
      names.map((name) => [
        name,
        name.endsWith('_URL') ? `https://${name.toLowerCase()}.example` : 'x',
      ]),
    );
    const config = loadFeedsFile(sample, { env, readFile: () => '' });
    expect(config.carriers.map((c) => c.scac).sort()).toEqual([
      'CMDU',
      'COSU',
      'EGLV',
      'HDMU',
      'HLCU',
      'MAEU',
      'MSCU',
      'ONEY',
      'OOLU',
      'YMLU',
      'ZIMU',
    ]);
    // Maersk's entry composes its key header with the OAuth2 token.
    const maersk = config.carriers.find((c) => c.scac === 'MAEU')!.auth;
    expect(maersk.type).toBe('oauth2_client_credentials');
    expect(Object.keys((maersk as { headers?: object }).headers ?? {})).toEqual(['Consumer-Key']);
  });
});

describe('a carrier that wants a key header next to an OAuth2 token', () => {
  const KEY = 'consumer-key-123';
  let issued = 0;
  let carrier: TestServer;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'quayside-carriers-'));
    carrier = await startServer((req, res) => {
      if (req.method === 'POST' && req.url.pathname === '/oauth2/token') {
        const form = new URLSearchParams(req.body);
        if (form.get('client_id') !== 'app-id' || form.get('client_secret') !== 'app-secret') {
          sendJson(res, 401, { error: 'invalid_client' });
          return;
        }
        issued++;
        sendJson(res, 200, { access_token: `token-${issued}`, expires_in: 3600 });
        return;
      }
      if (req.url.pathname === '/tnt/v2/events') {
        const hasToken = req.headers.authorization === `Bearer token-${issued}` && issued > 0;
        if (!hasToken || req.headers['consumer-key'] !== KEY) {
          sendJson(res, 401, { message: 'both the Consumer-Key and a token are required' });
          return;
        }
        sendJson(res, 200, journeyEvents());
        return;
      }
      sendJson(res, 404, {});
    });
  });
  afterAll(async () => {
    await carrier.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const ENV = {
    MAEU_CLIENT_ID: 'app-id',
    MAEU_CLIENT_SECRET: 'app-secret',
    MAEU_CONSUMER_KEY: KEY,
  };
  const noFiles = () => {
    throw new Error('no files');
  };
  /** The carrier's entry as an operator writes it in the feeds file. */
  const feedsFile = (extraHeaders: string) => {
    const file = path.join(tmp, `feeds-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(
      file,
      [
        'carriers:',
        '  MAEU:',
        `    dcsa: ${carrier.baseUrl}/tnt`,
        '    auth:',
        '      type: oauth2_client_credentials',
        `      token_url: ${carrier.baseUrl}/oauth2/token`,
        '      client_id: ${MAEU_CLIENT_ID}',
        '      client_secret: ${MAEU_CLIENT_SECRET}',
        extraHeaders,
        '',
      ].join('\n'),
    );
    return file;
  };
  const clientFor = (extraHeaders: string) => {
    const maersk = loadFeedsFile(feedsFile(extraHeaders), { env: ENV, readFile: noFiles })
      .carriers[0]!;
    return new DcsaClient('MAEU', {
      baseUrl: maersk.dcsaBaseUrl,
      signer: createAuthenticator(maersk.auth),
    });
  };
  const WITH_KEY = "      headers: { Consumer-Key: '${MAEU_CONSUMER_KEY}' }";

  it('tracks with both: the static header and the token', async () => {
    const found = await clientFor(WITH_KEY).lookup({
      kind: 'equipmentReference',
      value: CONTAINER,
    });
    expect(found.outcome).toBe('found');
    const events = carrier.requests.filter((r) => r.url.pathname === '/tnt/v2/events');
    expect(events.at(-1)!.headers['consumer-key']).toBe(KEY);
    expect(events.at(-1)!.headers.authorization).toMatch(/^Bearer token-\d+$/);
  });

  it('is refused with the token alone', async () => {
    const refused = await clientFor('').lookup({ kind: 'equipmentReference', value: CONTAINER });
    expect(refused.outcome).toBe('rejected');
  });

  it('refuses an Authorization header next to a credential in the feeds file', () => {
    const file = feedsFile("      headers: { Authorization: 'Bearer x' }");
    expect(() => loadFeedsFile(file, { env: ENV, readFile: noFiles })).toThrow(
      /headers\/Authorization: the credential of this block sets Authorization/,
    );
  });
});

describe('a service tracking a container through a carrier that wants a key header and a token', () => {
  const KEY = 'consumer-key-e2e';
  const TOKEN = 'token-e2e';
  let tokensIssued = 0;
  let refusedEvents = 0;
  let carrier: TestServer;
  let service: RunningService;
  let dataDir: string;

  /** The line's answer in the recorded shape: the journey to Los Angeles, then its own ways. */
  const answer = () => [
    ...journeyEvents().filter((e) => e.eventDateTime <= '2026-02-03T04:00:00Z'),
    {
      eventID: 'own-code',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      eventCreatedDateTime: '2026-02-03T06:00:00Z',
      eventDateTime: '2026-02-03T06:00:00Z',
      equipmentEventTypeCode: 'WASH',
      equipmentReference: CONTAINER,
      emptyIndicatorCode: 'LADEN',
      transportCall: {
        transportCallID: 'TC-LAX',
        UNLocationCode: 'USLAX',
        modeOfTransport: 'TRUCK',
      },
    },
    {
      eventID: 'inland-depot',
      eventType: 'TRANSPORT',
      eventClassifierCode: 'ACT',
      eventCreatedDateTime: '2026-02-04T09:00:00Z',
      eventDateTime: '2026-02-04T09:00:00Z',
      transportEventTypeCode: 'ARRI',
      transportCall: {
        transportCallID: 'TC-ZZD',
        UNLocationCode: 'USZZD',
        facilityTypeCode: 'DEPO',
        modeOfTransport: 'TRUCK',
        location: { locationName: 'Zeeland Inland Depot', UNLocationCode: 'USZZD' },
      },
    },
    {
      eventID: 'timeless',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'GTIN',
      equipmentReference: CONTAINER,
    },
  ];

  beforeAll(async () => {
    carrier = await startServer((req, res) => {
      if (req.method === 'POST' && req.url.pathname === '/oauth2/token') {
        const form = new URLSearchParams(req.body);
        if (form.get('grant_type') !== 'client_credentials' || form.get('client_secret') !== 's') {
          sendJson(res, 401, { error: 'invalid_client' });
          return;
        }
        tokensIssued++;
        sendJson(res, 200, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 });
        return;
      }
      if (req.url.pathname === '/dcsa/v2/events') {
        if (
          req.headers.authorization !== `Bearer ${TOKEN}` ||
          req.headers['consumer-key'] !== KEY
        ) {
          refusedEvents++;
          sendJson(res, 401, { message: 'both the Consumer-Key and a token are required' });
          return;
        }
        sendJson(
          res,
          200,
          req.url.searchParams.get('equipmentReference') === CONTAINER ? answer() : [],
        );
        return;
      }
      sendJson(res, 404, {});
    });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'quayside-carrier-e2e-'));
    const file = path.join(dataDir, 'feeds.yaml');
    writeFileSync(
      file,
      [
        'carriers:',
        '  MAEU:',
        `    dcsa: ${carrier.baseUrl}/dcsa`,
        '    import_deadlines: false',
        '    auth:',
        '      type: oauth2_client_credentials',
        `      token_url: ${carrier.baseUrl}/oauth2/token`,
        '      client_id: c',
        '      client_secret: ${E2E_CLIENT_SECRET}',
        "      headers: { Consumer-Key: '${E2E_CONSUMER_KEY}' }",
        '',
      ].join('\n'),
    );
    const feeds = loadFeedsFile(file, {
      env: { E2E_CLIENT_SECRET: 's', E2E_CONSUMER_KEY: KEY },
      readFile: () => '',
    });
    service = await startService({
      dataDir,
      port: 0,
      clock: new ManualClock(Date.UTC(2026, 1, 5)),
      feeds,
      referenceDir: REFERENCE_DIR,
    });
  });
  afterAll(async () => {
    await service?.close();
    await carrier?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, p: string, body?: unknown): Promise<any> {
    const res = await fetch(`${service.baseUrl}${p}`, {
      method,
      headers: {
        Authorization: `Token ${service.initialKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  it('lands the line events, keeping its own codes and places as sent', async () => {
    const created = await call('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: { request_type: 'container', request_number: CONTAINER, scac: 'MAEU' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await service.engine!.drain();
    const request = (await call('GET', `/tracking_requests/${created.body.data.id}`)).body.data;
    expect(request.attributes.status, JSON.stringify(request.attributes)).toBe('created');
    expect(tokensIssued).toBe(1);
    expect(refusedEvents).toBe(0);

    const shipmentId = request.relationships.tracked_object.data.id;
    const shipment = await call('GET', `/shipments/${shipmentId}?include=containers`);
    const containerId = shipment.body.included[0].id;
    const events = (await call('GET', `/containers/${containerId}/transport_events`)).body.data;
    const byName = (name: string) =>
      events.find((e: any) => e.attributes.event === `container.transport.${name}`);
    expect(byName('vessel_loaded').attributes.location_locode).toBe('CNSHA');
    expect(byName('vessel_discharged').attributes.location_locode).toBe('USLAX');
    // An inland depot outside the reference data keeps its code and the line's name for it.
    const depot = byName('arrived_at_inland_destination');
    expect(depot.attributes).toMatchObject({
      location_locode: 'USZZD',
      location_name: 'Zeeland Inland Depot',
    });
    expect(depot.relationships.location.data).toBeNull();
    expect(byName('vessel_discharged').attributes.location_name).toBeNull();

    const raw = (await call('GET', `/containers/${containerId}/raw_events`)).body.data;
    const original = raw.map((e: any) => e.attributes.original_event);
    expect(original).toContain('EQUIPMENT/WASH');
    expect(
      raw.find((e: any) => e.attributes.original_event === 'EQUIPMENT/WASH').attributes.event,
    ).toBeNull();
    expect(
      raw.find((e: any) => e.attributes.location_locode === 'USZZD').attributes.location_name,
    ).toBe('Zeeland Inland Depot');
  });

  it('tells the event without a time once, on /healthz, however often the line sends it', async () => {
    const containers = (await call('GET', '/containers')).body.data;
    const refresh = await call('PATCH', `/containers/${containers[0].id}/refresh`);
    expect(refresh.status, JSON.stringify(refresh.body)).toBeLessThan(300);
    await service.engine!.drain();
    const health = (await (
      await fetch(`${new URL(service.baseUrl).origin}/healthz`)
    ).json()) as any;
    expect(health.skipped_records).toEqual([
      {
        source: 'MAEU',
        kind: 'carrier',
        count: 1,
        last: {
          type: 'EQUIPMENT',
          id: 'timeless',
          reason: 'no readable eventDateTime (null)',
          at: expect.any(String),
        },
      },
    ]);
    const lookups = carrier.requests.filter((r) => r.url.pathname === '/dcsa/v2/events');
    expect(lookups.length).toBeGreaterThanOrEqual(2);
  });
});
