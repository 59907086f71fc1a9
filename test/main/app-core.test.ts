/**
 * The desktop bridge handlers end to end: a real tracking service on 127.0.0.1:0, a real cache
 * file, the dispatcher exactly as both transports call it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScaledClock } from '../../src/shared/clock';
import { AppCore } from '../../src/main/core/app-core';
import { FileSecretStore, REMOTE_KEY_FILE } from '../../src/main/core/secret-store';
import { JsonFileSettingsStore } from '../../src/main/settings/json-file-settings-store';
import { startService, type RunningService } from '../../src/service';
import type { BridgeReply } from '../../src/shared/bridge';
import { desktopOn } from '../support/app-core-options';

describe('desktop bridge handlers against a real service', () => {
  let dir: string;
  let service: RunningService;
  let core: AppCore;
  let clock: ScaledClock;
  const call = async <T>(method: string, argument: unknown = null): Promise<T> => {
    const reply: BridgeReply = await core.dispatch(method, argument);
    if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result as T;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-core-'));
    service = await startService({ dataDir: join(dir, 'service'), port: 0 });
    const account = (await service.store.accounts.primary())!;
    const { tracking } = service.store;
    const shipment = await tracking.createShipment(account.id, {
      billOfLadingNumber: 'MAEU123456789',
      scac: 'MAEU',
      portOfDischargeLocode: 'USLAX',
    });
    await tracking.createContainer(account.id, shipment.id, {
      number: 'MSKU1234565',
      podTimezone: 'America/Los_Angeles',
      holds: [
        { name: 'customs', status: 'hold', description: null },
        { name: 'freight', status: 'hold', description: null },
      ],
    });
    await tracking.createContainer(account.id, shipment.id, { number: 'MSKU7654321' });
    clock = new ScaledClock();
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
      embedded: { connection: () => ({ baseUrl: service.baseUrl, apiKey: service.initialKey! }) },
      clock,
    });
  });
  afterAll(async () => {
    await core?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('syncs from the service and serves the board, with hold names', async () => {
    const status = await call<{ state: string; lastSuccessAt: string | null }>('syncNow');
    expect(status.state).toBe('idle');
    expect(status.lastSuccessAt).not.toBeNull();
    const page = await call<{ total: number; rows: { number: string; holdNames: string[] }[] }>(
      'listContainers',
      { sort: { column: 'number', direction: 'asc' } },
    );
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.number)).toEqual(['MSKU1234565', 'MSKU7654321']);
    expect(page.rows[0]!.holdNames.sort()).toEqual(['customs', 'freight']);
    expect(page.rows[1]!.holdNames).toEqual([]);
    const onHold = await call<{ total: number }>('listContainers', { view: 'on_hold' });
    expect(onHold.total).toBe(1);
  });

  it('answers a malformed board query with the field at fault', async () => {
    const reply = await core.dispatch('listContainers', {
      sort: { column: 'DROP', direction: 'up' },
    });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.message).toContain('/sort/column');
  });

  it('creates tracking requests and explains refusals field by field', async () => {
    const refused = await call<{ ok: boolean; field: string | null; message: string }>(
      'createTrackingRequest',
      { requestType: 'container', number: 'MSKU1111111', scac: 'ZZZZ' },
    );
    expect(refused.ok).toBe(false);
    expect(refused.field).toBe('scac');
    const created = await call<{ ok: true; request: { number: string; status: string } }>(
      'createTrackingRequest',
      { requestType: 'bill_of_lading', number: 'maeu987654321', scac: 'maeu', tags: ['urgent'] },
    );
    expect(created.ok).toBe(true);
    expect(created.request).toMatchObject({ number: 'MAEU987654321', status: 'pending' });
    const list = await call<{ total: number; rows: { number: string }[] }>(
      'listTrackingRequests',
      {},
    );
    expect(list.rows.map((r) => r.number)).toContain('MAEU987654321');
  });

  it("names a request's customer: the account's party of that name, created once", async () => {
    const customerOf = async (id: string): Promise<string | undefined> => {
      const response = await fetch(`${service.baseUrl}/tracking_requests/${id}`, {
        headers: { Authorization: `Token ${service.initialKey!}` },
      });
      const body = (await response.json()) as {
        data: { relationships?: { customer?: { data: { id: string } | null } } };
      };
      return body.data.relationships?.customer?.data?.id;
    };
    const created: string[] = [];
    for (const [number, customer] of [
      ['MAEU555000111', 'Acme Foods'],
      ['MAEU555000222', ' acme foods '],
    ] as const) {
      const outcome = await call<{ ok: true; request: { id: string } }>('createTrackingRequest', {
        requestType: 'bill_of_lading',
        number,
        scac: 'MAEU',
        refNumbers: ['PO-1'],
        customer,
      });
      expect(outcome.ok).toBe(true);
      created.push(outcome.request.id);
    }
    const parties = (await (
      await fetch(`${service.baseUrl}/parties?page[size]=100`, {
        headers: { Authorization: `Token ${service.initialKey!}` },
      })
    ).json()) as { data: { id: string; attributes: { company_name: string } }[] };
    const acme = parties.data.filter((party) => party.attributes.company_name === 'Acme Foods');
    expect(acme).toHaveLength(1);
    expect(await customerOf(created[0]!)).toBe(acme[0]!.id);
    expect(await customerOf(created[1]!)).toBe(acme[0]!.id);
  });

  it('reads a spreadsheet through the bridge and refuses a file that is not one', async () => {
    const csv = 'Container,PO\nMSKU1234565,PO-9\n';
    const read = await call<{ rows: { number: string; refNumbers: string[] }[] }>(
      'readTrackingSpreadsheet',
      { fileName: 'boxes.csv', dataBase64: Buffer.from(csv).toString('base64') },
    );
    expect(read.rows).toEqual([
      expect.objectContaining({ number: 'MSKU1234565', refNumbers: ['PO-9'] }),
    ]);
    await expect(
      call('readTrackingSpreadsheet', {
        fileName: 'scan.csv',
        dataBase64: Buffer.from('%PDF-1.7 ...').toString('base64'),
      }),
    ).rejects.toThrow(/is a PDF, not a spreadsheet/);
    const malformed = await core.dispatch('readTrackingSpreadsheet', {
      fileName: 'x.csv',
      dataBase64: 'not base64!',
    });
    expect(malformed.ok).toBe(false);
  });

  it('detects the line and kind of each number of a mixed list through the infer endpoint', async () => {
    const inferred = await call<
      { number: string; requestType: string | null; scac: string | null }[]
    >('inferNumbers', { numbers: ['MAEU123456789', 'MSKU1234565', '???'] });
    expect(inferred).toHaveLength(3);
    expect(inferred[0]).toMatchObject({ number: 'MAEU123456789', scac: 'MAEU' });
    expect(inferred[1]).toMatchObject({ number: 'MSKU1234565', requestType: 'container' });
    expect(inferred[2]).toEqual({ number: '???', requestType: null, scac: null, lineName: null });
    await expect(call('inferNumbers', { numbers: [] })).rejects.toThrow();
  });

  it('reports the clock the views count down with, following simulated time', async () => {
    const real = await call<{ now: string; speed: number }>('getClock');
    expect(real.speed).toBe(1);
    expect(Math.abs(Date.parse(real.now) - Date.now())).toBeLessThan(5_000);
    clock.follow(Date.UTC(2030, 0, 1), 600);
    const simulated = await call<{ now: string; speed: number }>('getClock');
    expect(simulated.speed).toBe(600);
    expect(simulated.now.startsWith('2030-01-01')).toBe(true);
    clock.useRealTime();
  });

  it('keeps the remote API key out of settings, masked, in an owner-only file', async () => {
    const stored = await call<{ stored: boolean; masked: string }>('setRemoteApiKey', {
      apiKey: 'qs_secretkey_0123456789',
    });
    expect(stored).toMatchObject({ stored: true, masked: 'qs_s…6789' });
    expect(statSync(join(dir, REMOTE_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(await call('getSettings'))).not.toContain('secretkey');
    expect(await call('getRemoteApiKeyStatus')).toMatchObject({ masked: 'qs_s…6789' });
    await call('setRemoteApiKey', { apiKey: null });
    expect(await call('getRemoteApiKeyStatus')).toMatchObject({ masked: null });
  });

  it('filters alerts by kind and clears the cache', async () => {
    const none = await call<{ total: number }>('listAlerts', { kinds: ['lfd_changed'] });
    expect(none.total).toBe(0);
    const bad = await core.dispatch('listAlerts', { kinds: ['everything'] });
    expect(bad.ok).toBe(false);
    const before = await call<{ containers: number; sizeBytes: number }>('getCacheInfo');
    expect(before.containers).toBe(2);
    expect(before.sizeBytes).toBeGreaterThan(0);
    const after = await call<{ containers: number }>('clearCache');
    expect(after.containers).toBe(0);
    expect((await call<{ total: number }>('listContainers', {})).total).toBe(0);
  });
});

describe('stopping the app during a sync', () => {
  it('lets the run under way end on open files, then closes them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quayside-core-stop-'));
    const service = await startService({ dataDir: join(dir, 'service'), port: 0 });
    const logged: string[] = [];
    try {
      const account = (await service.store.accounts.primary())!;
      const shipment = await service.store.tracking.createShipment(account.id, {
        billOfLadingNumber: 'MAEU123456789',
        scac: 'MAEU',
        portOfDischargeLocode: 'USLAX',
      });
      await service.store.tracking.createContainer(account.id, shipment.id, {
        number: 'MSKU1234565',
      });
      const core = desktopOn(service, dir, {
        log: (message, error) => logged.push(`${message} ${String(error ?? '')}`),
      });
      const syncing = core.dispatch('syncNow', null);
      await core.stop();
      // The run stopped mid-way still finished its work: nothing failed on a closed cache.
      expect(await syncing).toMatchObject({ ok: true, result: { state: 'idle', message: null } });
      expect(logged.filter((line) => /not open/.test(line))).toEqual([]);
      // And the cache is closed now.
      expect(() => core.cache.counts()).toThrow(/not open/);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
