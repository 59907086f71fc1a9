/**
 * A box moving on from its port of discharge by rail, as a dispatcher opens it: the route map
 * draws the ocean legs, then the rail leg from the port to the ramp (marked estimated: no rail
 * positions are recorded), and the stop list ends with the ramp, not the port. The demo world
 * always has a box on rail and one at a ramp.
 */
import { expect, test, type Page } from '@playwright/test';
import type { BoardPage, BoardRow } from '../../src/shared/desktop';
import { bridge, freshAppPerTest, syncUntil } from '../support/e2e/app';

test.describe('rail leg and ramp on the route', () => {
  const ctx = freshAppPerTest('quayside-rail-');

  /** One box per place kind (`rail`: on its way to the ramp, `ramp`: at it), once synced. */
  async function railBoxes(page: Page): Promise<Record<'rail' | 'ramp', BoardRow>> {
    let found: Partial<Record<'rail' | 'ramp', BoardRow>> = {};
    await syncUntil(
      page,
      async () => {
        const { rows } = await bridge<BoardPage>(ctx.app, 'listContainers', { limit: 1000 });
        found = {
          rail: rows.find((r) => r.location.kind === 'rail' && r.location.name),
          ramp: rows.find((r) => r.location.kind === 'ramp' && r.location.name),
        };
        return Boolean(found.rail && found.ramp);
      },
      90_000,
    );
    return found as Record<'rail' | 'ramp', BoardRow>;
  }

  test('a box on rail and one at a ramp show the rail leg and end at the ramp', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    await page.goto(ctx.app.url);
    const boxes = await railBoxes(page);

    for (const [kind, row] of Object.entries(boxes)) {
      await test.step(`${kind}: ${row.number} to ${row.location.name}`, async () => {
        await page.goto(`${ctx.app.url.split('#')[0]}#/containers/${row.id}`);
        await expect(page.getByRole('heading', { name: row.number })).toBeVisible();
        const map = page.getByRole('region', { name: 'Route map' });
        const rail = map.getByTestId('map-rail-leg');
        await expect(rail).toHaveCount(1, { timeout: 60_000 });
        // On rail the leg is under way; at the ramp it is behind the box.
        await expect(rail).toHaveAttribute(
          'data-status',
          kind === 'rail' ? 'under_way' : 'arrived',
        );
        await expect(rail).toHaveAttribute('aria-label', /line estimated/);
        const ramp = map.getByTestId('map-ramp');
        await expect(ramp).toHaveAttribute('aria-label', new RegExp(row.location.name!));

        // The rail line leaves from the port of discharge and ends at the ramp.
        const lng = async (locator: typeof ramp, attribute: string) =>
          Number(await locator.getAttribute(attribute));
        const pod = map.getByTestId('map-port').filter({ hasText: 'POD' });
        expect(Math.abs((await lng(rail, 'data-lng-from')) - (await lng(pod, 'data-lng')))).toBe(0);
        expect(Math.abs((await lng(rail, 'data-lng-to')) - (await lng(ramp, 'data-lng')))).toBe(0);
        // A US rail move runs west to east or east to west over land, not across an ocean.
        expect(await lng(rail, 'data-largest-step')).toBeLessThan(45);

        // The stop list: ports first, the port of discharge, then the ramp as the last stop.
        const stops = page.getByRole('list', { name: 'Stops on the route' }).getByRole('listitem');
        await expect(stops.last()).toContainText('Ramp');
        await expect(stops.last()).toContainText(row.location.name!);
        await expect(stops.last()).toContainText(kind === 'rail' ? 'ETA' : 'arrived');
        await expect(stops.nth((await stops.count()) - 2)).toContainText('POD');
        await expect(map.locator('..')).toContainText('Rail (line estimated)');
        await map.scrollIntoViewIfNeeded();
        await page.screenshot({ path: test.info().outputPath(`route-${kind}.png`) });
      });
    }
  });
});
