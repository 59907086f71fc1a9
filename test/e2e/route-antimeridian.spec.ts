/**
 * A trans-Pacific container's route map, as drawn in the browser: one continuous line across the
 * antimeridian (no jump from the right edge to the left), the ports on the same copy of the
 * world, the view fitted to it. Checked on the rendered paths' unwrapped longitudes, not pixels.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RouteMapResult } from '../../src/shared/bridge';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';
import { bridge } from '../support/e2e/app';

/** A container at sea whose loading port is in Asia and discharge port in the Americas. */
async function transPacificContainer(app: LaunchedApp): Promise<string | null> {
  const page = await bridge<{ rows: { id: string }[] }>(app, 'listContainers', {
    view: 'at_sea',
    limit: 200,
  });
  for (const row of page.rows) {
    const map = await bridge<RouteMapResult | null>(app, 'getRouteMap', { containerId: row.id });
    if (!map) continue;
    const port = (label: string) =>
      map.geojson.features.find(
        (f) => f.properties.feature_type === 'port' && f.properties.label === label,
      );
    const pol = port('POL')?.geometry.coordinates as number[] | undefined;
    const pod = port('POD')?.geometry.coordinates as number[] | undefined;
    const hasLine = map.geojson.features.some((f) => f.geometry.type === 'LineString');
    if (pol && pod && hasLine && pol[0]! > 90 && pod[0]! < -90) return row.id;
  }
  return null;
}

