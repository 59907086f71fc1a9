import { expect, test } from '@playwright/test';
import { checkDigit } from '../../src/shared/iso6346';
import { freshAppPerTest, syncUntil } from '../support/e2e/app';

/** Container numbers nobody tracks yet: an owner code the simulated world never uses. */
const newNumbers = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const base = `QSDU${String(700_100 + i).padStart(6, '0')}`;
    return `${base}${checkDigit(base)}`;
  });

test.describe('pasting a list of numbers on Track', () => {
  const fresh = freshAppPerTest('quayside-paste-');

  test('a list of 20 with one typo tracks 19 and keeps the typo to fix; a B/L is recognised', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    await page.goto(`${fresh.app.url}#/containers`);
    const count = page.getByTestId('board-count');
    await syncUntil(page, async () => /^[1-9]/.test((await count.textContent()) ?? ''));
    await page.getByRole('link', { name: 'Track' }).click();

    const valid = newNumbers(19);
    const typo = `${valid[7]!.slice(0, 10)}${(Number(valid[7]![10]) + 1) % 10}`;
    const pasted = [...valid.slice(0, 12), typo, ...valid.slice(12)];
    const numbers = page.getByLabel('Numbers (one per line; paste many at once)');
    await numbers.fill(pasted.join('\n'));
    await page.getByLabel('Shipping line (SCAC)').fill('MSCU');

    // The typo is marked under the box before anything is sent; the rest will go.
    const help = page.locator('#number-help');
    await expect(help).toContainText('19 of 20 will be tracked.');
    await expect(help).toContainText(`${typo} set aside: Check digit does not match`);
    await page.getByRole('button', { name: 'Track 19 numbers' }).click();

    const submitted = page.getByTestId('submitted-request');
    await expect(submitted).toHaveCount(20, { timeout: 120_000 });
    await expect(submitted.filter({ hasText: 'Not sent' })).toHaveCount(0);
    await expect(submitted.filter({ hasText: typo })).toContainText(
      'Set aside: Check digit does not match',
    );
    for (const number of valid) {
      await expect(submitted.filter({ hasText: number })).not.toContainText('Set aside');
    }
    // Only the typo is left in the box, to fix and send again.
    await expect(numbers).toHaveValue(typo);

    // A bill of lading pasted in container mode is not called a bad container number.
    await numbers.fill('MEDUQS4410');
    await page.getByLabel('Shipping line (SCAC)').fill('');
    await expect(help).toContainText('MEDUQS4410 is not a container number');
    await page.getByRole('button', { name: 'Track', exact: true }).click();
    await expect(submitted).toHaveCount(21, { timeout: 120_000 });
    const bill = submitted.filter({ hasText: 'MEDUQS4410' });
    await expect(bill).not.toContainText('Not sent');
    await expect(bill).not.toContainText('Set aside');
    await expect(numbers).toHaveValue('');

    // The requests are the service's own: the Requests view lists them.
    await page.getByRole('link', { name: 'Requests' }).click();
    await expect(page.getByText(valid[18]!)).toBeVisible({ timeout: 60_000 });
  });
});
