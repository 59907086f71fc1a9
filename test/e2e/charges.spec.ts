/**
 * The D&D statement on a container's detail, from the cache: on the embedded demo, a container
 * with charged days and a day to dispute shows them under Charges, and the CSV export has one
 * row per charged day with the flagged day's reason. A customer's pass-through statement for a
 * range, exported from its shipment's detail, has one row per container that agrees with the
 * container's own statement.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DateTime } from 'luxon';
import Papa from 'papaparse';
import { PASS_THROUGH_CSV_COLUMNS, STATEMENT_CSV_COLUMNS } from '../../src/shared/charges/export';
import type { ContainerCharges, PassThroughStatement } from '../../src/shared/charges/statement';
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
  test.setTimeout(360_000);
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
  // Every charged day is a row (the header row besides). The demo clock runs on (600 times real
  // time): a day may accrue between reading the statement and the view showing it, so the view
  // is held against the statement read just before and just after counting its rows.
  /** Charged days in the statement as it reads now, for the given charges (the demo clock runs). */
  const daysNow = async (kinds: readonly ('demurrage' | 'detention')[] = [section.kind]) => {
    const now = (await bridge<ContainerCharges>(fresh.app, 'getContainerCharges', { id }))
      .statement;
    return kinds.reduce((sum, kind) => sum + (now[kind]?.days.length ?? 0), 0);
  };
  await expect
    .poll(async () => {
      const before = await daysNow();
      const rows = (await table.getByRole('row').count()) - 1;
      const after = await daysNow();
      return rows === before || rows === after;
    })
    .toBe(true);
  const flaggedRow = table.locator(`tr[data-date="${flagged.date}"]`);
  await expect(flaggedRow).toHaveClass(/charges-day--disputed/);
  await expect(flaggedRow).toContainText(`Dispute: ${flagged.dispute!.reasons[0]}`);
  await expect(panel.getByText(section.disputes[0]!.summary)).toBeVisible();

  const allDaysNow = () => daysNow(['demurrage', 'detention']);
  const daysBefore = await allDaysNow();
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const daysAfter = await allDaysNow();
  const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^container,bill_of_lading,charge,billed_by,date,/);
  // One line per charged day as the export found them, between the two readings.
  expect([daysBefore + 1, daysAfter + 1]).toContain(lines.length);
  const flaggedLine = lines.find(
    (l) => l.includes(`,${section.kind},`) && l.includes(flagged.date),
  );
  expect(flaggedLine).toContain(s.containerNumber!);
  expect(flaggedLine).toContain(`,yes,${flagged.dispute!.reasons[0]}`);
  await expect(panel.getByRole('status')).toContainText('Exported CSV');
});

/** The rows of a downloaded CSV (RFC 4180), header first. */
const csvRows = (file: string): string[][] =>
  Papa.parse<string[]>(readFileSync(file, 'utf8').trimEnd(), { skipEmptyLines: true }).data;

/** Two days before the statement's own day: a range that the running demo clock leaves alone. */
const settledBefore = (generatedAt: string) =>
  DateTime.fromISO(generatedAt.slice(0, 10), { zone: 'UTC' }).minus({ days: 2 }).toISODate()!;

test("a container's statement and its customer's pass-through, both exported as CSV, tell the same days", async ({
  page,
}) => {
  test.setTimeout(360_000);
  await page.goto(`${fresh.app.url}#/containers`);
  // A customer's container with charged days already settled (before the last two days).
  let found: {
    row: BoardPage['rows'][number];
    charges: ContainerCharges;
    from: string;
    to: string;
  } | null = null;
  await syncUntil(
    page,
    async () => {
      const board = await bridge<BoardPage>(fresh.app, 'listContainers', {
        limit: 1000,
        showCompleted: true,
      });
      for (const row of board.rows.filter((r) => r.customer && r.shipmentId)) {
        const charges = await bridge<ContainerCharges | null>(fresh.app, 'getContainerCharges', {
          id: row.id,
        });
        if (!charges) continue;
        const bound = settledBefore(charges.statement.generatedAt);
        const days = [charges.statement.demurrage, charges.statement.detention]
          .flatMap((s) => s?.days ?? [])
          .map((d) => d.date)
          .filter((date) => date <= bound)
          .sort();
        if (days.length > 0) {
          found = { row, charges, from: days[0]!, to: days.at(-1)! };
          return true;
        }
      }
      return false;
    },
    120_000,
  );
  const { row, from, to } = found!;

  // The container's statement: one CSV row per charged day, every one naming the box.
  await page.goto(`${fresh.app.url}#/containers/${row.id}`);
  const charges = page.getByRole('region', { name: 'Charges' });
  const statementDownload = page.waitForEvent('download');
  await charges.getByRole('button', { name: 'Export CSV' }).click();
  const statement = csvRows((await (await statementDownload).path())!);
  expect(statement[0]).toEqual([...STATEMENT_CSV_COLUMNS]);
  const column = (name: (typeof STATEMENT_CSV_COLUMNS)[number]) =>
    STATEMENT_CSV_COLUMNS.indexOf(name);
  expect(statement.length).toBeGreaterThan(1);
  for (const line of statement.slice(1)) expect(line[column('container')]).toBe(row.number);
  const daysInRange = statement
    .slice(1)
    .filter((line) => line[column('date')]! >= from && line[column('date')]! <= to).length;
  expect(daysInRange).toBeGreaterThan(0);

  // The customer's pass-through for that range, from the shipment's detail.
  await page.goto(`${fresh.app.url}#/shipments/${row.shipmentId}`);
  const panel = page.getByRole('region', { name: `Charges to pass through to ${row.customer}` });
  await panel.getByLabel('From', { exact: true }).fill(from);
  await panel.getByLabel('To', { exact: true }).fill(to);
  await panel.getByRole('button', { name: 'Show statement' }).click();
  const table = panel.getByRole('table', { name: 'Pass-through statement' });
  await expect(table.getByRole('rowheader', { name: row.number })).toBeVisible();
  const passDownload = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export CSV' }).click();
  const download = await passDownload;
  expect(download.suggestedFilename()).toBe(
    `pass-through-${row.customer!.replace(/[^A-Za-z0-9]+/g, '-')}-${from}-${to}.csv`,
  );
  const pass = csvRows((await download.path())!);
  expect(pass[0]).toEqual([...PASS_THROUGH_CSV_COLUMNS]);
  // Every row is the customer's, and the rows are the statement the app works out for the range.
  const expected = await bridge<PassThroughStatement>(fresh.app, 'getCustomerCharges', {
    customer: row.customer,
    from,
    to,
  });
  expect(pass.slice(1)).toEqual(
    expected.lines.map((l) => [
      row.customer,
      l.containerNumber ?? '',
      l.billOfLading ?? '',
      l.currency,
      String(l.days),
      l.demurrage.toFixed(2),
      l.detention.toFixed(2),
      l.disputed.toFixed(2),
      l.total.toFixed(2),
    ]),
  );
  // The box's row counts exactly the charged days its own statement lists in the range.
  const own = pass.find((line) => line[1] === row.number)!;
  expect(Number(own[4])).toBe(daysInRange);
  // The rows on screen are the exported ones: one per container (and currency), plus totals.
  await expect(table.locator('tbody tr')).toHaveCount(
    expected.lines.length + expected.totals.length,
  );
});
