/**
 * Time, alerts and loading belong to the source shown, as a new user meets them: the demo runs
 * fast for a while, then Settings → Remote tracking service connects a second service on real
 * time. The worklist's day, a countdown and "Terminal checked" then follow the real clock in the
 * terminal's zone, the header says real time, no demo alert is listed and at most one summary
 * is raised; switching back brings the demo's own alerts and clock. A first launch says it is
 * loading until its first sync has brought the data, and shows it without navigation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { lfdCountdown, lfdLocalDate } from '../../src/shared/container';
import { formatLocalDate } from '../../src/shared/date-style';
import type { AppClock } from '../../src/shared/bridge';
import type { AlertList, ContainerDetail } from '../../src/shared/desktop';
import { formatRelative } from '../../src/renderer/lib/format';
import { childCommand } from '../support/built-child';
import { bridge, syncUntil } from '../support/e2e/app';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';
import type { RealTimeServiceInfo } from '../support/e2e/real-time-service';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const REAL_TIME_SERVICE = new URL('../support/e2e/real-time-service.ts', import.meta.url);
const DAY = 86_400_000;

/** Starts the second service (real time) as its own process and reads what it seeded. */
async function startRealTimeService(
  dataDir: string,
): Promise<{ info: RealTimeServiceInfo; child: ChildProcess }> {
  const command = await childCommand(REAL_TIME_SERVICE);
  const child = spawn(process.execPath, [...command.args, dataDir], {
    cwd: repoRoot,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no service within 120 s:\n${output}`)),
      120_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line && output.includes('\n')) {
        clearTimeout(timer);
        resolvePromise({ info: JSON.parse(line) as RealTimeServiceInfo, child });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${String(code)}:\n${output}`));
    });
  });
}

const alerts = (app: LaunchedApp) => bridge<AlertList>(app, 'listAlerts', { limit: 500 });
/** An alert as a reader tells it apart (ids are numbered per source). */
const said = (list: AlertList) => list.alerts.map((a) => `${a.title} | ${a.body}`);

async function connect(page: Page, mode: 'remote' | 'embedded', info?: RealTimeServiceInfo) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  if (mode === 'remote') {
    await page.getByLabel('Remote tracking service').check();
    await page.getByLabel('Service URL (ends in /v2)').fill(info!.baseUrl);
    await page.getByLabel(/^API key/).fill(info!.apiKey);
    await page.getByRole('button', { name: 'Store key' }).click();
    await expect(page.getByText(/^Key stored/)).toBeVisible();
  } else {
    await page.getByLabel(/^Built-in service with the simulated world/).check();
  }
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved', { exact: true }).first()).toBeVisible();
}

