import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DateTime } from 'luxon';
import { writeSimClock } from '../../src/embedded/sim-clock-file';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';
import { boardCount, bridge, syncUntil } from '../support/e2e/app';

test.describe('saved views, the daily digest and the per diem clock', () => {
  let dataDir: string;
  let app: LaunchedApp | null = null;

  test.beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-clock-'));
  });
  test.afterEach(async () => {
    await app?.stop();
    app = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a saved view survives a restart of the app', async ({ page }) => {
    test.setTimeout(300_000);
    app = await startBrowserMode(dataDir);
    await page.goto(`${app.url}#/containers`);
    await page.getByRole('combobox', { name: 'Readiness' }).selectOption('no');
    await page.getByRole('combobox', { name: 'Holds' }).selectOption('no');
    await page.getByRole('button', { name: 'Save view…' }).click();
    await page.getByRole('textbox', { name: 'View name' }).fill('Not ready, no holds');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const chip = page.getByRole('button', { name: 'Not ready, no holds', exact: true });
    await expect(chip).toHaveAttribute('aria-pressed', 'true');
    await app.stop();

    // A new launch listens on another port: the browser's storage for the page is new too.
    app = await startBrowserMode(dataDir);
    await page.goto(`${app.url}#/containers`);
    const again = page.getByRole('button', { name: 'Not ready, no holds', exact: true });
    await expect(again).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Readiness' })).toHaveValue('any');
    await again.click();
    await expect(page.getByRole('combobox', { name: 'Readiness' })).toHaveValue('no');
    await expect(page.getByRole('combobox', { name: 'Holds' })).toHaveValue('no');
    await expect(again).toHaveAttribute('aria-pressed', 'true');
  });

  test('the daily digest fires once at its time on the app clock and opens the worklist', async ({
    page,
    context,
  }) => {
    test.setTimeout(300_000);
    await context.grantPermissions(['notifications']);
    // Record the desktop notifications the page raises (the OS notification centre is the edge).
    await page.addInitScript(() => {
      const shown: { title: string; onclick: (() => void) | null }[] = [];
      (globalThis as unknown as { shownNotifications: unknown }).shownNotifications = shown;
      class RecordingNotification {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        onclick: (() => void) | null = null;
        constructor(readonly title: string) {
          shown.push(this);
        }
        close() {}
      }
      (globalThis as unknown as { Notification: unknown }).Notification = RecordingNotification;
    });
    // One simulated minute per real second, so the digest time is a few seconds away.
    app = await startBrowserMode(dataDir, ['--sim-speed', '60']);
    await page.goto(`${app.url}#/containers`);
    await syncUntil(page, async () => (await boardCount(page)) > 0);

    const clock = await bridge<{ now: string }>(app, 'getClock', null);
    const at = DateTime.fromISO(clock.now).plus({ minutes: 6 }).startOf('minute');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel(/^Digest time/).fill(at.toFormat('HH:mm'));
    await page.getByRole('button', { name: 'Save worklist and costs' }).click();
    await expect(page.getByText('Saved', { exact: true }).last()).toBeVisible();

    // Only the digest of the time set here (a digest at the default time is another day's).
    const digests = async () =>
      (
        await bridge<{ alerts: { title: string; body: string; createdAt: string }[] }>(
          app!,
          'listAlerts',
          { kinds: ['daily_digest'] },
        )
      ).alerts.filter((alert) => Date.parse(alert.createdAt) >= at.toMillis());
    await expect.poll(async () => (await digests()).length, { timeout: 120_000 }).toBe(1);
    const [digest] = await digests();
    expect(digest?.body).toMatch(
      /^[\d,]+ to move today, [\d,]+ LFD tomorrow, \$[\d,]+ accruing\.$/,
    );

    // One desktop notification, whose click opens the worklist.
    const shownDigests = () =>
      page.evaluate(
        () =>
          (
            globalThis as unknown as { shownNotifications: { title: string }[] }
          ).shownNotifications.filter((n) => n.title.startsWith('Your morning')).length,
      );
    await expect.poll(shownDigests).toBe(1);
    await page.evaluate(() => {
      const shown = (
        globalThis as unknown as {
          shownNotifications: { title: string; onclick: (() => void) | null }[];
        }
      ).shownNotifications;
      shown.find((n) => n.title.startsWith('Your morning'))?.onclick?.();
    });
    await expect(page.getByRole('heading', { name: 'Worklist', level: 1 })).toBeVisible();

    // Twenty more simulated minutes: still exactly one for the day.
    await page.waitForTimeout(20_000);
    expect(await digests()).toHaveLength(1);
    expect(await shownDigests()).toBe(1);
  });

  test('after pickup the board counts down to the empty return and reminds once', async ({
    page,
  }) => {
    test.setTimeout(720_000);
    // The demo world's boxes are discharged in Los Angeles. Its clock (the edge a test sets)
    // starts at the next 19:00 there, as a world saved then resumes, so local midnight is a few
    // simulated hours away at launch and the reminder's wait does not hang on the hour CI runs.
    // (A saved clock behind real time would be moved up to now.)
    const seed = 42;
    const now = DateTime.now().setZone('America/Los_Angeles');
    let startedAt = now.set({ hour: 19 }).startOf('hour');
    if (startedAt <= now) startedAt = startedAt.plus({ days: 1 });
    const worldDir = join(dataDir, 'embedded-service');
    mkdirSync(worldDir, { recursive: true, mode: 0o700 });
    writeSimClock(worldDir, { simNow: startedAt.toMillis(), origin: startedAt.toMillis(), seed });
    app = await startBrowserMode(dataDir, ['--seed', String(seed)]);
    await page.goto(`${app.url}#/containers`);
    const status = page.getByRole('combobox', { name: 'Status' });
    await syncUntil(page, async () =>
      (await status.locator('option').allTextContents()).some((t) => t.startsWith('Picked up')),
    );
    // A picked-up box, and a per diem rule for its line whose free time ends today there.
    const picked = await bridge<{
      rows: {
        id: string;
        number: string;
        lineScac: string;
        pickedUpAt: string;
        podTimezone: string;
      }[];
    }>(app, 'listContainers', { status: ['picked_up'], limit: 1 });
    const box = picked.rows[0]!;
    const clock = await bridge<{ now: string; speed: number }>(app, 'getClock', null);
    const podZone = box.podTimezone;
    // Free time ends at the end of tomorrow there: the reminder's day of notice begins at the
    // coming midnight, after the source's baseline (a notice already running when the app
    // first looked is not news), so the reminder comes then, once.
    const local = DateTime.fromISO(clock.now, { zone: podZone });
    const untilMidnightMs = local.plus({ days: 1 }).startOf('day').diff(local).toMillis();
    const freeDays =
      1 +
      Math.round(
        DateTime.fromISO(clock.now, { zone: podZone })
          .startOf('day')
          .diff(DateTime.fromISO(box.pickedUpAt, { zone: podZone }).startOf('day'), 'days').days,
      );
    const settings = await bridge<{ costs: { terminals: unknown[] } }>(app, 'getSettings', null);
    await bridge(app, 'updateSettings', {
      costs: {
        terminals: settings.costs.terminals,
        lines: [
          { scac: '*', freeDays: 30, currency: 'USD', perDay: 125 },
          { scac: box.lineScac, freeDays, currency: 'USD', perDay: 175 },
        ],
      },
    });

    await page.getByRole('searchbox', { name: 'Filter containers' }).fill(box.number);
    const perDiem = page.getByTestId('per-diem');
    await expect(perDiem).toHaveCount(1);
    // The last free day is tomorrow: a countdown of a day and hours.
    await expect(perDiem).toHaveText(
      /^(Return empty: (\d+d )?\d+h( \d+m)? left|Return empty: \d+m left|Per diem \$[\d,.]+ · \+\$175\.00\/day)$/,
    );
    await expect(page.getByTestId('view-cost')).toBeVisible();

    const reminders = async () =>
      (
        await bridge<{ alerts: { title: string; containerId: string }[] }>(app!, 'listAlerts', {
          kinds: ['empty_return_due'],
        })
      ).alerts.filter((alert) => alert.containerId === box.id);
    // Midnight there comes after untilMidnightMs of the demo's clock; then some room for the
    // watch's next check on a busy machine.
    await expect
      .poll(async () => (await reminders()).length, {
        timeout: untilMidnightMs / clock.speed + 60_000,
      })
      .toBe(1);
    expect((await reminders())[0]?.title).toBe(`Empty return due today for ${box.number}`);
    await page.waitForTimeout(5_000);
    expect(await reminders()).toHaveLength(1);
  });
});
