/**
 * A service that is not there (nothing listens at its port): the sync run ends after a second
 * refused connection, so the board says Offline at once instead of after a minute of backoff;
 * a connection cut off mid-answer is still retried, as a blip of a service that is there.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { V2Client } from '../../../src/main/sync/client';
import { SyncEngine } from '../../../src/main/sync/engine';
import { ScaledClock } from '../../../src/shared/clock';
import { tempDir } from '../../support/cache-fixtures';

/** A port that was free a moment ago: nothing listens on it now. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('a service that is not there', () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = null;
  });

  it('ends the run as offline after two refused connections, not six', async () => {
    const port = await closedPort();
    const tmp = tempDir('quayside-gone-');
    const cache = Cache.open(tmp.dir);
    const client = new V2Client({
      baseUrl: `http://127.0.0.1:${port}/v2`,
      apiKey: 'k',
      clock: new ScaledClock(Date.now(), 1),
    });
    const engine = new SyncEngine({
      cache,
      clock: new ScaledClock(Date.now(), 1),
      connection: () => ({ baseUrl: `http://127.0.0.1:${port}/v2`, apiKey: 'k' }),
    });
    try {
      await expect(client.get('shipments')).rejects.toMatchObject({
        kind: 'unreachable',
        message: `Nothing is listening at 127.0.0.1:${port}.`,
      });
      expect(client.requests).toBe(2);

      await expect(engine.sync()).rejects.toThrow(/Nothing is listening/);
      expect(engine.status()).toMatchObject({ state: 'offline', progress: null });
      expect(engine.status().offlineSince).not.toBeNull();
    } finally {
      cache.close();
      tmp.remove();
    }
  });

  it('says at once that a port fetch never connects to cannot be the service', async () => {
    const client = new V2Client({
      baseUrl: 'http://127.0.0.1:9/v2',
      apiKey: 'k',
      clock: new ScaledClock(Date.now(), 1),
    });
    await expect(client.get('shipments')).rejects.toMatchObject({
      kind: 'unreachable',
      message:
        'Port 9 is reserved for another protocol and cannot be used for the tracking service.',
    });
    expect(client.requests).toBe(2);
  });

  it('retries a connection cut off mid-answer until the service answers', async () => {
    let requests = 0;
    server = createServer((_request, response) => {
      requests++;
      if (requests <= 3) {
        response.socket?.destroy(); // cut off: the service is there, the answer was lost
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/vnd.api+json' });
      response.end(JSON.stringify({ data: [] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new V2Client({
      baseUrl: `http://127.0.0.1:${port}/v2`,
      apiKey: 'k',
      // Backoff waits on this clock: 600 times real time.
      clock: new ScaledClock(Date.now(), 600),
    });
    const answer = await client.get('shipments');
    expect(answer.status).toBe(200);
    expect(requests).toBe(4);
  });
});
