/**
 * Find links in browser mode: `/find?q=` (with the launch token) opens the renderer on what the
 * identifier names — a B/L's shipment, a container typed with spaces, a customer reference.
 */
import { expect, test } from '@playwright/test';
import type { BoardPage, ShipmentDetail } from '../../src/shared/desktop';
import { bridge, freshAppPerTest } from '../support/e2e/app';

const fresh = freshAppPerTest('quayside-find-');

test('opens a shipment by B/L, a container typed with spaces, and a customer reference', async ({
  page,
}) => {
  const { app } = fresh;
  const url = new URL(app.url);
  const token = url.searchParams.get('token') ?? '';
  const find = (q: string) => `${url.origin}/find?q=${encodeURIComponent(q)}&token=${token}`;

  // The embedded world's first sync brings its shipments; one with a reference is used.
  let detail: ShipmentDetail | null = null;
  await expect
    .poll(
      async () => {
        const board = await bridge<BoardPage>(app, 'listContainers', { limit: 200 }).catch(
          () => null,
        );
        for (const row of board?.rows ?? []) {
          if (!row.shipmentId) continue;
          const d = await bridge<ShipmentDetail | null>(app, 'getShipmentDetail', {
            id: row.shipmentId,
          });
          if (d && (d.shipment.attributes.ref_numbers ?? []).length > 0) {
            detail = d;
            return true;
          }
        }
        return false;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe(true);
  const shipment = detail!.shipment;
  const box = detail!.containers[0]!;

  await page.goto(find(shipment.attributes.bill_of_lading_number));
  await expect(page).toHaveURL(new RegExp(`#/shipments/${shipment.id}$`));
  await expect(page.getByText(shipment.attributes.bill_of_lading_number).first()).toBeVisible();
  expect(page.url()).not.toContain('token=');

  const spaced = `${box.number.slice(0, 4)} ${box.number.slice(4, 10)} ${box.number.slice(10)}`;
  await page.goto(find(spaced));
  await expect(page).toHaveURL(new RegExp(`#/containers/${box.id}$`));
  await expect(page.getByText(box.number).first()).toBeVisible();

  const reference = shipment.attributes.ref_numbers![0]!;
  await page.goto(find(reference.toLowerCase()));
  await expect(page).toHaveURL(/#\/shipments\/[0-9a-f-]+$/);
  const opened = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
  const openedDetail = await bridge<ShipmentDetail>(app, 'getShipmentDetail', { id: opened });
  expect(openedDetail.shipment.attributes.ref_numbers).toContain(reference);
});

test('refuses /find without the launch token', async ({ request }) => {
  const url = new URL(fresh.app.url);
  const response = await request.get(`${url.origin}/find?q=MSCU1234565`, { maxRedirects: 0 });
  expect(response.status()).toBe(401);
});
