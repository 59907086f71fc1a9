import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../../src/shared/clock';
import { AisTcpClient } from '../../../../src/service/feeds/ais/client';
import type { VesselPosition } from '../../../../src/service/feeds/ais/vessel-store';
import { type1, type18, type24, type5 } from '../../../support/nmea-encoder';

interface FeedServer {
  port: number;
  sockets: Socket[];
  connections: number;
  server: Server;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startFeed(onConnection: (socket: Socket, n: number) => void): Promise<FeedServer> {
  const feed: FeedServer = { port: 0, sockets: [], connections: 0, server: createServer() };
  feed.server.on('connection', (socket) => {
    feed.connections++;
    feed.sockets.push(socket);
    socket.on('error', () => {});
    onConnection(socket, feed.connections);
  });
  await new Promise<void>((resolve) => feed.server.listen(0, '127.0.0.1', resolve));
  feed.port = (feed.server.address() as AddressInfo).port;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of feed.sockets) s.destroy();
        feed.server.close(() => resolve());
      }),
  );
  return feed;
}

function startClient(port: number, clock: ManualClock, historyLimit = 3) {
  const client = new AisTcpClient(
    { host: '127.0.0.1', port, initialBackoffMs: 1000, maxBackoffMs: 8000, historyLimit },
    clock,
  );
  cleanups.push(() => client.stop());
  client.start();
  return client;
}

const AURORA = 636019825;
const SKIFF = 338123456;
const START = Date.UTC(2026, 1, 1, 12, 0, 0);

