/**
 * The hand-off's acceptance, as production runs it: Quayside's service started with a feeds file
 * whose carrier and terminal are servers on 127.0.0.1 that the test controls, and the app in
 * browser mode connected to it (Settings → Remote tracking service). A dispatcher assigns a
 * trucker to both boxes of a shipment in one go, makes the delivery order of one (the PDF's text
 * checked), then the terminal moves the last free day a day earlier: after _Refresh now_ the
 * service asks the terminal, the app's next sync brings the change, and the one alert says the
 * order is out of date. Further syncs never repeat it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { extractText, getDocumentProxy } from 'unpdf';
import { formatLocalDay } from '../../src/shared/date-style';
import type { AlertList } from '../../src/shared/desktop';
import { boardCount, bridge, syncUntil } from '../support/e2e/app';
import {
  FACILITY,
  startControlledFeeds,
  startServiceWithFeeds,
  type ControlledFeeds,
  type ServiceProcess,
} from '../support/e2e/controlled-feeds';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';

const SHIPMENT = {
  scac: 'MAEU',
  billOfLading: 'MAEU260112233',
  containers: ['MSKU1234565', 'MSCU6639870'],
};
const ZONE = FACILITY.time_zone;
/** A last free day as terminals send it: local midnight of the day, as an instant. */
const lfdOn = (day: DateTime) => day.setZone(ZONE).startOf('day').toUTC().toISO()!;

const bodyRows = (page: Page) => page.locator('[role=rowgroup].board__body [role=row]');

async function connect(page: Page, service: ServiceProcess) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await page.getByLabel('Remote tracking service').check();
  await page.getByLabel('Service URL (ends in /v2)').fill(service.baseUrl);
  await page.getByLabel(/^API key/).fill(service.apiKey);
  await page.getByRole('button', { name: 'Store key' }).click();
  await expect(page.getByText(/^Key stored/)).toBeVisible();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved', { exact: true }).first()).toBeVisible();
}

