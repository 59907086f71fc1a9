import { expect, test, type Page } from '@playwright/test';
import { freshAppPerTest, syncUntil } from '../support/e2e/app';

const worklistRows = (page: Page) => page.getByTestId('worklist-row');

test.describe('the dispatcher morning on the embedded default', () => {
  const fresh = freshAppPerTest('quayside-morning-');

  test('opens on the worklist: sections by urgency with their places, each row with its reason and next action', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.goto(fresh.app.url);
    await expect(page.getByRole('heading', { name: 'Worklist', level: 1 })).toBeVisible();
    await syncUntil(page, async () => (await worklistRows(page).count()) > 0);

    // Sections by urgency (overdue money first, then today), places as sub-headings in each.
    const urgency = [
      'Overdue — accruing',
      'Move today',
      'Blocked by a hold, LFD soon',
      'Needs an appointment',
      'Arriving next',
    ];
    const sectionTitles = await page.locator('.worklist__section-title').allTextContents();
    expect(sectionTitles.length).toBeGreaterThan(0);
    const order = sectionTitles.map((title) => urgency.findIndex((name) => title.startsWith(name)));
    expect(
      order.every((index) => index >= 0),
      sectionTitles.join(' | '),
    ).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Every section title counts its rows with the right plural.
    for (const title of sectionTitles)
      expect(title).toMatch(/\((1 container|\d[\d,]* containers)\)$/);
    expect(await page.locator('.worklist__place-title').count()).toBeGreaterThanOrEqual(
      sectionTitles.length,
    );

    // The Cost column is in view, not cut, at 1280 px and at 1440 px.
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      const cost = page.locator('.worklist__table').first().getByRole('columnheader', {
        name: 'Cost',
      });
      const box = await cost.boundingBox();
      expect(box, `Cost header at ${width} px`).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      // Long reasons, actions and names wrap inside their cells instead of running into the
      // next column.
      const spilled = await page
        .locator('.worklist__table td')
        .evaluateAll((cells) =>
          cells
            .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
            .map((cell) => cell.textContent ?? ''),
        );
      expect(spilled, `cells running into the next column at ${width} px`).toEqual([]);
    }

    // Every row has its reason and next action, read row by row in one pass: the first sync
    // lands page by page, and a count of reasons taken before a count of rows can straddle one.
    const cells = await worklistRows(page).evaluateAll((rows) =>
      rows.map((row) =>
        ['worklist-reason', 'worklist-action'].map(
          (id) => row.querySelector(`[data-testid=${id}]`)?.textContent?.trim() ?? '',
        ),
      ),
    );
    expect(cells.length).toBeGreaterThan(0);
    for (const text of cells.flat()) expect(text.length).toBeGreaterThan(5);
    await page.screenshot({ path: test.info().outputPath('worklist.png'), fullPage: true });

    // A row opens the container's detail; Esc goes back to where it came from.
    const first = worklistRows(page).first().getByRole('link');
    const number = (await first.textContent())?.trim() ?? '';
    await first.click();
    await expect(page.getByRole('heading', { name: number })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Worklist', level: 1 })).toBeVisible();
  });

  test('"Show completed" is off by default: the board lists no empty-returned box until it is on', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.goto(`${fresh.app.url}#/containers`);
    const toggle = page.getByRole('checkbox', { name: 'Show completed' });
    await expect(toggle).not.toBeChecked();
    const count = page.getByTestId('board-count');
    const shown = async () =>
      Number(
        /([\d,]+) containers?/.exec((await count.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0,
      );
    await syncUntil(page, async () => (await shown()) > 0);
    const status = page.getByRole('combobox', { name: 'Status' });
    // The status facet counts every cached box: the world always has some returned empty.
    await expect
      .poll(async () => (await status.locator('option').allTextContents()).join('|'), {
        timeout: 120_000,
      })
      .toContain('Empty returned');
    await status.selectOption('empty_returned');
    await expect(count).toHaveText('0 containers');
    await toggle.check();
    await expect.poll(shown).toBeGreaterThan(0);
    await expect(page.getByRole('grid', { name: 'Containers' })).toContainText('Empty returned');
  });

  test('the board fits 1280, 1440 and 2200 px windows; ? shows the keys, / filters', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.goto(`${fresh.app.url}#/containers`);
    const count = page.getByTestId('board-count');
    const shown = async () =>
      Number(
        /([\d,]+) containers?/.exec((await count.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0,
      );
    await syncUntil(page, async () => (await shown()) > 1);
    const board = page.getByTestId('board');
    const layout = () =>
      board.evaluate((element) => {
        const cut: string[] = [];
        for (const chip of element.querySelectorAll('[data-col="ready"] .chip')) {
          const cell = chip.closest('[data-col]')!.getBoundingClientRect();
          const box = chip.getBoundingClientRect();
          if (box.right > cell.right + 0.5 || box.left < cell.left - 0.5)
            cut.push(chip.textContent ?? '');
        }
        // Header labels cut short by their column, and whether Cost is in view without scrolling.
        const clipped: string[] = [];
        for (const head of element.querySelectorAll('[role=columnheader]')) {
          const label = head.querySelector('.board__fit');
          if (
            label &&
            label.getBoundingClientRect().right > head.getBoundingClientRect().right + 0.5
          )
            clipped.push(label.textContent ?? '');
        }
        const cost = element.querySelector('[role=columnheader][data-col="fees"]');
        return {
          clipped,
          costInView:
            cost !== null &&
            cost.getBoundingClientRect().right <= element.getBoundingClientRect().right + 0.5,
          overflow: element.scrollWidth - element.clientWidth,
          spare:
            element.clientWidth -
            element.querySelector('.board__head')!.getBoundingClientRect().width,
          cut,
        };
      });
    for (const width of [1280, 1440, 2200]) {
      await page.setViewportSize({ width, height: 900 });
      if (width >= 1440) {
        // Fitted: the default columns use the whole width without a horizontal scrollbar.
        await expect.poll(async () => (await layout()).overflow).toBeLessThanOrEqual(0);
        await expect.poll(async () => (await layout()).spare).toBeLessThanOrEqual(2);
      }
      // Rows a sync changes are measured again, so no readiness chip stays cut off.
      await expect.poll(async () => (await layout()).cut).toEqual([]);
      // No header is cut short, and Cost is in view at every width.
      await expect.poll(async () => (await layout()).clipped).toEqual([]);
      await expect.poll(async () => (await layout()).costInView).toBe(true);
      await page.screenshot({ path: test.info().outputPath(`board-${width}.png`) });
    }

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
    await page.getByRole('link', { name: 'Worklist' }).click();
    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: 'Filter containers' })).toBeFocused();
  });

  test('at 1280 px the Trucker column is reached by scrolling the board sideways', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${fresh.app.url}#/containers`);
    const count = page.getByTestId('board-count');
    await syncUntil(page, async () => /^[1-9]/.test((await count.textContent()) ?? ''));
    const board = page.getByTestId('board');
    // Its header and the first row's cell come fully into view, the header's label not cut.
    const truckerInView = () =>
      board.evaluate((element) => {
        const within = (el: ReturnType<typeof element.querySelector> | undefined) => {
          if (!el) return false;
          const box = el.getBoundingClientRect();
          const frame = element.getBoundingClientRect();
          return box.width > 0 && box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5;
        };
        const head = element.querySelector('[role=columnheader][data-col="trucker"]');
        return {
          header: within(head),
          label: within(head?.querySelector('.board__fit')),
          cell: within(element.querySelector('.board__body [data-col="trucker"]')),
        };
      });
    // Wider than the window (as the demo's rows make it): the column starts out of view.
    const overflow = await board.evaluate((element) => element.scrollWidth - element.clientWidth);
    if (overflow > 0) expect((await truckerInView()).header).toBe(false);
    await board.hover();
    await expect
      .poll(async () => {
        await page.mouse.wheel(600, 0);
        return truckerInView();
      })
      .toEqual({ header: true, label: true, cell: true });
    await page.screenshot({ path: test.info().outputPath('board-1280-trucker.png') });
  });

  test('the Track form maps line names, refuses over-long input and links a duplicate to its container', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.goto(`${fresh.app.url}#/containers`);
    const count = page.getByTestId('board-count');
    await syncUntil(page, async () => /^[1-9]/.test((await count.textContent()) ?? ''));
    const grid = page.getByRole('grid', { name: 'Containers' });
    const cells = grid.locator('[role=row][data-index="0"] [role=gridcell]');
    await expect(cells.first()).not.toBeEmpty();
    const headers = (await grid.getByRole('columnheader').allTextContents()).map((h) => h.trim());
    const number = ((await cells.nth(0).textContent()) ?? '').trim();
    const scac = (
      (await cells.nth(headers.findIndex((h) => h.startsWith('Line'))).textContent()) ?? ''
    ).trim();

    await page.getByRole('link', { name: 'Track' }).click();
    const numbers = page.getByLabel('Numbers (one per line; paste many at once)');
    await numbers.fill('X'.repeat(70));
    await expect(page.getByText(/longer than 64 characters/)).toBeVisible();
    await page.getByRole('button', { name: 'Track', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Fix the problems listed under Numbers first.',
    );

    // The line picked by its name.
    const name = await page
      .locator(`#shipping-lines option[value="${scac}"]`)
      .evaluate((option) => option.textContent ?? '');
    await page.getByLabel('Shipping line (SCAC)').fill(name);
    await expect(page.getByText(`${scac}: ${name}`)).toBeVisible();
    // Tracked twice: the second is a duplicate, which links to the container on the board.
    for (let i = 0; i < 2; i++) {
      await numbers.fill(number);
      await page.getByRole('button', { name: 'Track', exact: true }).click();
      await expect(page.getByTestId('submitted-request')).toHaveCount(i + 1);
    }
    const duplicate = page.getByTestId('submitted-request').first();
    await duplicate.getByRole('link', { name: `open ${number}` }).click();
    await expect(page.getByRole('heading', { name: number })).toBeVisible();
  });
});
