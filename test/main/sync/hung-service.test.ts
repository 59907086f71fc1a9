/**
 * A service that accepts connections and never answers (a paused process): the sync run ends with
 * a plain timeout reason instead of "Syncing 0%" forever, and the cache is left as it was.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { SyncEngine } from '../../../src/main/sync/engine';
import type { SyncStatus } from '../../../src/shared/bridge';
import { ScaledClock } from '../../../src/shared/clock';
import { tempDir } from '../../support/cache-fixtures';
import { startServer, type TestServer } from '../../support/http-server';

describe('a hung service', () => {
  let server: TestServer | null = null;
  let tmp: ReturnType<typeof tempDir> | null = null;
  afterEach(async () => {
    // Ends every connection, the held requests' too, whenever they arrived.
    await server?.close();
    server = null;
    tmp?.remove();
  });

  it('ends the run with a timeout after two unanswered attempts, and the next run retries', async () => {
    server = await startServer(() => undefined); // never answered
    const { port } = new URL(server.baseUrl);
    const requests = server.requests;
    tmp = tempDir('quayside-hung-');
    const cache = Cache.open(tmp.dir);
    const statuses: SyncStatus[] = [];
    const engine = new SyncEngine({
      cache,
      clock: new ScaledClock(Date.now(), 600),
      connection: () => ({ baseUrl: `http://127.0.0.1:${port}/v2`, apiKey: 'k' }),
      onStatus: (status) => statuses.push(status),
      client: { timeoutMs: 300 },
    });
    try {
      await expect(engine.sync()).rejects.toThrow(/did not answer within/);
      // Two attempts, not the six a failing (but answering) service gets.
      expect(requests).toHaveLength(2);
      const ended = engine.status();
      expect(ended).toMatchObject({ state: 'offline', progress: null });
      expect(ended.message).toBe(
        `The tracking service at 127.0.0.1:${port} did not answer within 300 ms.`,
      );
      expect(ended.offlineSince).not.toBeNull();
      expect(cache.counts()).toMatchObject({ shipments: 0, containers: 0 });

      // The next run is first an attempt to reconnect, and ends the same plain way.
      await expect(engine.sync()).rejects.toThrow(/did not answer within/);
      expect(statuses.map((s) => s.state)).toContain('reconnecting');
      expect(engine.status().offlineSince).toBe(ended.offlineSince);
    } finally {
      cache.close();
    }
  });
});
