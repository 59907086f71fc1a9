import { describe, expect, it } from 'vitest';
import { UpdateController, type UpdateState } from '../../../src/main/desktop/updates';

function setup(options: { syncing?: boolean; checkFails?: boolean } = {}) {
  const calls: string[] = [];
  const states: UpdateState['phase'][] = [];
  const deferred: (() => void)[] = [];
  let syncing = options.syncing ?? false;
  const controller = new UpdateController({
    updater: {
      setFeedURL: ({ url }) => calls.push(`feed ${url}`),
      checkForUpdates: async () => {
        calls.push('check');
        if (options.checkFails) throw new Error('getaddrinfo ENOTFOUND updates.example');
      },
      quitAndInstall: () => calls.push('restart'),
    },
    isSyncing: () => syncing,
    onState: (state) => states.push(state.phase),
    defer: (run) => deferred.push(run),
  });
  return {
    controller,
    calls,
    states,
    runDeferred: () => deferred.splice(0).forEach((run) => run()),
    setSyncing: (value: boolean) => {
      syncing = value;
      controller.syncStateChanged();
    },
  };
}

describe('updates', () => {
  it('never checks while the update url is empty', () => {
    const { controller, calls, runDeferred } = setup();
    controller.configure('');
    runDeferred();
    expect(calls).toEqual([]);
    expect(controller.current()).toEqual({ phase: 'disabled' });
  });

  it('checks the generic provider at the configured url, after start-up rather than during it', async () => {
    const { controller, calls, runDeferred } = setup();
    controller.configure('https://updates.example/quayside/');
    expect(calls).toEqual(['feed https://updates.example/quayside/']);
    runDeferred();
    await Promise.resolve();
    expect(calls).toEqual(['feed https://updates.example/quayside/', 'check']);
  });

  it('reports an unreachable update server as an error state, without throwing', async () => {
    const { controller } = setup({ checkFails: true });
    controller.configure('https://updates.example/');
    await controller.check();
    expect(controller.current()).toEqual({
      phase: 'error',
      message: 'getaddrinfo ENOTFOUND updates.example',
    });
  });

  it('never restarts on its own: a downloaded update waits for the restart request', () => {
    const { controller, calls } = setup();
    controller.configure('https://updates.example/');
    controller.downloading();
    controller.downloaded('0.2.0');
    expect(controller.current()).toEqual({ phase: 'ready', version: '0.2.0' });
    expect(calls).not.toContain('restart');
    expect(controller.requestRestart()).toBe('restarting');
    expect(calls).toContain('restart');
  });

  it('puts a restart asked for during a sync off until the sync ends', () => {
    const { controller, calls, setSyncing } = setup({ syncing: true });
    controller.configure('https://updates.example/');
    controller.downloaded('0.2.0');
    expect(controller.requestRestart()).toBe('after-sync');
    setSyncing(true);
    expect(calls).not.toContain('restart');
    setSyncing(false);
    expect(calls.filter((call) => call === 'restart')).toHaveLength(1);
    setSyncing(false);
    expect(calls.filter((call) => call === 'restart')).toHaveLength(1);
  });

  it('has nothing to restart for before an update is downloaded', () => {
    const { controller, calls } = setup();
    expect(controller.requestRestart()).toBe('no-update');
    expect(calls).not.toContain('restart');
  });
});
