/**
 * axe-core over every view in both themes, on the embedded default with its demo data: no
 * serious or critical violation of WCAG 2.1 A/AA (contrast, names, focusable scroll regions).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFirstBoardContainer, syncUntil } from '../support/e2e/app';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';

const VIEWS = [
  { hash: 'worklist', heading: 'Worklist' },
  { hash: 'containers', heading: 'Containers' },
  { hash: 'shipments', heading: 'Shipments' },
  { hash: 'track', heading: 'Track' },
  { hash: 'requests', heading: 'Requests' },
  { hash: 'documents', heading: 'Documents' },
  { hash: 'alerts', heading: 'Alerts' },
  { hash: 'settings', heading: 'Settings' },
];

interface Finding {
  view: string;
  rule: string;
  impact: string;
  targets: string[];
  summary: string;
}

async function serious(page: Page, view: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      view,
      rule: violation.id,
      impact: String(violation.impact),
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      summary: violation.nodes[0]?.failureSummary?.split('\n').slice(0, 2).join(' ') ?? '',
    }));
}

test.describe('accessibility', () => {
  let app: LaunchedApp;
  let dataDir: string;
  test.beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-axe-'));
    app = await startBrowserMode(dataDir);
  });
  test.afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`every view in the ${colorScheme} theme has no serious or critical violation`, async ({
      page,
    }) => {
      test.setTimeout(360_000);
      await page.emulateMedia({ colorScheme });
      await page.goto(app.url);
      await syncUntil(page, async () => (await page.getByTestId('worklist-row').count()) > 0);
      const findings: Finding[] = [];
      for (const view of VIEWS) {
        await page.goto(`${app.url}#/${view.hash}`);
        await expect(page.getByRole('heading', { name: view.heading, level: 1 })).toBeVisible();
        findings.push(...(await serious(page, view.hash)));
      }
      // Tables wider than the window scroll in their own box, which the keyboard must reach
      // (the demo's data decides when a table is that wide; a narrow window makes it so).
      await page.setViewportSize({ width: 640, height: 720 });
      for (const [hash, table] of [
        ['shipments', 'Shipments'],
        ['requests', 'Tracking requests'],
      ] as const) {
        await page.goto(`${app.url}#/${hash}`);
        await expect(page.getByRole('table', { name: table })).toBeVisible();
        findings.push(...(await serious(page, `${hash}, narrow window`)));
      }
      await page.setViewportSize({ width: 1280, height: 720 });
      // A container's and a shipment's detail, opened from their lists as a user does.
      await page.goto(`${app.url}#/containers`);
      await openFirstBoardContainer(page);
      findings.push(...(await serious(page, 'container detail')));
      await page.goto(`${app.url}#/shipments`);
      const shipment = page.getByRole('table', { name: 'Shipments' }).getByRole('link').first();
      const reference = ((await shipment.textContent()) ?? '').trim();
      await shipment.click();
      await expect(page.getByRole('heading', { name: reference })).toBeVisible();
      findings.push(...(await serious(page, 'shipment detail')));
      // One line per finding, the first one first: a run's summary keeps only the first line.
      const described = findings.map(
        (f) => `${f.view}: ${f.rule} (${f.impact}) at ${f.targets.join(', ')}: ${f.summary}`,
      );
      expect(findings, described.join('\n')).toEqual([]);
    });
  }
});
