/**
 * Alerts, rows and the clock belong to one source (service address + account): two real
 * tracking services on 127.0.0.1:0 (the first stands for the built-in demo, the second is a
 * remote account), real cache files, the bridge exactly as both transports call it. The first
 * sync of a source is its baseline: summed up once, never replayed; older history never alerts.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { AppCore } from '../../src/main/core/app-core';
import { startService } from '../../src/service';
import type { AppClock, BridgeReply, SyncStatus } from '../../src/shared/bridge';
import { ScaledClock } from '../../src/shared/clock';
import { hasLeftTerminal } from '../../src/shared/container';
import type { AlertList, BoardPage } from '../../src/shared/desktop';
import { appCoreOptions } from '../support/app-core-options';
import { applyFeedAnswer, harborTerminalAnswer } from '../support/feed-answers';

const ZONE = 'America/Los_Angeles';
const DAY = 86_400_000;

/** A service with one box at a Los Angeles terminal, its last free day two days after `now`. */
async function seededService(dir: string, number: string, now: number) {
  const service = await startService({ dataDir: dir, port: 0 });
  const account = (await service.store.accounts.primary())!;
  const shipment = await service.store.tracking.createShipment(account.id, {
    billOfLadingNumber: `MAEU${number.slice(4)}00`,
    scac: 'MAEU',
    portOfDischargeLocode: 'USLAX',
  });
  const lfd = DateTime.fromMillis(now, { zone: ZONE })
    .plus({ days: 2 })
    .set({ hour: 12 })
    .toUTC()
    .toISO()!;
  const container = await service.store.tracking.createContainer(account.id, shipment.id, {
    number,
    podTimezone: ZONE,
    currentStatus: 'available',
    availabilityKnown: true,
    availableForPickup: true,
    importDeadlines: { pickup_lfd_terminal: lfd },
  });
  return { service, containerId: container.id };
}

