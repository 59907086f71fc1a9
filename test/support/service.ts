/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../src/shared/clock';
import {
  startService,
  type RunningService,
  type ServiceConfig,
  type ServiceOptions,
} from '../../src/service';
import { testDatabase } from './store-kinds';

export const FIXTURE_REFERENCE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/service/reference',
);

export interface TestService {
  service: RunningService;
  baseUrl: string;
  clock: ManualClock;
  /** Real time as the request limits see it. */
  wallClock: ManualClock;
  keyA: string;
  keyB: string;
  accountA: string;
  accountB: string;
  dataDir: string;
  /** The PostgreSQL database in the `postgres` project (a restart passes it again). */
  database: ServiceOptions['database'];
  get(pathAndQuery: string, key?: string): Promise<{ status: number; body: any; headers: Headers }>;
  send(
    method: string,
    pathAndQuery: string,
    body: unknown,
    options?: { key?: string; contentType?: string },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * A real service on 127.0.0.1:0 over a temp SQLite file (or a fresh PostgreSQL database in the
 * `postgres` test project, with `database` options over the defaults), with two accounts A
 * (routing) and B.
 */
export async function startTestService(
  config: Partial<ServiceConfig> = {},
  referenceDir = FIXTURE_REFERENCE_DIR,
  database: Parameters<typeof testDatabase>[0] = {},
): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-service-'));
  const clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  const wallClock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  const storeOptions = await testDatabase(database);
  const service = await startService({
    dataDir,
    database: storeOptions,
    host: '127.0.0.1',
    port: 0,
    clock,
    wallClock,
    referenceDir,
    config: {
      requestsPerMinute: 10_000,
      trackingRequestsPerMinute: 10_000,
      failedAuthPerMinute: 10_000,
      ...config,
    },
  });
  const { accounts } = service.store;
  const a = (await accounts.primary())!;
  await accounts.setRouting(a.id, true);
  const b = await accounts.create('other');
  const keyA = service.initialKey!;
  const keyB = await accounts.createKey(b.id);
  const parse = async (res: Response) => {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text for the assertion message
    }
    return { status: res.status, body, headers: res.headers };
  };
  return {
    service,
    baseUrl: service.baseUrl,
    clock,
    wallClock,
    keyA,
    keyB,
    accountA: a.id,
    accountB: b.id,
    dataDir,
    database: storeOptions,
    get: async (p, key = keyA) =>
      parse(await fetch(service.baseUrl + p, { headers: { Authorization: `Token ${key}` } })),
    send: async (method, p, body, options = {}) =>
      parse(
        await fetch(service.baseUrl + p, {
          method,
          headers: {
            Authorization: `Token ${options.key ?? keyA}`,
            'Content-Type': options.contentType ?? 'application/vnd.api+json',
          },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    async close() {
      await service.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Seeds one shipment with two containers, events and raw events, as the tracking engine would. */
export async function seedShipment(t: TestService, accountId: string, bl: string) {
  const { tracking } = t.service.store;
  const request = await tracking.createTrackingRequest(accountId, {
    requestType: 'bill_of_lading',
    requestNumber: bl,
    scac: 'MSCU',
  });
  const shipment = await tracking.createShipment(accountId, {
    billOfLadingNumber: bl,
    scac: 'MSCU',
    refNumbers: [`PO-${bl}`],
    portOfLadingLocode: 'CNSHA',
    portOfDischargeLocode: 'USLAX',
    destinationLocode: 'USCHI',
    podTerminalFirmsCode: 'Y258',
    destinationTerminalFirmsCode: 'H572',
    podVesselImo: '9839430',
    podVesselName: 'MSC GULSUN',
    podVoyageNumber: '123E',
    polAtdAt: '2026-01-02T08:00:00.000Z',
    podEtaAt: '2026-01-20T08:00:00.000Z',
  });
  await tracking.setTrackingRequestStatus(request.id, 'created', { shipmentId: shipment.id });
  const containers = [];
  for (const number of ['MSCU1234565', 'MEDU7654321']) {
    const c = await tracking.createContainer(accountId, shipment.id, {
      number: `${number.slice(0, 4)}${bl.slice(-3)}${number.slice(7)}`,
      equipmentType: 'dry',
      equipmentLength: 40,
      equipmentHeight: 'high_cube',
      currentStatus: 'on_ship',
      podTerminalFirmsCode: 'Y258',
      podTimezone: 'America/Los_Angeles',
      holds: [{ name: 'customs', status: 'hold', description: null }],
      fees: [{ type: 'demurrage', amount: 150, currency_code: 'USD' }],
      importDeadlines: { pickup_lfd_terminal: '2026-01-25T08:00:00.000Z' },
    });
    await tracking.addTransportEvent(c.id, {
      event: 'container.transport.vessel_loaded',
      dataSource: 'shipping_line',
      timestamp: '2026-01-01T10:00:00.000Z',
      locationLocode: 'CNSHA',
      vesselImo: '9839430',
      voyageNumber: '123E',
    });
    t.clock.advance(1000);
    await tracking.addTransportEvent(c.id, {
      event: 'container.transport.vessel_departed',
      dataSource: 'shipping_line',
      timestamp: '2026-01-02T08:00:00.000Z',
      locationLocode: 'CNSHA',
      vesselImo: '9839430',
      voyageNumber: '123E',
    });
    await tracking.replaceRawEvents(c.id, [
      {
        event: 'vessel_loaded',
        originalEvent: 'Loaded on vessel',
        timestamp: '2026-01-01T10:00:00.000Z',
        estimated: false,
        locationLocode: 'CNSHA',
        locationName: 'Shanghai',
        vesselImo: '9839430',
        vesselName: 'MSC GULSUN',
      },
      {
        event: 'vessel_arrived',
        originalEvent: 'Estimated arrival',
        timestamp: '2026-01-20T08:00:00.000Z',
        estimated: true,
        locationLocode: 'USLAX',
      },
    ]);
    containers.push(c);
  }
  t.clock.advance(1000);
  return { request, shipment, containers };
}
