/**
 * The D&D statement on a container's detail, from the cache: on the embedded demo, a container
 * with charged days and a day to dispute shows them under Charges, and the CSV export has one
 * row per charged day with the flagged day's reason.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { ContainerCharges } from '../../src/shared/charges/statement';
import type { BoardPage } from '../../src/shared/desktop';
import { bridge, freshAppPerTest, syncUntil } from '../support/e2e/app';

const fresh = freshAppPerTest('quayside-charges-');

/** A container whose statement has a disputed day, with its statement. */
async function disputedContainer(): Promise<{ id: string; charges: ContainerCharges } | null> {
  const page = await bridge<BoardPage>(fresh.app, 'listContainers', {
    limit: 1000,
    showCompleted: true,
  });
  for (const row of page.rows) {
    const charges = await bridge<ContainerCharges | null>(fresh.app, 'getContainerCharges', {
      id: row.id,
    });
    const s = charges?.statement;
    if ([s?.demurrage, s?.detention].some((section) => section?.days.some((d) => d.dispute)))
      return { id: row.id, charges: charges! };
  }
  return null;
}

test('a container with charges shows its days and a day to dispute, and exports them as CSV', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${fresh.app.url}#/containers`);
  let found: Awaited<ReturnType<typeof disputedContainer>> = null;
  await syncUntil(
    page,
    async () => {
      found = await disputedContainer();
      return found !== null;
    },
    120_000,
  );
  const { id, charges } = found!;
  const s = charges.statement;
  const section = [s.demurrage, s.detention].find((x) => x?.days.some((d) => d.dispute))!;
  const flagged = section.days.find((d) => d.dispute)!;

  await page.goto(`${fresh.app.url}#/containers/${id}`);
  const panel = page.getByRole('region', { name: 'Charges' });
  await expect(panel).toBeVisible();
  const table = panel.getByRole('table', {
    name: section.kind === 'demurrage' ? 'Demurrage days' : 'Detention (per diem) days',
  });
  // Every charged day is a row (the header row besides).
  await expect(table.getByRole('row')).toHaveCount(section.days.length + 1);
  const flaggedRow = table.locator(`tr[data-date="${flagged.date}"]`);
  await expect(flaggedRow).toHaveClass(/charges-day--disputed/);
  await expect(flaggedRow).toContainText(`Dispute: ${flagged.dispute!.reasons[0]}`);
  await expect(panel.getByText(section.disputes[0]!.summary)).toBeVisible();

  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^container,bill_of_lading,charge,billed_by,date,/);
  const days = (s.demurrage?.days.length ?? 0) + (s.detention?.days.length ?? 0);
  expect(lines).toHaveLength(days + 1);
  const flaggedLine = lines.find(
    (l) => l.includes(`,${section.kind},`) && l.includes(flagged.date),
  );
  expect(flaggedLine).toContain(s.containerNumber!);
  expect(flaggedLine).toContain(`,yes,${flagged.dispute!.reasons[0]}`);
  await expect(panel.getByRole('status')).toContainText('Exported CSV');
});