describe('each source has its own alerts, rows and clock', () => {
  let dir: string;
  let demo: Awaited<ReturnType<typeof seededService>>;
  let remote: Awaited<ReturnType<typeof seededService>>;
  let core: AppCore;
  const demoClock = new ScaledClock();
  const call = async <T>(method: string, argument: unknown = null): Promise<T> => {
    const reply: BridgeReply = await core.dispatch(method, argument);
    if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result as T;
  };
  const alerts = () => call<AlertList>('listAlerts', { limit: 100 });
  const titles = async () => (await alerts()).alerts.map((a) => a.title).sort();
  const numbers = async () =>
    (await call<BoardPage>('listContainers', { limit: 100 })).rows.map((r) => r.number);
  /** Syncs now and waits until the source has loaded (its summary is raised after the run). */
  const syncLoaded = async () => {
    await call<SyncStatus>('syncNow');
    await expect.poll(async () => (await call<SyncStatus>('getSyncStatus')).firstSync).toBe(false);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-sources-'));
    // The demo world runs far ahead of real time.
    demoClock.follow(Date.now() + 20 * DAY, 600);
    demo = await seededService(join(dir, 'demo'), 'MSKU1234565', demoClock.now());
    remote = await seededService(join(dir, 'remote'), 'TGHU1234563', Date.now());
    core = new AppCore({
      ...appCoreOptions(dir),
      embedded: {
        connection: () => ({ baseUrl: demo.service.baseUrl, apiKey: demo.service.initialKey! }),
      },
      clock: demoClock,
    });
    // The demo clock runs 600× from the real time of day: a run started shortly before the
    // digest's time would cross it and add a digest these counts are not about.
    await call('updateSettings', { digest: { enabled: false } });
  });
  afterAll(async () => {
    await core?.stop();
    await demo?.service.close();
    await remote?.service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sums up the first sync once, then alerts on changes', async () => {
    expect((await call<SyncStatus>('getSyncStatus')).firstSync).toBe(true);
    await syncLoaded();
    expect(await titles()).toEqual(['Now showing the built-in demo service']);
    expect((await alerts()).alerts[0]!.body).toMatch(/^1 container has a last free day this week;/);
    // A second complete sync adds no second summary.
    await call('syncNow');
    expect(await titles()).toEqual(['Now showing the built-in demo service']);

    await applyFeedAnswer(demo.service.store, demo.containerId, {
      lineLastFreeDay: new Date(demoClock.now() + 5 * DAY).toISOString(),
    });
    await call('syncNow');
    expect(await titles()).toEqual([
      'LFD changed for MSKU1234565',
      'Now showing the built-in demo service',
    ]);
  });

  it('switches to a remote account: real time, its own rows and alerts, a baseline of its own', async () => {
    const demoAlerts = await alerts();
    const demoTime = Date.parse((await call<AppClock>('getClock')).now);
    expect(demoTime - Date.now()).toBeGreaterThan(19 * DAY);

    await call('setRemoteApiKey', { apiKey: remote.service.initialKey });
    await call('updateSettings', {
      connection: { mode: 'remote', remoteBaseUrl: remote.service.baseUrl },
    });
    // At once: real time, nothing of the demo's shown as current, loading until synced.
    const clock = await call<AppClock>('getClock');
    expect(clock).toMatchObject({ simulated: false, speed: 1 });
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(5_000);
    expect(await numbers()).toEqual([]);
    expect((await alerts()).total).toBe(0);
    expect((await call<SyncStatus>('getSyncStatus')).firstSync).toBe(true);

    await syncLoaded();
    expect(await numbers()).toEqual(['TGHU1234563']);
    const host = new URL(remote.service.baseUrl).host;
    expect(await titles()).toEqual([`Now showing the service at ${host}`]);

    // History the service learns after the baseline but dated before it stays silent; a new
    // deadline is news.
    await applyFeedAnswer(remote.service.store, remote.containerId, {
      lineLastFreeDay: new Date(Date.now() + 4 * DAY).toISOString(),
      terminal: harborTerminalAnswer({
        discharged_at: new Date(Date.now() - 5 * DAY).toISOString(),
        available_for_pickup: false,
        full_out_at: new Date(Date.now() - 3 * DAY).toISOString(),
      }),
    });
    await call('syncNow');
    const [row] = (await call<BoardPage>('listContainers', { limit: 1, showCompleted: true })).rows;
    expect(hasLeftTerminal(row!.status)).toBe(true);
    const remoteTitles = await titles();
    expect(remoteTitles).not.toContain('TGHU1234563 picked up');
    expect(remoteTitles).toContain('LFD changed for TGHU1234563');
    expect(remoteTitles.some((t) => t.includes('MSKU1234565'))).toBe(false);
    // Each source has its own cache file; the key is not readable from its name.
    expect(readdirSync(dir).filter((f) => /^quayside-cache.*\.sqlite$/.test(f))).toHaveLength(2);
    expect(readdirSync(dir).join(' ')).not.toContain(remote.service.initialKey!.slice(3, 12));

    // Back to the demo: its own alerts, read state and rows at once, and its clock.
    await call('updateSettings', { connection: { mode: 'embedded' } });
    expect(await alerts()).toEqual(demoAlerts);
    expect(await numbers()).toEqual(['MSKU1234565']);
    const back = await call<AppClock>('getClock');
    expect(back.simulated).toBe(true);
    expect(Date.parse(back.now)).toBeGreaterThanOrEqual(demoTime);
    expect((await call<SyncStatus>('getSyncStatus')).firstSync).toBe(false);
  });

  it('shows nothing for a remote service without an address, and leaves no file for it', async () => {
    const files = readdirSync(dir);
    await call('updateSettings', { connection: { mode: 'remote', remoteBaseUrl: null } });
    expect(await numbers()).toEqual([]);
    expect((await alerts()).total).toBe(0);
    // Its rows live in memory only: nothing is written beside the data or where the app started.
    expect(existsSync(join(process.cwd(), ':memory:'))).toBe(false);
    expect(readdirSync(dir)).toEqual(files);
    await call('updateSettings', { connection: { mode: 'embedded' } });
    expect(await numbers()).toEqual(['MSKU1234565']);
  });
});
