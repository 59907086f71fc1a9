import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  boardCount,
  freshAppPerTest,
  openFirstBoardContainer,
  syncUntil,
  untrackedShipment,
} from '../support/e2e/app';

const columnValues = async (page: Page, header: string) => {
  const headers = await page.getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.trim().startsWith(header));
  expect(index, `column ${header}`).toBeGreaterThanOrEqual(0);
  return page.locator('[role=rowgroup].board__body [role=row]').evaluateAll(
    (rows, column) =>
      rows
        .map((row) => ({
          index: Number(row.getAttribute('data-index')),
          text: row.querySelectorAll('[role=gridcell]')[column]?.textContent ?? '',
        }))
        .sort((a, b) => a.index - b.index)
        .map((row) => row.text.trim()),
    index,
  );
};

test.describe('desktop UI against the embedded service and simulated world', () => {
  const fresh = freshAppPerTest('quayside-ui-');

  test('the board fills from the first sync; sort, filter, search and export work', async ({
    page,
  }) => {
    await page.goto(`${fresh.app.url}#/containers`);
    await syncUntil(page, async () => (await boardCount(page)) > 1); // sorting needs two rows
    // The first sync lands page by page: count the board once it has finished.
    await expect(page.locator('.sync-status--idle')).toBeVisible({ timeout: 120_000 });
    const grid = page.getByRole('grid', { name: 'Containers' });
    await expect(grid.getByRole('row').nth(1)).not.toHaveAttribute('aria-busy', 'true');
    await page.screenshot({ path: test.info().outputPath('board.png') });
    const total = await boardCount(page);

    // Sort by container number, both ways (server-side).
    await grid.getByRole('button', { name: 'Container' }).click();
    await expect(grid.getByRole('columnheader', { name: 'Container' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect
      .poll(async () => {
        const numbers = await columnValues(page, 'Container');
        return numbers.length > 1 && numbers.join() === [...numbers].sort().join();
      })
      .toBe(true);
    await grid.getByRole('button', { name: 'Container' }).click();
    await expect(grid.getByRole('columnheader', { name: 'Container' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect
      .poll(async () => {
        const numbers = await columnValues(page, 'Container');
        return numbers.length > 1 && numbers.join() === [...numbers].sort().reverse().join();
      })
      .toBe(true);

    // Filter by line: every row then shows that line, and the count drops.
    const lineFilter = page.getByRole('combobox', { name: 'Line' });
    const firstLine = (await lineFilter.locator('option').nth(1).getAttribute('value')) ?? '';
    await lineFilter.selectOption(firstLine);
    await expect.poll(() => boardCount(page)).toBeLessThan(total);
    await expect
      .poll(async () => {
        const lines = await columnValues(page, 'Line');
        return lines.length > 0 && lines.every((line) => line === firstLine);
      })
      .toBe(true);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    // Every container is back (a scheduled sync of the living world may have added some).
    await expect.poll(() => boardCount(page)).toBeGreaterThanOrEqual(total);

    // Search for one container by number.
    const [someNumber] = await columnValues(page, 'Container');
    await page.getByRole('searchbox', { name: 'Filter containers' }).fill(someNumber ?? '');
    await expect.poll(() => boardCount(page)).toBe(1);
    await expect(grid.getByRole('row').nth(1)).toContainText(someNumber ?? '');

    // Export the current view: a CSV with a header and the one row.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(someNumber);
    await expect(page.getByText('Exported 1 row')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter containers' }).fill('');

    // Ctrl+K finds it from anywhere and opens its detail.
    await page.getByRole('link', { name: 'Shipments' }).click();
    await page.keyboard.press('Control+k');
    await page
      .getByRole('combobox', { name: 'Search containers and shipments' })
      .fill(someNumber ?? '');
    await expect(page.getByRole('option').first()).toContainText(someNumber ?? '');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: someNumber })).toBeVisible();
  });

  test("a container's detail shows its dates at the port of loading", async ({ page }) => {
    await page.goto(`${fresh.app.url}#/containers`);
    await page.getByRole('button', { name: /^At sea/ }).click();
    await syncUntil(page, async () => (await boardCount(page)) > 0);
    await openFirstBoardContainer(page);
    // A box at sea was loaded and sailed at the port of loading: the line's events say when.
    const dates = page.getByRole('region', { name: 'Key dates' });
    for (const label of ['Loaded at POL', 'Departed POL']) {
      const cell = dates.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell');
      await expect(cell).toHaveText(/\d{4}|\d{1,2}:\d{2}/);
    }
  });

  test('a container at sea shows its ports, the path sailed and the vessel on the map', async ({
    page,
  }) => {
    await page.goto(`${fresh.app.url}#/containers`);
    await page.getByRole('button', { name: /^At sea/ }).click();
    await syncUntil(page, async () => (await boardCount(page)) > 0);
    const grid = page.getByRole('grid', { name: 'Containers' });
    const map = page.getByRole('region', { name: 'Route map' });
    const route = page.getByRole('figure').filter({ has: map });
    // A box at sea whose ship is under way. Which boxes those are depends on the day the test
    // runs: a ship in a port of call (0 kn since the service started) or one with no position
    // yet has no path sailed.
    let underWay = false;
    for (let index = 1; index <= 12 && !underWay; index++) {
      const row = grid.getByRole('row').nth(index);
      const number = (await row.getByRole('gridcell').first().textContent()) ?? '';
      await row.click();
      await expect(page.getByRole('heading', { name: number })).toBeVisible();
      // Once the map has its ports, the caption says where the ship is and how fast it goes
      // ("… · 16.2 kn · …"), or nothing of the ship.
      await expect.poll(() => map.getByTestId('map-port').count()).toBeGreaterThanOrEqual(2);
      const speed = / (\d+(?:\.\d+)?) kn /.exec((await route.textContent()) ?? '');
      underWay = speed !== null && Number(speed[1]) > 0;
      if (!underWay) await page.goBack();
    }
    expect(underWay, 'one of the first boxes at sea is on a ship under way').toBe(true);

    await expect(map).toBeVisible();
    await expect(map.getByTestId('map-port').filter({ hasText: 'POL' })).toHaveCount(1);
    await expect(map.getByTestId('map-port').filter({ hasText: 'POD' })).toHaveCount(1);
    // The past path is drawn from AIS positions the service has recorded since it started; the
    // map refreshes as syncs bring newer data.
    await expect
      .poll(() => map.getByTestId('map-past-path').count(), { timeout: 120_000 })
      .toBeGreaterThan(0);
    await expect(map.getByTestId('map-vessel')).toHaveCount(1);
    await expect(map.getByTestId('map-vessel')).toHaveAttribute('aria-label', /heading \d+°/);
    await map.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('detail-map.png') });
  });

  test('tracking a container from the form brings it onto the board', async ({ page }) => {
    const shipment = await untrackedShipment(fresh.app);
    const target = { number: shipment.containers[0]!, scac: shipment.scac };
    await page.goto(`${fresh.app.url}#/track`);
    await page.getByLabel('Request type').selectOption('container');
    const numbers = page.getByLabel('Numbers (one per line; paste many at once)');

    // A wrong check digit is caught before anything is sent.
    const wrongDigit = (Number(target.number.at(-1)) + 1) % 10;
    await numbers.fill(`${target.number.slice(0, 10)}${wrongDigit}`);
    await expect(page.getByText(/Check digit does not match/)).toBeVisible();

    await numbers.fill(target.number);
    await page.getByLabel('Shipping line (SCAC)').fill(target.scac);
    await page.getByLabel('References (comma separated)').fill('PO-4711');
    await page.getByRole('button', { name: 'Track', exact: true }).click();
    const submitted = page.getByTestId('submitted-request');
    await expect(submitted).toContainText(target.number);
    await expect(submitted.locator('[data-status]')).toBeVisible();

    await page.getByRole('link', { name: 'Requests' }).click();
    await expect(page.getByRole('table', { name: 'Tracking requests' })).toContainText(
      target.number,
    );

    await page.getByRole('link', { name: 'Containers' }).click();
    await page.getByRole('searchbox', { name: 'Filter containers' }).fill(target.number);
    await syncUntil(page, async () => (await boardCount(page)) === 1, 120_000);
    await expect(page.getByRole('grid', { name: 'Containers' })).toContainText(target.number);
  });

  test("the first sync's notifications stay inside the window, their buttons in reach", async ({
    page,
  }) => {
    const width = 1440;
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${fresh.app.url}#/containers`);
    // The first sync raises several alerts at once: the newest in full, the others as one
    // summary line. Read in one turn of the page (a toast leaves after 10 s): every part of the
    // notifications that ends past the window's right edge.
    const region = page.getByRole('region', { name: 'Notifications' });
    const outside = () =>
      region.evaluate((element, right) => {
        if (!element.querySelector('[data-testid=toast-summary]')) return ['no summary line yet'];
        const parts = element.querySelectorAll('[data-testid^=toast], button');
        const past: string[] = [];
        for (let at = 0; at < parts.length; at++) {
          const part = parts[at]!;
          if (part.getBoundingClientRect().right > right) past.push(part.textContent?.trim() ?? '');
        }
        return past;
      }, width);
    let parts: string[] = [];
    await syncUntil(
      page,
      async () => {
        parts = await outside();
        return parts[0] !== 'no summary line yet';
      },
      120_000,
    );
    expect(parts, 'notifications ending past the right edge').toEqual([]);
  });

  test('the alerts centre lists alerts and marks them read', async ({ page }) => {
    await page.goto(`${fresh.app.url}#/alerts`);
    const alerts = page.getByTestId('alert-item');
    await syncUntil(page, async () => (await alerts.count()) > 0, 120_000);
    await expect(alerts.first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('alerts.png') });
    await page.getByLabel('Unread only').check();
    const markAll = page.getByRole('button', { name: 'Mark all read' });
    if (await markAll.isEnabled()) {
      await markAll.click();
      await expect(page.getByText('No alerts')).toBeVisible();
      await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    }
  });
});
