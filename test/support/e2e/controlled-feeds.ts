/**
 * A carrier (DCSA Track & Trace 2.2) and a terminal feed (Quayside's terminal contract) on
 * 127.0.0.1 that the test controls, and Quayside's own service started as a user starts it
 * (`quayside serve --feeds FILE`) with those two as its only sources. What the terminal says
 * (the last free day, the pickup number) is the test's to change; the service learns it the way
 * it learns any terminal's news: by asking.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { TerminalContainerStatus } from '../../../src/shared/feeds/terminal';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const DAY = 86_400_000;

export const FACILITY = {
  kind: 'terminal',
  firms_code: 'Y258',
  smdg_code: null,
  name: 'TraPac Los Angeles',
  locode: 'USLAX',
  time_zone: 'America/Los_Angeles',
} as const;

export interface ControlledShipment {
  scac: string;
  billOfLading: string;
  containers: string[];
}

export interface ControlledFeeds {
  baseUrl: string;
  /** What the terminal says now, per container (change it; the next ask reads it). */
  terminal: {
    lastFreeDay: string;
    pickupNumbers: Record<string, string | null>;
  };
  /** How many times the terminal was asked, for waiting on a new ask. */
  terminalAsks(): number;
  close(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The line's events of a shipment sailed from Shanghai, discharged at Los Angeles yesterday. */
function lineEvents(shipment: ControlledShipment, now: number): unknown[] {
  const vessel = { vesselIMONumber: '9839430', vesselName: 'MSC GULSUN', vesselFlag: 'PA' };
  const call = (locode: string) => ({
    transportCallID: `TC-${locode}`,
    carrierServiceCode: 'AE7',
    exportVoyageNumber: '601W',
    importVoyageNumber: '601W',
    UNLocationCode: locode,
    modeOfTransport: 'VESSEL',
    vessel,
  });
  const references = [
    { documentReferenceType: 'BKG', documentReferenceValue: `BK${shipment.billOfLading}` },
    { documentReferenceType: 'TRD', documentReferenceValue: shipment.billOfLading },
  ];
  let id = 0;
  const transport = (code: 'DEPA' | 'ARRI', at: number, locode: string) => ({
    eventID: `t-${++id}`,
    eventType: 'TRANSPORT',
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: iso(at),
    eventDateTime: iso(at),
    transportEventTypeCode: code,
    transportCall: call(locode),
    documentReferences: references,
  });
  const equipment = (code: 'LOAD' | 'DISC', at: number, locode: string, box: string) => ({
    eventID: `e-${++id}`,
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: iso(at),
    eventDateTime: iso(at),
    equipmentEventTypeCode: code,
    equipmentReference: box,
    emptyIndicatorCode: 'LADEN',
    transportCall: call(locode),
    documentReferences: references,
  });
  return [
    ...shipment.containers.map((box) => equipment('LOAD', now - 22 * DAY, 'CNSHA', box)),
    transport('DEPA', now - 21 * DAY, 'CNSHA'),
    transport('ARRI', now - 2 * DAY, 'USLAX'),
    ...shipment.containers.map((box) => equipment('DISC', now - DAY, 'USLAX', box)),
  ];
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

const readBody = async (req: IncomingMessage): Promise<string> => {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
};

/** Starts the carrier and the terminal on one loopback port (paths /carrier and /terminal). */
export async function startControlledFeeds(
  shipment: ControlledShipment,
  lastFreeDay: string,
): Promise<ControlledFeeds> {
  const startedAt = Date.now();
  const terminal: ControlledFeeds['terminal'] = { lastFreeDay, pickupNumbers: {} };
  let asks = 0;
  const status = (number: string): TerminalContainerStatus & { pickup_number: string | null } => ({
    container_number: number,
    facility: { ...FACILITY },
    checked_at: iso(Date.now()),
    discharged_at: iso(startedAt - DAY),
    rail_unloaded_at: null,
    available_for_pickup: true,
    holds: [],
    fees: [],
    last_free_day: terminal.lastFreeDay,
    pickup_appointment_at: null,
    yard_location: null,
    full_out_at: null,
    full_out_chassis_number: null,
    empty_returned_at: null,
    pickup_number: terminal.pickupNumbers[number] ?? null,
  });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/carrier/v2/events') {
        const asked = [...url.searchParams.values()];
        const ours =
          asked.includes(shipment.billOfLading) ||
          asked.some((v) => shipment.containers.includes(v));
        return send(res, ours ? 200 : 404, ours ? lineEvents(shipment, startedAt) : []);
      }
      if (url.pathname === '/terminal/containers/query' && req.method === 'POST') {
        asks++;
        const body = JSON.parse(await readBody(req)) as { container_numbers: string[] };
        const known = body.container_numbers.filter((n) => shipment.containers.includes(n));
        return send(res, 200, {
          containers: known.map(status),
          not_found: body.container_numbers.filter((n) => !known.includes(n)),
        });
      }
      const one = /^\/terminal\/containers\/([A-Z]{4}\d{7})$/.exec(url.pathname);
      if (one && req.method === 'GET') {
        asks++;
        return shipment.containers.includes(one[1]!)
          ? send(res, 200, status(one[1]!))
          : send(res, 404, {});
      }
      send(res, 404, {});
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    terminal,
    terminalAsks: () => asks,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface ServiceProcess {
  baseUrl: string;
  apiKey: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `quayside serve --feeds FILE` on a fresh data folder, its only sources the controlled carrier
 * (under `scac`) and terminal; resolves with the address and the key it prints on first start.
 */
export function startServiceWithFeeds(
  dataDir: string,
  feeds: ControlledFeeds,
  scac: string,
): Promise<ServiceProcess> {
  const file = join(dataDir, 'feeds.yaml');
  writeFileSync(
    file,
    [
      'carriers:',
      `  ${scac}:`,
      `    dcsa: ${feeds.baseUrl}/carrier`,
      '    requests_per_minute: 600',
      'terminals:',
      `  trapac: { url: ${feeds.baseUrl}/terminal, requests_per_minute: 600 }`,
      '',
    ].join('\n'),
  );
  const child = spawn(
    process.execPath,
    ['bin/quayside.mjs', 'serve', '--port', '0', '--data-dir', dataDir, '--feeds', file],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no service within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (\S+)/.exec(output)?.[1];
      const key = /API key: (\S+)/.exec(output)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolvePromise({
          baseUrl: url,
          apiKey: key,
          child,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${String(code)}:\n${output}`));
    });
  });
}
