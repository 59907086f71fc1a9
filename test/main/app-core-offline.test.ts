/**
 * What the app says while its embedded service is down: a real tracking service on 127.0.0.1:0,
 * a real cache file, the real launcher; only the process-spawn edge is faked (the "process"
 * reports the real service's address when told to come up).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore } from '../../src/main/core/app-core';
import { FileSecretStore } from '../../src/main/core/secret-store';
import {
  EmbeddedServiceProcess,
  type ForkedProcess,
} from '../../src/main/service-launcher/launcher';
import { JsonFileSettingsStore } from '../../src/main/settings/json-file-settings-store';
import { startService, type RunningService } from '../../src/service';
import type { AppClock, BridgeReply, SyncStatus } from '../../src/shared/bridge';
import { ScaledClock } from '../../src/shared/clock';

interface Child extends ForkedProcess {
  ready(): void;
  crash(): void;
}

describe('the app while its embedded service is down', () => {
  let dir: string;
  let service: RunningService;
  let core: AppCore;
  let launcher: EmbeddedServiceProcess;
  const children: Child[] = [];
  const call = async <T>(method: string, argument: unknown = null): Promise<T> => {
    const reply: BridgeReply = await core.dispatch(method, argument);
    if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result as T;
  };
  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 1_000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!check())
      throw new Error(`never happened: ${what} (${JSON.stringify(core.getSyncStatus())})`);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-offline-'));
    service = await startService({ dataDir: join(dir, 'service'), port: 0 });
    const account = (await service.store.accounts.primary())!;
    const shipment = await service.store.tracking.createShipment(account.id, {
      billOfLadingNumber: 'MAEU123456789',
      scac: 'MAEU',
    });
    await service.store.tracking.createContainer(account.id, shipment.id, {
      number: 'MSKU1234565',
    });
    const clock = new ScaledClock();
    launcher = new EmbeddedServiceProcess({
      dataDir: join(dir, 'embedded'),
      simSpeed: 600,
      seed: 42,
      // Long enough that only "Sync now" brings it back within the test.
      restartDelayMs: 60_000,
      resumeAt: () => clock.now(),
      onSimulatedTime: (simNow, speed) => clock.follow(simNow, speed),
      onState: (state) => core?.onEmbeddedState(state),
      fork: () => {
        const exitListeners: ((code: number | null) => void)[] = [];
        const messageListeners: ((message: unknown) => void)[] = [];
        const child: Child = {
          onMessage: (l) => messageListeners.push(l),
          onExit: (l) => exitListeners.push(l),
          send: () => child.crash(),
          kill: () => child.crash(),
          ready: () => {
            for (const l of messageListeners) {
              l({
                type: 'ready',
                baseUrl: service.baseUrl,
                apiKey: service.initialKey!,
                simNow: Date.now(),
                simSpeed: 600,
              });
            }
          },
          crash: () => {
            for (const l of exitListeners.splice(0)) l(null);
          },
        };
        children.push(child);
        return child;
      },
    });
    core = new AppCore({
      appInfo: {
        name: 'Quayside',
        version: '0',
        shell: 'browser',
        platform: 'linux',
        dataDir: dir,
      },
      settingsStore: new JsonFileSettingsStore(dir),
      secretStore: new FileSecretStore(dir),
      embedded: launcher,
      clock,
    });
  });
  afterAll(async () => {
    await core?.stop();
    await launcher?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says it is starting, never "No service is configured", before the first start', async () => {
    core.start();
    const started = launcher.start();
    expect(core.getSyncStatus().message).not.toMatch(/No service is configured/);
    expect(core.getSyncStatus().state).toBe('syncing');
    children[0]!.ready();
    await started;
    await until(() => core.getSyncStatus().lastSuccessAt !== null, 'first sync');
    await until(() => core.getSyncStatus().state === 'idle', 'up to date');
  });

  it('goes offline at once when the service dies, keeps the board, and retries on Sync now', async () => {
    const diedAt = Date.now();
    children[0]!.crash();
    const offline = core.getSyncStatus();
    expect(offline.state).toBe('offline');
    expect(offline.message).toMatch(/stopped unexpectedly/);
    expect(Date.parse(offline.offlineSince!)).toBeGreaterThanOrEqual(diedAt - 1_000);
    expect(await call<AppClock>('getClock')).toMatchObject({ simulated: true, running: false });

    // The cached board stays usable.
    const page = await call<{ total: number }>('listContainers', {});
    expect(page.total).toBe(1);

    // A sync on schedule while it is down says offline too, never a configuration problem.
    await core.sync.sync().catch(() => undefined);
    expect(core.getSyncStatus()).toMatchObject({ state: 'offline' });

    // "Sync now" starts the service again without waiting out the minute of backoff.
    const retried = call<SyncStatus>('syncNow');
    expect(children).toHaveLength(2);
    expect(core.getSyncStatus().state).toBe('reconnecting');
    expect(core.getSyncStatus().offlineSince).toBe(offline.offlineSince);
    await retried;
    children[1]!.ready();
    await until(() => core.getSyncStatus().state === 'idle', 'up to date again');
    expect(core.getSyncStatus().offlineSince).toBeNull();
    expect(await call<AppClock>('getClock')).toMatchObject({ simulated: true, running: true });
  });
});
