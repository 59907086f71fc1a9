/**
 * The embedded demo world pauses while the app is closed: a restart continues the same world
 * (same origin, simulated time going on from where it stopped) instead of replaying it from now.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SIM_CLOCK_FILE } from '../../src/embedded/sim-clock-file';
import { startEmbeddedService } from '../../src/embedded/service-with-world';

describe('embedded service restarts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-embedded-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('continues the simulated world where it stopped, with the same key', async () => {
    // 1 simulated hour per real second.
    const first = await startEmbeddedService({ dataDir, simSpeed: 3600, seed: 3, seedDemo: false });
    const firstOrigin = first.sim.world.model.origin;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const stoppedAt = first.clock.now();
    await first.close();
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, SIM_CLOCK_FILE), 'utf8')) as {
      simNow: number;
    };
    expect(saved.simNow).toBeGreaterThanOrEqual(stoppedAt);

    // Closed for a while: the world does not move meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const startedAt = Date.now();
    const second = await startEmbeddedService({
      dataDir,
      simSpeed: 3600,
      seed: 3,
      seedDemo: false,
    });
    const startupMs = Date.now() - startedAt;
    try {
      expect(second.sim.world.model.origin).toBe(firstOrigin);
      expect(second.apiKey).toBe(first.apiKey);
      const resumedAt = second.clock.now();
      expect(resumedAt).toBeGreaterThanOrEqual(saved.simNow);
      // The clock runs from its saved reading during start-up only. Had it kept running while
      // closed, it would be two more simulated hours further (the slack here is half an hour).
      expect(resumedAt - saved.simNow).toBeLessThan(startupMs * 3600 + 30 * 60_000);
    } finally {
      await second.close();
    }
  });

  it("resumes no earlier than the app's clock (a crash can lose the last save)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-embedded-resume-'));
    try {
      const first = await startEmbeddedService({ dataDir: dir, simSpeed: 3600, seedDemo: false });
      const origin = first.sim.world.model.origin;
      await first.close();
      const saved = JSON.parse(fs.readFileSync(path.join(dir, SIM_CLOCK_FILE), 'utf8')) as {
        simNow: number;
      };
      // The app stamped alerts six simulated hours after the world's last save.
      const appTime = saved.simNow + 6 * 3_600_000;
      const second = await startEmbeddedService({
        dataDir: dir,
        simSpeed: 3600,
        seedDemo: false,
        resumeAt: appTime,
      });
      try {
        expect(second.clock.now()).toBeGreaterThanOrEqual(appTime);
        expect(second.sim.world.model.origin).toBe(origin);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts a new world when the seed changes', async () => {
    const other = await startEmbeddedService({ dataDir, simSpeed: 3600, seed: 4, seedDemo: false });
    try {
      const saved = JSON.parse(fs.readFileSync(path.join(dataDir, SIM_CLOCK_FILE), 'utf8')) as {
        seed: number;
      };
      expect(saved.seed).toBe(4);
      expect(Math.abs(other.clock.now() - Date.now())).toBeLessThan(60 * 60_000);
    } finally {
      await other.close();
    }
  });
});
