import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode } from '../support/e2e/launch';

test.describe('browser mode', () => {
  let dataDir: string;
  test.beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-e2e-'));
  });
  test.afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  test('shows the app shell and keeps settings across a restart', async ({ page }) => {
    const first = await startBrowserMode(dataDir);
    try {
      await page.goto(first.url);
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const label of [
        'Worklist',
        'Containers',
        'Shipments',
        'Track',
        'Requests',
        'Alerts',
        'Settings',
      ]) {
        await expect(nav.getByRole('link', { name: label })).toBeVisible();
      }
      // The launch token leaves the address bar once the page has it.
      expect(page.url()).not.toContain('token=');
      // The embedded service starts with the app, so the first sync soon succeeds; it says
      // "loading" while the demo world's lookups are under way, a minute at most (first-sync.ts).
      await expect(page.getByRole('status').first()).toContainText('Up to date', {
        timeout: 120_000,
      });

      await nav.getByRole('link', { name: 'Settings' }).click();
      await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
      await expect(page.getByText('Browser mode', { exact: true })).toBeVisible();
      await page.getByLabel('Theme').selectOption('dark');
      await page.getByLabel('Sync every (minutes)').fill('17');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByText('Saved')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await page.screenshot({ path: test.info().outputPath('settings.png') });
    } finally {
      await first.stop();
    }

    const second = await startBrowserMode(dataDir);
    try {
      await page.goto(`${second.url}#/settings`);
      await expect(page.getByLabel('Sync every (minutes)')).toHaveValue('17');
      await expect(page.getByLabel('Theme')).toHaveValue('dark');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    } finally {
      await second.stop();
    }
  });

  test('refuses an out-of-range setting with a clear message and keeps the old value', async ({
    page,
  }) => {
    const app = await startBrowserMode(dataDir);
    try {
      await page.goto(`${app.url}#/settings`);
      const thresholds = page.getByLabel('Warn before the last free day (hours, comma separated)');
      await thresholds.fill('48, soon');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(
        page.getByText(/Invalid argument for updateSettings: \/alerts\/lfdThresholdsHours\/1/),
      ).toBeVisible();
      await page.reload();
      await expect(thresholds).toHaveValue('48, 24');
    } finally {
      await app.stop();
    }
  });

  test('rejects bridge requests without the launch token', async ({ request }) => {
    const app = await startBrowserMode(dataDir);
    try {
      const origin = new URL(app.url).origin;
      const response = await request.post(`${origin}/bridge/getSettings`, {
        data: { argument: null },
      });
      expect(response.status()).toBe(401);
      const body = (await response.json()) as { ok: boolean; error: { message: string } };
      expect(body.ok).toBe(false);
      expect(body.error.message).toContain('launch token');
    } finally {
      await app.stop();
    }
  });
});
