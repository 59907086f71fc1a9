/**
 * Documents in the app (browser mode, embedded service and simulated world): a generated
 * arrival notice dropped onto the Track view is read, its container is tracked in one click,
 * the request appears, and the shipment's detail lists the document; dropped again, it ticks
 * nothing already tracked.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { arrivalNoticeFor } from '../support/e2e/arrival-notice';
import config from '../../playwright.config';
import { bridge, freshAppPerTest, untrackedShipment } from '../support/e2e/app';

// The browser blocks tabs opened without a click, as a dispatcher's browser does (Playwright
// turns that off by default): Open must get its tab within the click.
test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--disable-popup-blocking'] },
});

/** Drops files onto an element the way a user dragging them from the desktop does. */
async function dropFiles(
  page: Page,
  target: Locator,
  files: { name: string; bytes: Uint8Array }[],
) {
  const dataTransfer = await page.evaluateHandle(
    (encoded) => {
      // Runs in the page, where DataTransfer exists (this file is typed for Node).
      const { DataTransfer } = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: File): void } };
      };
      const transfer = new DataTransfer();
      for (const file of encoded) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: 'application/pdf' }));
      }
      return transfer;
    },
    files.map((f) => ({ name: f.name, base64: Buffer.from(f.bytes).toString('base64') })),
  );
  await target.dispatchEvent('drop', { dataTransfer });
}

test.describe('documents in the desktop app', () => {
  const fresh = freshAppPerTest('quayside-docs-ui-');

  test('an arrival notice dropped on Track is read, tracked in one click and listed on its shipment', async ({
    page,
  }) => {
    test.setTimeout(420_000);
    const shipment = await untrackedShipment(fresh.app);
    const [container] = shipment.containers as [string];
    await page.goto(`${fresh.app.url}#/containers`);
    // Dropped anywhere on the window (here the board), a document opens the Track view.
    await expect(page.getByRole('heading', { name: 'Containers', exact: true })).toBeVisible();
    await dropFiles(page, page.locator('main'), [
      { name: 'arrival-notice.pdf', bytes: await arrivalNoticeFor(shipment) },
    ]);
    await expect(page.getByRole('heading', { name: 'Track', exact: true })).toBeVisible();
    // Not a document at all: refused by its content, whatever its name says.
    await dropFiles(page, page.getByTestId('document-drop-zone'), [
      { name: 'invoice.pdf', bytes: new TextEncoder().encode('MZ this is a program') },
    ]);
    const refused = page.getByTestId('document-upload').filter({ hasText: 'invoice.pdf' });
    await expect(refused.getByRole('alert')).toHaveText(/not a PDF, PNG or JPEG/);

    const upload = page.getByTestId('document-upload').filter({ hasText: 'arrival-notice.pdf' });
    await expect(upload.getByRole('status')).toHaveText('Arrival notice', { timeout: 120_000 });
    const row = upload.getByTestId('extracted-number').filter({ hasText: container });
    await expect(row).toContainText('Container');
    await expect(row.getByRole('cell').nth(3)).toHaveText('2'); // the page it is printed on
    await expect(row.getByRole('cell').nth(4)).toHaveText(/^\d+%$/);
    await page.screenshot({ path: test.info().outputPath('track-drop.png'), fullPage: true });

    // Track only this container: untick everything else the document names.
    for (const box of await upload.getByRole('checkbox').all()) {
      const name = (await box.getAttribute('aria-label')) ?? '';
      if (name !== `Track ${container}` && (await box.isChecked())) await box.uncheck();
    }
    const line = upload.getByRole('textbox', { name: 'Shipping line (SCAC)' });
    if (await line.isVisible()) await line.fill(shipment.scac);
    await upload.getByRole('button', { name: 'Track 1 selected' }).click();
    await expect(row).toContainText('Tracking requested.');

    await page.getByRole('link', { name: 'Requests' }).click();
    await expect(page.getByText(container).first()).toBeVisible();

    // Once the service has found the shipment and a sync brought it, its detail lists the file.
    let shipmentId: string | undefined;
    await expect
      .poll(
        async () => {
          await bridge(fresh.app, 'syncNow', null).catch(() => undefined);
          const { rows } = await bridge<{ rows: { id: string; billOfLading: string }[] }>(
            fresh.app,
            'listShipments',
            { search: shipment.billOfLading },
          );
          shipmentId = rows.find((r) => r.billOfLading === shipment.billOfLading)?.id;
          return Boolean(shipmentId);
        },
        { timeout: 120_000, intervals: [1500] },
      )
      .toBe(true);
    await page.goto(`${new URL(fresh.app.url).origin}/#/shipments/${shipmentId!}`);
    const documents = page.getByRole('table', { name: 'Documents of this shipment' });
    await expect(documents.getByTestId('document-row')).toContainText('arrival-notice.pdf');
    await expect(documents.getByRole('button', { name: 'Open' })).toBeEnabled();

    // Open gives a tab the file, admitted by the launch page's cookie: no token in its url. Main
    // answers slowly here, as on a busy machine: longer than the click's user activation lasts,
    // after which the browser blocks a tab opened without a click.
    await page.route('**/bridge/openDocument', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      await route.continue();
    });
    const served = page
      .context()
      .waitForEvent('response', (r) => /\/documents\/[^/?]+\/file$/.test(r.url()));
    await documents.getByRole('button', { name: 'Open' }).click();
    const file = await served;
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect(file.url()).not.toContain('token');

    // The same notice again: what is tracked now is not pre-ticked, links to its record and
    // shows the live dates beside the ones the notice states.
    await page.goto(`${new URL(fresh.app.url).origin}/#/track`);
    await dropFiles(page, page.getByTestId('document-drop-zone'), [
      { name: 'notice-again.pdf', bytes: await arrivalNoticeFor(shipment) },
    ]);
    const again = page.getByTestId('document-upload').filter({ hasText: 'notice-again.pdf' });
    await expect(again.getByRole('status')).toHaveText('Arrival notice', { timeout: 120_000 });
    await expect(again.getByTestId('stated-dates')).toHaveText(
      'The arrival notice says: last free day Mon 9 Feb',
    );
    const tracked = again.getByTestId('extracted-number').filter({ hasText: container });
    await expect(tracked.getByTestId('already-tracked')).toContainText(`open ${container}`, {
      timeout: 60_000,
    });
    await expect(tracked.getByTestId('live-dates')).toContainText('Live:');
    await expect(again.getByRole('checkbox', { name: `Track ${container}` })).not.toBeChecked();
    await expect(
      again.getByTestId('extracted-number').filter({ hasText: shipment.billOfLading }),
    ).toContainText('Already tracked');
  });
});
