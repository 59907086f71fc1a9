/**
 * What the header says when the built-in tracking service goes away, as a dispatcher sees it in
 * browser mode: killed over and over (also while it restarts) it says Offline / Reconnecting and
 * comes back by itself; paused (hung, not dead) a sync ends with a timeout instead of "Syncing
 * 0%" forever. The cached board stays usable throughout. Also: the demo's simulated-time badge.
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';
import { boardCount, openFirstBoardContainer, steadyBoardCount } from '../support/e2e/app';

/** The embedded service process of the app using `dataDir` (its options name the folder). */
function servicePid(dataDir: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!command.includes('service-process.js')) continue;
      const environment = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (environment.includes(join(dataDir, 'embedded-service'))) return Number(entry);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return null;
}

/** Waits for a service process other than `previous` and returns its id. */
async function nextServicePid(dataDir: string, previous: number | null): Promise<number> {
  let pid: number | null = null;
  await expect
    .poll(
      () => {
        pid = servicePid(dataDir);
        return pid !== null && pid !== previous;
      },
      { timeout: 60_000, intervals: [20] },
    )
    .toBe(true);
  return pid!;
}

test.describe('connection state', () => {
  let dataDir: string;
  let app: LaunchedApp | null = null;
  let stopped: number | null = null;

  test.beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-conn-'));
  });
  test.afterEach(async () => {
    if (stopped !== null) {
      try {
        process.kill(stopped, 'SIGCONT');
      } catch {
        // Already gone.
      }
      stopped = null;
    }
    await app?.stop();
    app = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('killed three times in a row, it says so within 10 s and comes back by itself', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    app = await startBrowserMode(dataDir);
    await page.goto(`${app.url}#/containers`);
    const status = page.getByRole('status').first();
    await expect(status).toContainText('Up to date', { timeout: 120_000 });
    await expect.poll(() => boardCount(page), { timeout: 60_000 }).toBeGreaterThan(0);
    const rows = await boardCount(page);

    // The demo says its clock is simulated, and how fast it runs.
    await expect(page.getByTestId('clock-badge')).toContainText(/Simulated time · 600× · \d+ \w+/);

    let pid = await nextServicePid(dataDir, null);
    for (let kill = 1; kill <= 3; kill++) {
      process.kill(pid, 'SIGKILL');
      await expect(status).toContainText(/Offline|Reconnecting/, { timeout: 10_000 });
      await expect(status).not.toContainText('No service is configured');
      // The cached board stays on screen and browsable.
      expect(await boardCount(page)).toBeGreaterThanOrEqual(rows);
      // Killed again while it restarts (the last one is left to come up).
      if (kill < 3) pid = await nextServicePid(dataDir, pid);
    }
    await expect(status).toContainText(/since \d+ \w+ \d{2}:\d{2}/);
    await expect(page.getByTestId('clock-badge')).toContainText('paused');
    await page.screenshot({ path: test.info().outputPath('offline.png') });

    await expect(status).toContainText('Up to date', { timeout: 180_000 });
    await expect(page.getByTestId('clock-badge')).toContainText('600×');
    expect(await boardCount(page)).toBeGreaterThanOrEqual(rows);
  });

  test('a hung service ends the sync with a timeout, and the cached board stays usable', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    app = await startBrowserMode(dataDir);
    await page.goto(`${app.url}#/containers`);
    const status = page.getByRole('status').first();
    await expect(status).toContainText('Up to date', { timeout: 120_000 });
    await expect.poll(() => boardCount(page), { timeout: 60_000 }).toBeGreaterThan(0);
    const rows = await boardCount(page);

    const pid = await nextServicePid(dataDir, null);
    process.kill(pid, 'SIGSTOP');
    stopped = pid;
    const syncNow = page.getByRole('button', { name: 'Sync now' });
    await syncNow.click();
    // Two attempts of 10 s each, then a plain reason: well within 30 s of asking.
    await expect(status).toContainText('did not answer within 10 s', { timeout: 60_000 });
    await expect(status).toContainText(/Offline|Reconnecting/);
    await expect(syncNow).toBeEnabled();

    // The cached board still answers: no row is lost, and a container's detail opens.
    expect(await steadyBoardCount(page)).toBeGreaterThanOrEqual(rows);
    await openFirstBoardContainer(page);
    await page.screenshot({ path: test.info().outputPath('hung.png') });

    process.kill(pid, 'SIGCONT');
    stopped = null;
    await syncNow.click();
    await expect(status).toContainText('Up to date', { timeout: 120_000 });
  });
});
