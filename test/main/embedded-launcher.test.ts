/**
 * Supervision of the embedded service process: only the process-spawn edge is faked (a fork that
 * the test answers for), the launcher's timers are real and short.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmbeddedControlMessage, EmbeddedProcessOptions } from '../../src/embedded/protocol';
import { OPTIONS_ENV } from '../../src/embedded/protocol';
import {
  EmbeddedServiceProcess,
  type EmbeddedState,
  type ForkedProcess,
} from '../../src/main/service-launcher/launcher';
import { until as waitUntil } from '../support/wait';

/** One forked "process" the test drives: it says ready, fails, or exits when told. */
class FakeChild implements ForkedProcess {
  private messageListeners: ((message: unknown) => void)[] = [];
  private exitListeners: ((code: number | null) => void)[] = [];
  readonly sent: EmbeddedControlMessage[] = [];
  killed = false;

  constructor(readonly options: EmbeddedProcessOptions) {}

  onMessage(listener: (message: unknown) => void): void {
    this.messageListeners.push(listener);
  }
  onExit(listener: (code: number | null) => void): void {
    this.exitListeners.push(listener);
  }
  send(message: EmbeddedControlMessage): void {
    this.sent.push(message);
    if (message.type === 'shutdown') this.exit(0);
  }
  kill(): void {
    this.killed = true;
    this.exit(null);
  }
  ready(simNow = Date.UTC(2026, 10, 24, 13, 30)): void {
    for (const l of this.messageListeners) {
      l({ type: 'ready', baseUrl: 'http://127.0.0.1:9/v2', apiKey: 'k', simNow, simSpeed: 600 });
    }
  }
  exit(code: number | null): void {
    for (const l of this.exitListeners.splice(0)) l(code);
  }
}

/** Waits for what a restart does (an outer limit only), naming it if it never happens. */
const until = (check: () => boolean, what: string): Promise<void> =>
  waitUntil(check, 60_000, 5).catch(() => {
    throw new Error(`never happened: ${what}`);
  });

describe('the embedded service launcher', () => {
  let launcher: EmbeddedServiceProcess | null = null;
  afterEach(async () => {
    await launcher?.stop();
    launcher = null;
  });

  const setUp = (options: { restartDelayMs?: number; resumeAt?: () => number } = {}) => {
    const children: FakeChild[] = [];
    const states: EmbeddedState[] = [];
    const simTimes: number[] = [];
    launcher = new EmbeddedServiceProcess({
      dataDir: '/nonexistent',
      simSpeed: 600,
      seed: 42,
      restartDelayMs: options.restartDelayMs ?? 20,
      maxRestartDelayMs: 80,
      ...(options.resumeAt ? { resumeAt: options.resumeAt } : {}),
      fork: (env) => {
        const child = new FakeChild(JSON.parse(env[OPTIONS_ENV]!) as EmbeddedProcessOptions);
        children.push(child);
        return child;
      },
      onState: (state) => states.push(state),
      onSimulatedTime: (simNow) => simTimes.push(simNow),
    });
    return { launcher, children, states, simTimes };
  };

  it('restarts after every crash, with growing waits, for as long as it runs', async () => {
    const { launcher, children, states } = setUp();
    const started = launcher.start();
    children[0]!.ready();
    await expect(started).resolves.toMatchObject({ baseUrl: 'http://127.0.0.1:9/v2' });
    expect(launcher.state()).toMatchObject({ up: true, message: null, since: null });

    // Killed, then killed again during each restart: more than the old limit of three tries.
    const crashedAt = Date.now();
    children[0]!.exit(null);
    expect(launcher.connection()).toBeNull();
    const down = launcher.state();
    expect(down).toMatchObject({ up: false, restarting: false });
    expect(down.message).toMatch(/stopped unexpectedly\. Restarting in 1 s\./);
    expect(down.since).toBeGreaterThanOrEqual(crashedAt);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await until(() => children.length === attempt + 1, `restart ${attempt}`);
      expect(launcher.state()).toMatchObject({ up: false, restarting: true });
      children[attempt]!.exit(1);
      // The outage started with the first crash, whatever happened since.
      expect(launcher.state()).toMatchObject({ up: false, since: down.since });
      expect(launcher.state().message).toContain('exited (code 1)');
    }
    await until(() => children.length === 7, 'restart 6');
    children[6]!.ready();
    await until(() => launcher.state().up, 'up again');
    expect(launcher.connection()).not.toBeNull();

    // Waits doubled per failure in a row (20, 40, 80 ms, capped at 80), in the state's words.
    const waits = states.filter((s) => !s.up && !s.restarting).map((s) => s.message);
    expect(waits).toHaveLength(6);

    // A good start resets the backoff: the next crash waits the first delay again.
    children[6]!.exit(null);
    await until(() => children.length === 8, 'restart after reset');
  });

  it('restarts at once when asked (Sync now) instead of waiting out the backoff', async () => {
    const { launcher, children } = setUp({ restartDelayMs: 60_000 });
    const started = launcher.start();
    children[0]!.ready();
    await started;
    children[0]!.exit(null);
    expect(children).toHaveLength(1);
    expect(launcher.retryNow()).toBe(true);
    expect(children).toHaveLength(2);
    expect(launcher.state()).toMatchObject({ up: false, restarting: true });
    // Nothing is waiting now: a second request does not fork another process.
    expect(launcher.retryNow()).toBe(false);
    children[1]!.ready();
    await until(() => launcher.state().up, 'up again');
  });

  it('keeps trying after a failed first start, and stops trying once stopped', async () => {
    const { launcher, children } = setUp();
    const started = launcher.start();
    children[0]!.exit(1);
    await expect(started).rejects.toThrow(/exited \(code 1\)/);
    await until(() => children.length === 2, 'second attempt');
    await launcher.stop();
    expect(children[1]!.sent).toEqual([{ type: 'shutdown' }]);
    await new Promise((r) => setTimeout(r, 150));
    expect(children).toHaveLength(2);
  });

  it("asks the world to resume no earlier than the app's clock", async () => {
    const appTime = Date.UTC(2026, 10, 25, 8, 0);
    const { launcher, children, simTimes } = setUp({ resumeAt: () => appTime });
    const started = launcher.start();
    expect(children[0]!.options).toMatchObject({ resumeAt: appTime, simSpeed: 600, seed: 42 });
    children[0]!.ready(appTime + 5_000);
    await started;
    expect(simTimes).toEqual([appTime + 5_000]);
  });
});
