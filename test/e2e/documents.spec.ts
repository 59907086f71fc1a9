/**
 * Documents in the app (browser mode, embedded service and simulated world): a generated
 * arrival notice dropped onto the Track view is read, its container is tracked in one click,
 * the request appears, and the shipment's detail lists the document.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { arrivalNoticeFor } from './support/arrival-notice';
import { startBrowserMode, type LaunchedApp } from './support/launch';

const repoRoot = resolve(import.meta.dirname, '..', '..');

async function bridge<T>(app: LaunchedApp, method: string, argument: unknown): Promise<T> {
  const url = new URL(app.url);
  const response = await fetch(`${url.origin}/bridge/${method}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Quayside-Token': url.searchParams.get('token') ?? '',
    },
    body: JSON.stringify({ argument }),
  });
  const reply = (await response.json()) as { ok: boolean; result: T };
  if (!reply.ok) throw new Error(`${method} failed: ${JSON.stringify(reply)}`);
  return reply.result;
}

/**
 * A shipment of the simulated world the app does not track yet. `quayside sim list` prints each
 * shipment as its BL, its booking, then its containers.
 */
async function untrackedShipment(app: LaunchedApp) {
  const listing = execFileSync(process.execPath, ['bin/quayside.mjs', 'sim', 'list'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  // The app answers before its embedded service is connected: ask until it is.
  let requests: { rows: { number: string }[] } | null = null;
  await expect
    .poll(
      async () => {
        requests = await bridge<{ rows: { number: string }[] }>(app, 'listTrackingRequests', {
          limit: 1000,
        }).catch(() => null);
        return requests !== null;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  const tracked = new Set(requests!.rows.map((row) => row.number));
  const shipments: { billOfLading: string; scac: string; containers: string[] }[] = [];
  for (const line of listing.split('\n').slice(1)) {
    const [number, scac, type] = line.trim().split(/\s+/);
    if (!number || !scac || !type) continue;
    if (type === 'bill_of_lading') shipments.push({ billOfLading: number, scac, containers: [] });
    if (type === 'container') shipments.at(-1)?.containers.push(number);
  }
  const free = shipments.find(
    (s) =>
      s.containers.length > 0 &&
      !tracked.has(s.billOfLading) &&
      s.containers.every((c) => !tracked.has(c)),
  );
  if (!free) throw new Error('the app already tracks every shipment of the world');
  return free;
}

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
  let dataDir: string;
  let app: LaunchedApp;

  test.beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-docs-ui-'));
    app = await startBrowserMode(dataDir);
  });
  test.afterEach(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('an arrival notice dropped on Track is read, tracked in one click and listed on its shipment', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const shipment = await untrackedShipment(app);
    const [container] = shipment.containers as [string];
    await page.goto(`${app.url}#/containers`);
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
    await expect(upload.getByRole('status')).toHaveText('Arrival notice', { timeout: 60_000 });
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
          await bridge(app, 'syncNow', null).catch(() => undefined);
          const { rows } = await bridge<{ rows: { id: string; billOfLading: string }[] }>(
            app,
            'listShipments',
            { search: shipment.billOfLading },
          );
          shipmentId = rows.find((r) => r.billOfLading === shipment.billOfLading)?.id;
          return Boolean(shipmentId);
        },
        { timeout: 60_000, intervals: [1500] },
      )
      .toBe(true);
    await page.goto(`${new URL(app.url).origin}/#/shipments/${shipmentId!}`);
    const documents = page.getByRole('table', { name: 'Documents of this shipment' });
    await expect(documents.getByTestId('document-row')).toContainText('arrival-notice.pdf');
    await expect(documents.getByRole('button', { name: 'Open' })).toBeEnabled();
  });
});
