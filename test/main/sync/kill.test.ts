import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { SyncEngine } from '../../../src/main/sync/engine';
import { ManualClock } from '../../../src/shared/clock';
import { childCommand } from '../../support/built-child';
import { applyFeedAnswer } from '../../support/feed-answers';
import { tempDir } from '../../support/cache-fixtures';
import { prng, serverState, startSeededService, type Harness } from '../../support/sync-harness';

const START = Date.UTC(2026, 2, 1, 12);
const CHILD = new URL('../../support/sync-child.ts', import.meta.url);

let h: Harness;
let serviceClock: ManualClock;
beforeAll(async () => {
  serviceClock = new ManualClock(START);
  h = await startSeededService({ clock: serviceClock, shipments: 20, containersPerShipment: 3 });
});
afterAll(async () => {
  await h.close();
});

/**
 * Starts a sync in a child process and kills it with SIGKILL `delayMs` after it started;
 * `ranMs`: from its start to its exit.
 */
async function runAndKill(
  dataDir: string,
  delayMs: number,
): Promise<{ killed: boolean; output: string; ranMs: number }> {
  const command = await childCommand(CHILD);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...command.args, h.baseUrl, h.apiKey, dataDir], {
      env: command.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    let started = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!timer && output.includes('started')) {
        started = performance.now();
        timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', output, ranMs: performance.now() - started });
    });
  });
}

/** Runs cut short by a kill, for the test to mean anything; and how many runs may try. */
const WANTED_KILLS = 8;
const MAX_RUNS = 40;

it(
  'a sync killed with SIGKILL at random points loses nothing and the next run converges',
  async () => {
    const tmp = tempDir('quayside-kill-');
    const random = prng(2026);
    const ids = (await serverState(h)).containers.map((c) => c.id);
    // Kill points spread over a whole sync as long as it takes on this machine: one left to
    // finish first (into a scratch folder) says how long that is.
    const scratch = tempDir('quayside-kill-whole-');
    const whole = await runAndKill(scratch.dir, 60_000);
    scratch.remove();
    expect(whole.output).toMatch(/synced \d+ shipments/);
    try {
      // Runs until eight were cut short: on a busy machine a run can finish before its kill
      // point, so the number of runs is not fixed; the outer limit only ends a hopeless loop.
      let killed = 0;
      for (let run = 0; killed < WANTED_KILLS; run++) {
        expect(run, `only ${killed} of ${run} runs were cut short`).toBeLessThan(MAX_RUNS);
        // The server keeps changing between runs: some LFDs move.
        serviceClock.advance(60_000);
        const id = ids[Math.floor(random() * ids.length)]!;
        await applyFeedAnswer(h.service.store, id, {
          lineLastFreeDay: new Date(START + (run + 5) * 86_400_000).toISOString(),
        });
        const outcome = await runAndKill(tmp.dir, Math.floor(random() * 0.9 * whole.ranMs));
        if (outcome.killed) killed++;
        else expect(outcome.output).toMatch(/synced \d+ shipments/);
        const cache = Cache.open(tmp.dir);
        expect(cache.integrityCheck()).toBe('ok');
        cache.close();
      }

      const cache = Cache.open(tmp.dir);
      try {
        const clock = new ManualClock(START);
        const engine = new SyncEngine({
          cache,
          clock,
          connection: () => ({ baseUrl: h.baseUrl, apiKey: h.apiKey }),
        });
        await engine.sync();
        const server = await serverState(h);
        expect(cache.allShipments()).toEqual(server.shipments);
        expect(cache.allContainers()).toEqual(server.containers);
        for (const [id, events] of server.events) {
          expect([...cache.eventsOf(id)].sort((a, b) => a.id.localeCompare(b.id))).toEqual(events);
        }
        expect(cache.counts().events).toBe(
          [...server.events.values()].reduce((n, e) => n + e.length, 0),
        );
        expect(cache.integrityCheck()).toBe('ok');
      } finally {
        cache.close();
      }
    } finally {
      tmp.remove();
    }
  },
  10 * 60_000,
);