test.describe('route map', () => {
  let dataDir: string;
  let app: LaunchedApp | null = null;
  test.beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-route-'));
  });
  test.afterEach(async () => {
    await app?.stop();
    app = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a trans-Pacific container is one continuous line across the antimeridian; the wheel scrolls the page', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    app = await startBrowserMode(dataDir);
    await page.goto(app.url);
    await expect(page.getByRole('status').first()).toContainText('Up to date', {
      timeout: 120_000,
    });
    let id: string | null = null;
    await expect
      .poll(async () => (id = await transPacificContainer(app!)), {
        timeout: 120_000,
        intervals: [3_000],
      })
      .not.toBeNull();

    await page.goto(`${app.url.split('#')[0]}#/containers/${id!}`);
    const map = page.getByRole('region', { name: 'Route map' });
    await expect.poll(() => map.getByTestId('map-port').count()).toBeGreaterThanOrEqual(2);
    const paths = map.locator(
      '[data-testid="map-past-path"], [data-testid="map-past-estimated"], [data-testid="map-estimated-leg"]',
    );
    await expect.poll(() => paths.count()).toBeGreaterThan(0);

    const lines = await paths.evaluateAll((elements) =>
      elements.map((e) => ({
        kind: e.getAttribute('data-testid'),
        from: Number(e.getAttribute('data-lng-from')),
        to: Number(e.getAttribute('data-lng-to')),
        largestStep: Number(e.getAttribute('data-largest-step')),
      })),
    );
    const portLng = async (label: string) =>
      Number(await map.getByTestId('map-port').filter({ hasText: label }).getAttribute('data-lng'));
    const pol = await portLng('POL');
    const pod = await portLng('POD');

    // The route starts on the map's own copy of the world and runs east past 180°: the
    // discharge port is drawn east of the loading port, not at the left edge.
    expect(pol).toBeGreaterThan(90);
    expect(pol).toBeLessThanOrEqual(180);
    expect(pod).toBeGreaterThan(180);
    expect(pod - pol).toBeLessThan(180);
    for (const line of lines) {
      // No jump anywhere: consecutive points are close, never half a world apart.
      expect(line.largestStep, JSON.stringify(line)).toBeLessThan(45);
      // Every segment lies between the two ports on the same copy.
      for (const lng of [line.from, line.to]) {
        expect(lng).toBeGreaterThan(pol - 20);
        expect(lng).toBeLessThan(pod + 20);
      }
    }
    // Segments join up in route order (sailed, then what lies ahead) and reach the port.
    for (let i = 1; i < lines.length; i++) {
      expect(Math.abs(lines[i]!.from - lines[i - 1]!.to), JSON.stringify(lines)).toBeLessThan(2);
    }
    expect(Math.abs(lines.at(-1)!.to - pod)).toBeLessThan(2);
    expect(lines.some((line) => line.kind !== 'map-estimated-leg')).toBe(true);

    // The view is fitted to the unwrapped route.
    const west = Number(await map.getAttribute('data-route-west'));
    const east = Number(await map.getAttribute('data-route-east'));
    expect(west).toBeLessThanOrEqual(pol);
    expect(east).toBeGreaterThanOrEqual(pod);
    expect(east - west).toBeLessThan(200);
    await map.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('trans-pacific.png') });

    const zoom = async () => Number(await map.getAttribute('data-zoom'));
    // How far the page and its scrolling <main> are scrolled, summed.
    const scrolled = () =>
      page.evaluate(() => {
        interface Scroller {
          scrollTop: number;
        }
        const doc = (
          globalThis as unknown as {
            document: {
              scrollingElement: Scroller | null;
              querySelectorAll(selector: string): Iterable<Scroller>;
            };
          }
        ).document;
        return [doc.scrollingElement, ...doc.querySelectorAll('main')].reduce(
          (sum, element) => sum + (element?.scrollTop ?? 0),
          0,
        );
      });
    /** `read`'s value once two readings in a row agree (a scroll or zoom animation has ended). */
    const settled = async (read: () => Promise<number>) => {
      let last = NaN;
      await expect
        .poll(async () => {
          const now = await read();
          const still = now === last;
          last = now;
          return still;
        })
        .toBe(true);
      return last;
    };
    // Points the mouse at the map's middle once the page has stopped moving (a wheel or a
    // focus may scroll it, animated).
    const aim = async () => {
      await map.scrollIntoViewIfNeeded();
      await settled(scrolled);
      const box = (await map.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      return box;
    };
    /**
     * Ctrl and the wheel until the map's zoom passes `above`. A wheel that lands while the map
     * still settles (its first fit) may be dropped by Leaflet, and the page may have moved the
     * map from under the pointer meanwhile: the gesture is aimed again and repeated until the
     * map answers it.
     */
    const zoomInWithCtrl = (above: number) =>
      expect(async () => {
        await aim();
        await page.keyboard.down('Control');
        await page.mouse.wheel(0, -200);
        await page.keyboard.up('Control');
        await expect.poll(zoom, { timeout: 2_000 }).toBeGreaterThan(above);
      }).toPass();
    /** The zoom of the view fitted to the route when it was first drawn (once its animation ends). */
    const fittedZoom = await settled(zoom);

    await test.step('the wheel scrolls the page until the map is focused or Ctrl is held', async () => {
      // Ctrl held: the wheel zooms the map.
      await zoomInWithCtrl(fittedZoom);

      // Focused (a click on the map), the wheel zooms without a modifier.
      const box = await aim();
      await page.mouse.click(box.x + 10, box.y + box.height - 10);
      await expect(map).toBeFocused();
      const zoomed = await zoom();
      await aim();
      await page.mouse.wheel(0, 300);
      await expect.poll(zoom).toBeLessThan(zoomed);

      // Not focused, no modifier: the page scrolls and the map keeps its zoom.
      await page.getByRole('heading').first().click();
      await expect(map).not.toBeFocused();
      await aim();
      const before = { zoom: await zoom(), scroll: await scrolled() };
      // Upwards, so the page can always scroll (the map sits below the detail's header).
      await page.mouse.wheel(0, -200);
      await expect.poll(scrolled).toBeLessThan(before.scroll);
      expect(await zoom()).toBe(before.zoom);
    });

    await test.step('a sync draws the route again and keeps the view the dispatcher chose', async () => {
      // Zoomed in past where it stands and past the fitted view, so a fit would show.
      await zoomInWithCtrl(Math.max(await zoom(), fittedZoom));
      // Leaflet's animations end in a zoomend that sets data-zoom: wait until it holds still.
      const chosen = await settled(zoom);
      // The ports' markers are made anew each time the route is drawn: mark these and wait for
      // a drawing without the mark (the app syncs the demo every 15 seconds).
      await map
        .getByTestId('map-port')
        .evaluateAll((elements) =>
          elements.forEach((e) => e.setAttribute('data-drawn-before', '')),
        );
      await expect(
        map.locator('[data-testid="map-port"]:not([data-drawn-before])'),
      ).not.toHaveCount(0, { timeout: 120_000 });
      // A fit, had the drawing made one, would start on the next animation frame and zoom for a
      // quarter of a second with its pane marked, and tell its zoom a frame after that: the zoom
      // is read once the pane is unmarked and the reading holds still.
      await page.evaluate(
        () =>
          new Promise((done) => {
            const frames = globalThis as unknown as {
              requestAnimationFrame(callback: () => void): void;
            };
            frames.requestAnimationFrame(() => frames.requestAnimationFrame(() => done(null)));
          }),
      );
      await expect(map.locator('.leaflet-map-pane')).not.toHaveClass(/leaflet-zoom-anim/);
      expect(await settled(zoom)).toBe(chosen);
    });
  });
});
