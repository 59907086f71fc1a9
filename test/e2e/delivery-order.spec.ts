/**
 * The delivery order, browser mode against the embedded demo: a dispatcher opens a box, adds
 * and assigns a trucker from its detail, makes the delivery order and downloads it; the PDF's
 * text states the box and the trucker. The order is kept at the service as a document of the
 * shipment. (The alert when a later change makes the order wrong: handoff-acceptance.spec.ts,
 * against a service whose terminal the test controls; the demo offers no way to move an LFD.)
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import type { ContainerDetail } from '../../src/shared/desktop';
import { boardCount, bridge, freshAppPerTest, openFirstBoardContainer } from '../support/e2e/app';

test.describe('delivery order', () => {
  const fresh = freshAppPerTest('quayside-order-');

  test('assign a trucker, make the delivery order, its PDF states the box and the trucker', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    await page.goto(`${fresh.app.url}#/containers`);
    await expect
      .poll(
        async () => {
          const sync = page.getByRole('button', { name: 'Sync now' });
          if (await sync.isEnabled()) await sync.click();
          return boardCount(page);
        },
        { timeout: 180_000, intervals: [2_000] },
      )
      .toBeGreaterThan(0);
    const number = await openFirstBoardContainer(page);

    const panel = page.getByRole('region', { name: 'Trucker' });
    const make = panel.getByRole('button', { name: 'Make delivery order' });
    await expect(make).toBeDisabled();
    await panel.getByRole('combobox', { name: 'Trucker' }).selectOption('__add__');
    await panel.getByLabel('Trucker name').fill('Harbor Dray');
    await panel.getByLabel('SCAC').fill('hbdr');
    await panel.getByLabel('Dispatch email').fill('dispatch@harbordray.example');
    await panel.getByRole('button', { name: 'Add and assign' }).click();
    await expect(panel.getByTestId('detail-trucker')).toContainText('Harbor Dray (HBDR)');

    await expect(make).toBeEnabled();
    await make.click();
    const outcome = panel.getByTestId('delivery-order-outcome');
    await expect(outcome).toContainText('kept with the shipment', { timeout: 60_000 });
    await expect(outcome).toContainText('No outgoing mail server');
    const downloading = page.waitForEvent('download');
    await outcome.getByRole('link', { name: /^Download delivery-order-/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^delivery-order-${number}-`));
    const bytes = readFileSync((await download.path())!);
    const text = (
      await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })
    ).text;
    const ids = await bridge<{ rows: { id: string; number: string }[] }>(
      fresh.app,
      'listContainers',
      { search: number, showCompleted: true },
    );
    const detail = await bridge<ContainerDetail>(fresh.app, 'getContainerDetail', {
      id: ids.rows.find((r) => r.number === number)!.id,
    });
    expect(text).toContain('DELIVERY ORDER');
    expect(text).toContain(number);
    expect(text).toContain('Harbor Dray (HBDR)');
    expect(text).toContain('dispatch@harbordray.example');
    if (detail.row.billOfLading) expect(text).toContain(detail.row.billOfLading);
    if (detail.row.terminalName) expect(text).toContain(detail.row.terminalName);
  });
});