test.describe('the hand-off against a service with its own feeds', () => {
  let dirs: string[] = [];
  let feeds: ControlledFeeds | null = null;
  let service: ServiceProcess | null = null;
  let app: LaunchedApp | null = null;

  test.afterEach(async () => {
    await app?.stop();
    await service?.stop();
    await feeds?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    dirs = [];
    app = service = feeds = null;
  });

  test('bulk-assign a trucker, make the delivery order, the terminal moves the LFD: one alert', async ({
    page,
  }) => {
    test.setTimeout(600_000);
    const today = DateTime.now().setZone(ZONE);
    const said = today.plus({ days: 3 });
    const moved = today.plus({ days: 2 });
    feeds = await startControlledFeeds(SHIPMENT, lfdOn(said));
    // The terminal gives the first box a pickup number; the order carries it.
    feeds.terminal.pickupNumbers[SHIPMENT.containers[0]!] = 'PU-48213';
    const serviceDir = mkdtempSync(join(tmpdir(), 'quayside-handoff-service-'));
    const appDir = mkdtempSync(join(tmpdir(), 'quayside-handoff-app-'));
    dirs = [serviceDir, appDir];
    service = await startServiceWithFeeds(serviceDir, feeds, SHIPMENT.scac);
    const created = await fetch(`${service.baseUrl}/tracking_requests`, {
      method: 'POST',
      headers: {
        Authorization: `Token ${service.apiKey}`,
        'Content-Type': 'application/vnd.api+json',
      },
      body: JSON.stringify({
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: SHIPMENT.billOfLading,
            scac: SHIPMENT.scac,
          },
        },
      }),
    });
    expect(created.status).toBe(201);

    app = await startBrowserMode(appDir);
    await page.goto(app.url);
    await connect(page, service);
    await page.goto(`${app.url.split('#')[0]}#/containers`);
    await syncUntil(page, async () => (await boardCount(page)) === 2, 120_000);

    // Both boxes ticked, a trucker added and assigned to both in one go.
    for (const number of SHIPMENT.containers) {
      await page.getByRole('checkbox', { name: `Select ${number}` }).check();
    }
    const bulk = page.getByRole('region', { name: 'Bulk actions' });
    await expect(bulk.getByTestId('selected-count')).toHaveText('2 containers selected');
    await bulk.getByRole('combobox', { name: 'Assign trucker' }).selectOption('__add__');
    await bulk.getByLabel('Trucker name').fill('Harbor Dray');
    await bulk.getByLabel('SCAC').fill('hbdr');
    await bulk.getByLabel('Dispatch email').fill('dispatch@harbordray.example');
    await bulk.getByRole('button', { name: 'Add and assign' }).click();
    await expect(page.getByTestId('bulk-message')).toHaveText(
      'Harbor Dray assigned to 2 containers.',
    );
    await expect
      .poll(async () =>
        (await bodyRows(page).locator('[data-col="trucker"]').allTextContents()).map((t) =>
          t.trim(),
        ),
      )
      .toEqual(['Harbor Dray', 'Harbor Dray']);

    // The delivery order of the first box: its PDF states the box, the trucker and the LFD.
    const number = SHIPMENT.containers[0]!;
    await bodyRows(page).locator('[data-col="number"]', { hasText: number }).click();
    await expect(page.getByRole('heading', { name: number })).toBeVisible();
    const panel = page.getByRole('region', { name: 'Trucker' });
    await expect(panel.getByTestId('detail-trucker')).toContainText('Harbor Dray (HBDR)');
    await panel.getByRole('button', { name: 'Make delivery order' }).click();
    const outcome = panel.getByTestId('delivery-order-outcome');
    await expect(outcome).toContainText('kept with the shipment', { timeout: 60_000 });
    const downloading = page.waitForEvent('download');
    await outcome.getByRole('link', { name: /^Download delivery-order-/ }).click();
    const download = await downloading;
    const pdf = readFileSync((await download.path())!);
    const text = (
      await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })
    ).text;
    const saidText = `${formatLocalDay(said.toISODate()!, ZONE)} (Terminal LFD)`;
    for (const part of [
      'DELIVERY ORDER',
      number,
      SHIPMENT.billOfLading,
      'Harbor Dray (HBDR)',
      'dispatch@harbordray.example',
      FACILITY.firms_code,
      'PU-48213',
      saidText,
    ]) {
      expect(text, part).toContain(part);
    }

    // The service keeps what the order said with its document.
    const documents = (await (
      await fetch(`${service.baseUrl}/documents`, {
        headers: { Authorization: `Token ${service.apiKey}` },
      })
    ).json()) as { data: { attributes: { delivery_order: Record<string, unknown> | null } }[] };
    expect(documents.data.map((d) => d.attributes.delivery_order)).toEqual([
      expect.objectContaining({
        container: expect.objectContaining({ number }),
        trucker: expect.objectContaining({ name: 'Harbor Dray' }),
        last_free_day: { date: said.toISODate(), time_zone: ZONE, source: 'terminal' },
        pickup_number: 'PU-48213',
      }),
    ]);

    // The terminal now says a day earlier; Refresh now makes the service ask it.
    const asked = feeds.terminalAsks();
    feeds.terminal.lastFreeDay = lfdOn(moved);
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect.poll(() => feeds!.terminalAsks(), { timeout: 120_000 }).toBeGreaterThan(asked);
    const outdated = async () =>
      (await bridge<AlertList>(app!, 'listAlerts', { limit: 500 })).alerts.filter(
        (a) => a.kind === 'delivery_order_outdated',
      );
    await syncUntil(page, async () => (await outdated()).length > 0, 120_000);
    const movedText = `${formatLocalDay(moved.toISODate()!, ZONE)} (Terminal LFD)`;
    const [alert] = await outdated();
    expect(alert!.title).toBe(`Delivery order for ${number} is out of date`);
    expect(alert!.body).toMatch(
      new RegExp(
        `^The delivery order sent to Harbor Dray on .+ says ${saidText.replace(/[()]/g, '\\$&')}; the terminal now says ${movedText.replace(/[()]/g, '\\$&')}\\.$`,
      ),
    );

    // The Alerts view lists it once; two more syncs raise nothing more.
    for (let run = 0; run < 2; run++) {
      const before = (await bridge<{ lastSuccessAt: string | null }>(app, 'getSyncStatus', null))
        .lastSuccessAt;
      await page.getByRole('button', { name: 'Sync now' }).click();
      await expect
        .poll(
          async () =>
            (await bridge<{ lastSuccessAt: string | null }>(app!, 'getSyncStatus', null))
              .lastSuccessAt,
          { timeout: 120_000 },
        )
        .not.toBe(before);
    }
    expect(await outdated()).toHaveLength(1);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Alerts/ })
      .click();
    const items = page.getByTestId('alert-item').filter({ hasText: 'Delivery order for' });
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText(`the terminal now says ${movedText}`);
  });
});
