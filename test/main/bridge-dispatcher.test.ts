import { describe, expect, it } from 'vitest';
import { BridgeHandlerError, createBridgeDispatcher } from '../../src/main/bridge/dispatcher';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import type { BridgeHandlers } from '../../src/main/bridge/dispatcher';

/** The handlers these tests call; the dispatcher never touches the others. */
function handlers(overrides: Partial<BridgeHandlers> = {}): BridgeHandlers {
  return {
    getAppInfo: () => ({
      name: 'Quayside',
      version: '1',
      shell: 'browser',
      platform: 'linux',
      dataDir: '/d',
    }),
    getSettings: () => DEFAULT_SETTINGS,
    updateSettings: (patch) => ({
      ...DEFAULT_SETTINGS,
      ...patch,
      connection: DEFAULT_SETTINGS.connection,
      alerts: DEFAULT_SETTINGS.alerts,
    }),
    getSyncStatus: () => ({ state: 'idle', progress: null, message: null, lastSuccessAt: null }),
    ...overrides,
  } as BridgeHandlers;
}

describe('bridge dispatcher', () => {
  it('runs a valid call and returns its result', async () => {
    const dispatch = createBridgeDispatcher(handlers());
    await expect(dispatch('getSettings', null)).resolves.toEqual({
      ok: true,
      result: DEFAULT_SETTINGS,
    });
    const reply = await dispatch('updateSettings', { theme: 'dark' });
    expect(reply).toMatchObject({ ok: true, result: { theme: 'dark' } });
  });

  it('rejects a malformed argument with the path and reason, without calling the handler', async () => {
    let called = false;
    const dispatch = createBridgeDispatcher(
      handlers({
        updateSettings: () => {
          called = true;
          return DEFAULT_SETTINGS;
        },
      }),
    );
    const reply = await dispatch('updateSettings', { syncIntervalMinutes: 'often' });
    expect(called).toBe(false);
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('invalid_argument');
    expect(reply.error.message).toMatch(
      /^Invalid argument for updateSettings: \/syncIntervalMinutes /,
    );
    expect(reply.error.issues?.[0]?.path).toBe('/syncIntervalMinutes');
  });

  it('admits a custom field as a board sort column only by its api_slug, never as SQL', async () => {
    const seen: unknown[] = [];
    const dispatch = createBridgeDispatcher(
      handlers({
        listContainers: (query) => {
          seen.push(query);
          return { total: 0, offset: 0, rows: [] };
        },
      }),
    );
    const sorted = (column: string) =>
      dispatch('listContainers', { sort: { column, direction: 'asc' } });
    expect((await sorted('cf:trucker')).ok).toBe(true);
    for (const bad of ['cf:trucker); DROP TABLE containers;--', 'cf:', 'cf:Trucker', 'seq']) {
      const reply = await sorted(bad);
      expect(reply.ok, bad).toBe(false);
    }
    const filtered = await dispatch('listContainers', {
      customFields: [{ slug: 'trucker', anyOf: ['acme'], contains: 'x', min: '1', max: '2' }],
    });
    expect(filtered.ok).toBe(true);
    expect(
      (await dispatch('listContainers', { customFields: [{ slug: "x' OR 1=1 --" }] })).ok,
    ).toBe(false);
    expect(seen).toHaveLength(2);
  });

  it('rejects members the contract does not know', async () => {
    const dispatch = createBridgeDispatcher(handlers());
    const reply = await dispatch('updateSettings', { theme: 'dark', sql: 'DROP TABLE containers' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('rejects an argument for a method that takes none', async () => {
    const dispatch = createBridgeDispatcher(handlers());
    const reply = await dispatch('getSettings', { anything: true });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('names an unknown method, including inherited object keys', async () => {
    const dispatch = createBridgeDispatcher(handlers());
    await expect(dispatch('dropCache', null)).resolves.toMatchObject({
      ok: false,
      error: { code: 'unknown_method', message: 'Unknown bridge method "dropCache".' },
    });
    await expect(dispatch('toString', null)).resolves.toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
  });

  it('passes a handler failure meant for the user through, and hides unexpected ones', async () => {
    const logged: string[] = [];
    const dispatch = createBridgeDispatcher(
      handlers({
        getSettings: () => {
          throw new BridgeHandlerError('The settings file is locked by another program.');
        },
        getSyncStatus: () => {
          throw new Error('SQLITE_CORRUPT at /home/user/...');
        },
        getViewCounts: () => {
          throw new BridgeHandlerError('A newer one was asked for.', 'superseded');
        },
      }),
      (method) => logged.push(method),
    );
    await expect(dispatch('getSettings', null)).resolves.toEqual({
      ok: false,
      error: { code: 'failed', message: 'The settings file is locked by another program.' },
    });
    await expect(dispatch('getViewCounts', null)).resolves.toEqual({
      ok: false,
      error: { code: 'superseded', message: 'A newer one was asked for.' },
    });
    const hidden = await dispatch('getSyncStatus', null);
    expect(hidden).toEqual({
      ok: false,
      error: { code: 'failed', message: 'getSyncStatus failed unexpectedly; see the app log.' },
    });
    expect(logged).toEqual(['getSyncStatus']);
  });
});