test.describe('time and alerts belong to the source', () => {
  let dataDir: string;
  let app: LaunchedApp | null = null;
  let remote: ChildProcess | null = null;

  test.beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-source-'));
  });
  test.afterEach(async () => {
    await app?.stop();
    app = null;
    if (remote && remote.exitCode === null) {
      const exited = new Promise((done) => remote!.once('exit', done));
      remote.kill('SIGTERM');
      await exited;
    }
    remote = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a real-time service runs on real time with its own alerts; the demo comes back', async ({
    page,
  }) => {
    test.setTimeout(480_000);
    // A simulated week passes in about half a minute.
    app = await startBrowserMode(join(dataDir, 'app'), ['--sim-speed', '20000']);
    const started = startRealTimeService(join(dataDir, 'remote'));
    await page.goto(`${app.url}#/worklist`);
    await syncUntil(page, async () => (await alerts(app!)).total >= 3, 120_000);
    const demoClock = await bridge<AppClock>(app, 'getClock', null);
    expect(demoClock.simulated).toBe(true);
    expect(Date.parse(demoClock.now) - Date.now()).toBeGreaterThan(DAY);
    const demoAlerts = said(await alerts(app));
    await expect(page.getByTestId('clock-badge')).toContainText('Simulated time · 20,000×');

    const { info, child } = await started;
    remote = child;
    await connect(page, 'remote', info);

    // The header says real time at once, and the app's clock is the real one.
    await expect(page.getByTestId('clock-badge')).toContainText('Real time ·');
    const realClock = await bridge<AppClock>(app, 'getClock', null);
    expect(realClock).toMatchObject({ simulated: false, speed: 1 });
    expect(Math.abs(Date.parse(realClock.now) - Date.now())).toBeLessThan(5_000);
    const status = page.getByRole('status').filter({ hasText: /Up to date|Loading|Syncing/ });
    await expect(status.first()).toContainText('Up to date', { timeout: 120_000 });

    // The worklist's day is today at the terminal, its countdown the real one.
    const zone = info.container.zone;
    const lfdDate = lfdLocalDate(info.container.lastFreeDay, zone)!;
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Worklist' })
      .click();
    const today = DateTime.now().setZone(zone).toISODate()!;
    await expect(page.locator('.worklist__place-title').first()).toContainText(
      formatLocalDate(today, zone),
    );
    const countdown =
      (await page.getByTestId('lfd-cell').first().locator('.lfd__countdown').textContent()) ?? '';
    const now = Date.now();
    expect([lfdCountdown(lfdDate, zone, now - 60_000), lfdCountdown(lfdDate, zone, now)]).toContain(
      countdown.trim(),
    );

    // "Terminal checked" as the service stamped it, read against the real clock.
    const detail = await bridge<ContainerDetail>(app, 'getContainerDetail', {
      id: info.container.id,
    });
    await page.goto(`${app.url}#/containers/${info.container.id}`);
    const checked = page
      .locator('dt', { hasText: 'Terminal checked' })
      .locator('xpath=following-sibling::dd[1]');
    await expect(checked).toHaveText(formatRelative(detail!.row.terminalCheckedAt, Date.now()));

    // None of the demo's alerts is listed; at most one summary of what is already true.
    const remoteAlerts = said(await alerts(app));
    expect(remoteAlerts.filter((alert) => demoAlerts.includes(alert))).toEqual([]);
    expect(remoteAlerts.length).toBeLessThanOrEqual(1);
    for (const alert of remoteAlerts) expect(alert).toMatch(/^Now showing the service at /);
    await page.screenshot({ path: test.info().outputPath('real-time.png') });

    // Back to the demo: its own alerts and its clock (never behind where it was).
    await connect(page, 'embedded');
    await expect(page.getByTestId('clock-badge')).toContainText('Simulated time');
    const back = await bridge<AppClock>(app, 'getClock', null);
    expect(back.simulated).toBe(true);
    expect(Date.parse(back.now)).toBeGreaterThanOrEqual(Date.parse(demoClock.now));
    const backAlerts = said(await alerts(app));
    expect(backAlerts).toEqual(expect.arrayContaining(demoAlerts));
  });

  test('a first launch says it is loading, then shows the real counts without navigation', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    app = await startBrowserMode(dataDir);
    // Everything the page shows until the worklist has boxes is recorded.
    const seen: string[] = [];
    await page.goto(`${app.url}#/worklist`);
    const summary = page.getByTestId('worklist-summary');
    const header = page.locator('.sync-status');
    const deadline = Date.now() + 120_000;
    let rows = 0;
    while (rows === 0) {
      if (Date.now() > deadline) throw new Error('the worklist never showed a box');
      const status = (await header.textContent()) ?? '';
      const main = (await page.locator('main').textContent()) ?? '';
      // A reading taken as the data arrived shows the boxes (their table's "Next action"
      // header): only the readings without any box count as "before the data".
      if (!main.includes('Next action')) seen.push(`${status} | ${main}`);
      rows = await page.getByTestId('worklist-row').count();
      await page.waitForTimeout(200);
    }
    const beforeData = seen.join('\n');
    expect(beforeData).not.toContain('Nothing to act on today');
    expect(beforeData).not.toContain('Up to date');
    expect(beforeData).toContain('Loading');
    // The counts are the real ones, on the page that was open all along.
    await expect(header).toContainText('Up to date', { timeout: 120_000 });
    const shownTotal = async () => {
      const chips = await summary.locator('[data-section]').allTextContents();
      return chips.reduce(
        (sum, chip) => sum + Number(/(\d[\d,]*)$/.exec(chip)?.[1]?.replace(/,/g, '') ?? 0),
        0,
      );
    };
    const realTotal = async () => {
      const worklist = await bridge<{ counts: Record<string, number> }>(app!, 'getWorklist', null);
      return Object.values(worklist.counts).reduce((sum, n) => sum + n, 0);
    };
    await expect
      .poll(async () => (await shownTotal()) === (await realTotal()) && (await realTotal()) > 0, {
        timeout: 60_000,
      })
      .toBe(true);
  });
});
