/**
 * What a dispatcher notices while the world moves: a last free day changes and Quayside says so
 * (an alert in the centre, a toast, and a desktop notification); the service goes away and the
 * cached board stays browsable with an offline status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';
import { boardCount, openFirstBoardContainer, steadyBoardCount } from '../support/e2e/app';

const repoRoot = resolve(import.meta.dirname, '..', '..');

test.describe('live changes', () => {
  let dataDir: string;
  let app: LaunchedApp | null = null;
  let service: ChildProcess | null = null;

  test.beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-live-'));
  });
  test.afterEach(async () => {
    await app?.stop();
    service?.kill('SIGKILL');
    app = null;
    service = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a changed last free day raises an alert, a toast and a desktop notification', async ({
    page,
    context,
  }) => {
    test.setTimeout(360_000);
    // Six simulated hours per second: the app syncs the demo every 15 real seconds, so each sync
    // after the first spans days of the world, and LFDs set or moved since the one before raise
    // the alert (at two hours a second the first came after three or four syncs).
    app = await startBrowserMode(dataDir, ['--sim-speed', '21600']);
    await context.grantPermissions(['notifications']);
    // Record the desktop notifications the page raises (the OS notification centre is the edge).
    await page.addInitScript(() => {
      const shown: string[] = [];
      (globalThis as unknown as { shownNotifications: string[] }).shownNotifications = shown;
      class RecordingNotification {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        onclick: (() => void) | null = null;
        constructor(title: string) {
          shown.push(title);
        }
        close() {}
      }
      (globalThis as unknown as { Notification: unknown }).Notification = RecordingNotification;
    });
    await page.goto(app.url);

    const toast = page
      .getByRole('region', { name: 'Notifications' })
      .getByText(/^LFD changed for [A-Z]{4}\d{7}/)
      .first();
    await expect(toast).toBeVisible({ timeout: 300_000 });
    const title = (await toast.textContent())?.trim() ?? '';
    const number = /[A-Z]{4}\d{7}/.exec(title)?.[0] ?? '';
    // The newest toast about a container carries its find link, to copy and pass on (a newer
    // toast about a whole shipment has none: wait for the next one about a box).
    await expect(
      page
        .getByRole('region', { name: 'Notifications' })
        .getByRole('button', { name: 'Copy link' }),
    ).toHaveAttribute('data-link', /^quayside:\/\/find\?q=[A-Z]{4}\d{7}$/, { timeout: 300_000 });

    await expect
      .poll(() =>
        page.evaluate(
          () => (globalThis as unknown as { shownNotifications: string[] }).shownNotifications,
        ),
      )
      .toContainEqual(expect.stringContaining(`LFD changed for ${number}`));

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Alerts' })
      .click();
    await expect(page.getByText(`LFD changed for ${number}`).first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('alerts-lfd-changed.png') });
  });

  test('when the service goes away, the cached board stays browsable and says offline', async ({
    page,
  }) => {
    test.setTimeout(480_000);
    // A separate tracking service the app connects to as a remote one.
    const serviceDir = join(dataDir, 'remote-service');
    service = spawn(
      process.execPath,
      ['bin/quayside.mjs', 'serve', '--sim', '--port', '0', '--data-dir', serviceDir],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => /API key: (\S+)/.test(output), { timeout: 120_000 }).toBe(true);
    const baseUrl = /listening on (\S+)/.exec(output)?.[1] ?? '';
    const apiKey = /API key: (\S+)/.exec(output)?.[1] ?? '';

    app = await startBrowserMode(join(dataDir, 'app'));
    await page.goto(`${app.url}#/settings`);
    await page.getByLabel('Remote tracking service').check();
    await page.getByLabel('Service URL (ends in /v2)').fill(baseUrl);
    await page
      .getByLabel(/API key/)
      .first()
      .fill(apiKey);
    const storeKey = page.getByRole('button', { name: /Store key|Save key/ });
    if (await storeKey.isVisible()) await storeKey.click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Saved')).toBeVisible();

    // The remote service's demo shipments reach the board.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Containers' })
      .click();
    // Boxes that finish (picked up, returned) leave the default view as the world moves on; with
    // them shown, a count can only grow until the service goes away.
    await page.getByRole('checkbox', { name: 'Show completed' }).check();
    const count = page.getByTestId('board-count');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Sync now' }).click();
          return Number(/([\d,]+) containers?\b/.exec((await count.textContent()) ?? '')?.[1] ?? 0);
        },
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBeGreaterThan(0);
    // A sync still in flight may add the service's newest boxes after this reading.
    const before = await boardCount(page);

    service.kill('SIGKILL');
    await page.getByRole('button', { name: 'Sync now' }).click();
    const offline = page.getByRole('status').filter({ hasText: 'Offline' }).first();
    await expect(offline).toBeVisible({ timeout: 120_000 });
    // Still browsable from the cache: no row lost, none changes while offline, and a
    // container's detail opens.
    const cached = await steadyBoardCount(page);
    expect(cached).toBeGreaterThanOrEqual(before);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(offline).toBeVisible();
    expect(await boardCount(page)).toBe(cached);
    await openFirstBoardContainer(page);
    await page.screenshot({ path: test.info().outputPath('offline-detail.png') });
  });
});
