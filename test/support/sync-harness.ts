/**
 * A real Quayside service on 127.0.0.1:0 seeded through its store API, plus readers of what it
 * serves (to compare the cache with) and a fault-injecting proxy.
 */
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { startService, type RunningService } from '../../src/service/index';
import { seedDemoData } from '../../src/service/dev/seed';
import { ManualClock, type Clock } from '../../src/shared/clock';
import { tempDir } from './cache-fixtures';

export interface Harness {
  service: RunningService;
  baseUrl: string;
  apiKey: string;
  accountId: string;
  close(): Promise<void>;
}

/**
 * A small seeded service (2 shipments of 2 containers, on a stopped clock) for the tests of the
 * calling file: started before them, closed after; the returned function gives it to a test.
 */
export function smallServiceForFile(): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startSeededService({
      clock: new ManualClock(Date.UTC(2026, 2, 1, 12)),
      shipments: 2,
      containersPerShipment: 2,
    });
  });
  afterAll(async () => {
    await h?.close();
  });
  return () => h!;
}

export async function startSeededService(options: {
  clock: Clock;
  shipments: number;
  containersPerShipment: number;
  routing?: boolean;
}): Promise<Harness> {
  const tmp = tempDir('quayside-service-');
  const service = await startService({
    dataDir: tmp.dir,
    clock: options.clock,
    port: 0,
    config: { requestsPerMinute: 1_000_000 },
  });
  const account = (await service.store.accounts.primary())!;
  if (options.routing) await service.store.accounts.setRouting(account.id, true);
  await seedDemoData(service.store, account.id, {
    shipments: options.shipments,
    containersPerShipment: options.containersPerShipment,
    start: options.clock.now() - 20 * 86_400_000,
  });
  return {
    service,
    baseUrl: service.baseUrl,
    apiKey: service.initialKey!,
    accountId: account.id,
    async close() {
      await service.close();
      tmp.remove();
    },
  };
}

async function getJson(url: string, apiKey: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { Authorization: `Token ${apiKey}` } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

async function walk(url: string, apiKey: string): Promise<{ id: string }[]> {
  const all: { id: string }[] = [];
  let next: string | undefined = url;
  while (next) {
    const doc = await getJson(next, apiKey);
    all.push(...(doc.data as { id: string }[]));
    next = (doc.links as { next?: string } | undefined)?.next;
  }
  return all;
}

const byId = <T extends { id: string }>(items: T[]) =>
  [...items].sort((a, b) => a.id.localeCompare(b.id));

/** Everything the service serves for the account, as plain documents sorted by id. */
export async function serverState(h: Harness) {
  const shipments = byId(await walk(`${h.baseUrl}/shipments?page[size]=100`, h.apiKey));
  const containers = byId(await walk(`${h.baseUrl}/containers?page[size]=100`, h.apiKey));
  const events = new Map<string, { id: string }[]>();
  for (const c of containers) {
    events.set(
      c.id,
      byId(await walk(`${h.baseUrl}/containers/${c.id}/transport_events?page[size]=100`, h.apiKey)),
    );
  }
  return { shipments, containers, events };
}

export interface FaultPlan {
  /** Probabilities per request; the rest are forwarded untouched. */
  rateLimited: number;
  serverError: number;
  hang: number;
  truncated: number;
}

/** Seeded pseudo-random numbers, so a failing run can be replayed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** An HTTP proxy in front of the service that injects 429s, 500s, hangs and cut-off bodies. */
export async function startFaultyProxy(
  upstream: string,
  plan: FaultPlan,
  random: () => number,
): Promise<{ baseUrl: string; faults: Record<string, number>; close(): Promise<void> }> {
  const target = new URL(upstream);
  const faults: Record<string, number> = {
    rateLimited: 0,
    serverError: 0,
    hang: 0,
    truncated: 0,
    passed: 0,
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const roll = random();
    let edge = plan.rateLimited;
    if (roll < edge) {
      faults.rateLimited!++;
      res.writeHead(429, { 'Retry-After': '2', 'Content-Type': 'application/json' });
      res.end('{"errors":[{"status":"429","title":"Too Many Requests"}]}');
      return;
    }
    if (roll < (edge += plan.serverError)) {
      faults.serverError!++;
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"errors":[{"status":"500","title":"Internal Server Error"}]}');
      return;
    }
    if (roll < (edge += plan.hang)) {
      faults.hang!++;
      return; // never answers; the client's timeout must fire
    }
    const truncate = roll < edge + plan.truncated;
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers, // Host kept: the service builds its links from it
      },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          let body = Buffer.concat(chunks);
          if (truncate && body.length > 2) {
            faults.truncated!++;
            body = body.subarray(0, Math.floor(body.length / 2));
          } else faults.passed!++;
          const headers = { ...up.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(up.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
