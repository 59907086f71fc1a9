import { expect, test } from '@playwright/test';
import { freshAppPerTest, syncUntil } from '../support/e2e/app';

/** The same container number with a check digit one off: a typo ISO 6346 catches. */
const withWrongCheckDigit = (number: string) =>
  `${number.slice(0, 10)}${(Number(number[10]) + 1) % 10}`;

test.describe('tracking the numbers of a spreadsheet', () => {
  const fresh = freshAppPerTest('quayside-sheet-');

  test('a CSV is previewed with its bad row marked, and its good numbers are tracked', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    // Two container numbers of the simulated world, from the board, with the first one's line.
    await page.goto(`${fresh.app.url}#/containers`);
    const count = page.getByTestId('board-count');
    await syncUntil(page, async () => /^([2-9]|\d\d)/.test((await count.textContent()) ?? ''));
    const grid = page.getByRole('grid', { name: 'Containers' });
    const headers = (await grid.getByRole('columnheader').allTextContents()).map((h) => h.trim());
    const cellsOf = (row: number) =>
      grid.locator(`[role=row][data-index="${row}"] [role=gridcell]`);
    await expect(cellsOf(1).first()).not.toBeEmpty();
    const first = ((await cellsOf(0).nth(0).textContent()) ?? '').trim();
    const second = ((await cellsOf(1).nth(0).textContent()) ?? '').trim();
    const line = (
      (await cellsOf(0)
        .nth(headers.findIndex((h) => h.startsWith('Line')))
        .textContent()) ?? ''
    ).trim();
    const typo = withWrongCheckDigit(first);

    await page.getByRole('link', { name: 'Track' }).click();
    // The second number has no line: the service detects it, as for a pasted list.
    const csv = [
      'Container number;Line;Customer;PO number',
      `${first};${line};Acme Foods;PO-1001`,
      `${second};;Beta Imports;"PO-2001, PO-2002"`,
      `${typo};${line};Acme Foods;PO-1003`,
    ].join('\r\n');
    await page.getByLabel('Choose spreadsheet').setInputFiles({
      name: 'morning.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${csv}`),
    });

    const rows = page.getByTestId('spreadsheet-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText(first);
    await expect(rows.nth(0)).toContainText('Acme Foods');
    await expect(rows.nth(0)).toContainText('PO-1001');
    await expect(rows.nth(1)).toContainText('PO-2001, PO-2002');
    await expect(rows.nth(1)).not.toHaveAttribute('aria-invalid', 'true');
    // The typo is marked and left out, with the reason.
    await expect(rows.nth(2)).toHaveAttribute('aria-invalid', 'true');
    await expect(rows.nth(2)).toContainText('Left out: Check digit does not match');
    await page.screenshot({ path: test.info().outputPath('spreadsheet-preview.png') });

    await page.getByRole('button', { name: 'Track 2 numbers' }).click();
    // Numbers from the board are tracked already: the service takes a request and fails it as
    // a duplicate later, or refuses it at once when an open request names the same number.
    // Either way the row says so and links to the container; nothing is "not sent".
    await expect(
      page.getByText(
        /^(2 numbers sent|1 number sent, 1 number already tracked|2 numbers already tracked): see Submitted\.$/,
      ),
    ).toBeVisible({ timeout: 60_000 });
    const submitted = page.getByTestId('submitted-request');
    await expect(submitted).toHaveCount(2);
    for (const number of [first, second]) {
      const entry = submitted.filter({ hasText: number });
      await expect(entry).toHaveCount(1);
      await expect(entry).not.toContainText('Not sent');
      await expect(entry.getByRole('link', { name: `open ${number}` })).toBeVisible({
        timeout: 60_000,
      });
    }
    await expect(submitted.filter({ hasText: typo })).toHaveCount(0);
    await expect(page.getByTestId('spreadsheet-row')).toHaveCount(0);
  });

  test('a file that is not a spreadsheet is refused in words', async ({ page }) => {
    await page.goto(`${fresh.app.url}#/track`);
    await page.getByLabel('Choose spreadsheet').setInputFiles({
      name: 'notice.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('%PDF-1.7\n1 0 obj\n'),
    });
    await expect(page.getByRole('alert')).toContainText(
      'notice.csv is a PDF, not a spreadsheet: drop it on the documents area',
    );
    await expect(page.getByTestId('spreadsheet-row')).toHaveCount(0);
  });
});