describe('AIS TCP client', () => {
  it('decodes positions and static data, keeps history bounded and counts bad input', async () => {
    const [s5a, s5b] = type5({
      mmsi: AURORA,
      imo: 9321483,
      callSign: 'D5AB7',
      name: 'MSC AURORA',
      destination: 'USLAX',
    });
    const good1 = type1({
      mmsi: AURORA,
      lat: 33.5,
      lon: -118.9,
      sog: 14.2,
      cog: 75.3,
      heading: 76,
    });
    const lines = [
      s5a,
      type1({ mmsi: AURORA, lat: 33.1, lon: -119.5, sog: 14, cog: 70, heading: 71 }),
      s5b, // the second part arrives after an unrelated sentence
      good1.replace(/\*[0-9A-F]{2}$/, '*00'), // bad checksum
      good1.slice(0, 25), // truncated line
      '\u0000\u00ff\u00fe garbage \u0007',
      type1({ mmsi: AURORA, lat: 91, lon: 181, sog: 0, cog: 0, heading: 511 }), // "not available"
      type1({ mmsi: AURORA, lat: 33.3, lon: -119.2, sog: 14.1, cog: 72, heading: 73 }),
      type1({ mmsi: AURORA, lat: 33.4, lon: -119.0, sog: 14.1, cog: 74, heading: 75 }),
      good1,
      type24({ mmsi: SKIFF, name: 'HARBOR SKIFF' }),
      type24({ mmsi: SKIFF, callSign: 'WDK1234' }),
      type18({ mmsi: SKIFF, lat: 33.74, lon: -118.27, sog: 5.5, cog: 180, heading: 179 }),
    ];
    const feed = await startFeed((socket) => {
      // Split across writes in awkward places to exercise line framing.
      const text = `${lines.join('\r\n')}\r\n`;
      socket.write(text.slice(0, 37));
      setTimeout(() => socket.write(text.slice(37)), 5);
    });
    const clock = new ManualClock(START);
    const client = startClient(feed.port, clock);
    const seen: VesselPosition[] = [];
    client.store.subscribe((p) => seen.push(p));

    await vi.waitFor(() => expect(client.stats().messagesDecoded).toBe(9), {
      timeout: 5000,
      interval: 10,
    });
    expect(client.stats()).toMatchObject({
      sentencesOk: 10,
      badChecksum: 1,
      malformed: 2,
      invalidPositions: 1,
      positionsAccepted: 5,
      connects: 1,
      reconnects: 0,
    });

    const latest = client.store.latest(String(AURORA));
    expect(latest).toMatchObject({
      lat: 33.5,
      lon: -118.9,
      speed_knots: 14.2,
      course_deg: 75.3,
      heading_deg: 76,
    });
    expect(latest?.timestamp).toBe(new Date(START).toISOString());
    expect(client.store.history(String(AURORA)).map((p) => p.lat)).toEqual([33.3, 33.4, 33.5]);
    expect(client.store.vessel(String(AURORA))).toMatchObject({
      imo: '9321483',
      name: 'MSC AURORA',
      call_sign: 'D5AB7',
      destination: 'USLAX',
    });
    expect(client.store.latestByImo('9321483')?.lat).toBe(33.5);
    expect(client.store.vessel(String(SKIFF))).toMatchObject({
      name: 'HARBOR SKIFF',
      call_sign: 'WDK1234',
      imo: null,
    });
    expect(client.store.latest(String(SKIFF))).toMatchObject({
      lat: 33.74,
      lon: -118.27,
      speed_knots: 5.5,
      message_type: 18,
    });
    expect(seen.map((p) => p.mmsi)).toEqual([...Array(4).fill(String(AURORA)), String(SKIFF)]);
  });

  it('reconnects with exponential backoff after the server drops the connection', async () => {
    const clock = new ManualClock(START);
    const feed = await startFeed((socket, n) => {
      if (n === 1) {
        socket.end(
          `${type1({ mmsi: AURORA, lat: 10, lon: 100, sog: 10, cog: 10, heading: 10 })}\r\n`,
        );
      } else {
        socket.write(
          `${type1({ mmsi: AURORA, lat: 11, lon: 101, sog: 11, cog: 11, heading: 11 })}\r\n`,
        );
      }
    });
    const client = startClient(feed.port, clock);
    await vi.waitFor(() => expect(client.connectionState()).toBe('waiting'), {
      timeout: 5000,
      interval: 10,
    });
    expect(client.store.latest(String(AURORA))?.lat).toBe(10);
    expect(feed.connections).toBe(1);

    // Nothing happens until the backoff delay has passed on the injected clock.
    clock.advance(999);
    expect(client.stats().reconnects).toBe(0);
    clock.advance(1);
    await vi.waitFor(() => expect(client.store.latest(String(AURORA))?.lat).toBe(11), {
      timeout: 5000,
      interval: 10,
    });
    expect(feed.connections).toBe(2);
    expect(client.stats()).toMatchObject({ reconnects: 1, connects: 2 });
    expect(client.connectionState()).toBe('connected');
  });

  it('backs off further while the feed stays down, and never throws', async () => {
    const clock = new ManualClock(START);
    const feed = await startFeed(() => {});
    const port = feed.port;
    await new Promise<void>((resolve) => feed.server.close(() => resolve()));
    const client = startClient(port, clock);
    await vi.waitFor(() => expect(client.connectionState()).toBe('waiting'), {
      timeout: 5000,
      interval: 10,
    });
    expect(client.nextBackoffMs()).toBe(2000);
    clock.advance(1000);
    await vi.waitFor(() => expect(client.stats().connectionErrors).toBe(2), {
      timeout: 5000,
      interval: 10,
    });
    await vi.waitFor(() => expect(client.connectionState()).toBe('waiting'), {
      timeout: 5000,
      interval: 10,
    });
    expect(client.nextBackoffMs()).toBe(4000);
    clock.advance(2000);
    await vi.waitFor(() => expect(client.stats().connectionErrors).toBe(3), {
      timeout: 5000,
      interval: 10,
    });
    await vi.waitFor(() => expect(client.nextBackoffMs()).toBe(8000), {
      timeout: 5000,
      interval: 10,
    });
    clock.advance(4000);
    await vi.waitFor(() => expect(client.stats().connectionErrors).toBe(4), {
      timeout: 5000,
      interval: 10,
    });
    await vi.waitFor(() => expect(client.connectionState()).toBe('waiting'), {
      timeout: 5000,
      interval: 10,
    });
    expect(client.nextBackoffMs()).toBe(8000); // capped
    expect(client.stats().reconnects).toBe(3);
    client.stop();
    expect(clock.pendingTimers()).toBe(0);
  });
});
