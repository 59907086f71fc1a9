/**
 * The last free day as a dispatcher reads it: a calendar day of the terminal's (or ramp's) zone
 * whose free time runs through the end of that day. At a fixed app time on the day the board and
 * the detail say "left"; the next morning they say "overdue". The app clock is the faked edge:
 * the renderer's clock reading is answered with a fixed time instead of main's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { hasLeftTerminal, rowHeadlineDeadline } from '../../src/shared/container';
import type { BoardPage, BoardRow } from '../../src/shared/desktop';
import { bridge, syncUntil } from '../support/e2e/app';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';

/** A container still at the terminal with a last free day, syncing until the world has one. */
async function containerWithLfd(page: Page, app: LaunchedApp): Promise<BoardRow> {
  let found: BoardRow | undefined;
  await syncUntil(page, async () => {
    const { rows } = await bridge<BoardPage>(app, 'listContainers', { limit: 1000 });
    found = rows.find((r) => rowHeadlineDeadline(r) !== null && !hasLeftTerminal(r.status));
    return found !== undefined;
  });
  return found!;
}

test.describe('last free day', () => {
  let dataDir: string;
  let app: LaunchedApp;
  /** The app time the renderer is told (null: main's own clock). */
  let fixedNow: number | null = null;

  test.beforeEach(async ({ page }) => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-lfd-'));
    app = await startBrowserMode(dataDir);
    fixedNow = null;
    await page.route('**/bridge/getClock', async (route) => {
      if (fixedNow === null) return route.continue();
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          ok: true,
          result: { now: new Date(fixedNow).toISOString(), speed: 0 },
        }),
      });
    });
  });
  test.afterEach(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('counts down through the whole last free day and is overdue the next morning', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.goto(`${app.url}#/containers`);
    const row = await containerWithLfd(page, app);
    // The deadline the board leads with (the earliest that counts where the box is): on its day
    // no earlier one has passed, so the cell counts down to it.
    const last = rowHeadlineDeadline(row)!;
    const day = DateTime.fromISO(last.date, { zone: last.zone });
    const shownDate = day.toFormat('d LLL');

    const lfdCell = async () => {
      await page.getByRole('searchbox', { name: 'Filter containers' }).fill(row.number);
      const grid = page.getByRole('grid', { name: 'Containers' });
      await expect(grid.getByRole('row')).toHaveCount(2);
      await expect(grid.getByRole('row').nth(1)).toContainText(row.number);
      return grid.getByRole('row').nth(1).getByTestId('lfd-cell');
    };

    // 05:30 local on the last free day: free time runs until midnight, 18h 30m away.
    fixedNow = day.set({ hour: 5, minute: 30 }).toMillis();
    await page.reload();
    let cell = await lfdCell();
    await expect(cell).toContainText(shownDate);
    await expect(cell).toContainText(/1[7-9]h 30m left/);
    await expect(cell).not.toContainText('overdue');
    await page.screenshot({ path: test.info().outputPath('lfd-day.png') });

    // The detail lists the deadline with its zone, counted the same way.
    await page.getByRole('grid', { name: 'Containers' }).getByRole('row').nth(1).click();
    await expect(page.getByRole('heading', { name: row.number })).toBeVisible();
    const deadlines = page.getByRole('table', { name: 'Last free days' });
    await expect(deadlines).toContainText(last.zone);
    await expect(deadlines).toContainText(day.toFormat('ccc d LLL'));
    await expect(deadlines).toContainText('left');
    await page.goBack();

    // 05:30 local the next morning: the day is over.
    fixedNow = day.plus({ days: 1 }).set({ hour: 5, minute: 30 }).toMillis();
    await page.reload();
    cell = await lfdCell();
    await expect(cell).toContainText(shownDate);
    await expect(cell).toContainText('overdue 5h 30m');
    await page.screenshot({ path: test.info().outputPath('lfd-next-morning.png') });
  });
});
