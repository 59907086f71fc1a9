import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** `npm run rebuild:electron` leaves native/electron-abi<N>/better_sqlite3.node. */
function hasElectronSqliteBuild(): boolean {
  const nativeDir = join(repoRoot, 'native');
  return (
    existsSync(nativeDir) &&
    readdirSync(nativeDir).some((dir) => existsSync(join(nativeDir, dir, 'better_sqlite3.node')))
  );
}

/** The Electron runtime, or why it cannot run here (e.g. installed with ELECTRON_SKIP_BINARY_DOWNLOAD). */
function electronRuntime(): { path: string } | { path: null; reason: string } {
  try {
    const path = createRequire(join(repoRoot, 'package.json'))('electron') as unknown;
    if (typeof path === 'string' && existsSync(path)) {
      if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
        return { path: null, reason: 'no display (run under xvfb-run to include this test)' };
      }
      if (!hasElectronSqliteBuild()) {
        return {
          path: null,
          reason: 'SQLite not built for Electron (run npm run rebuild:electron)',
        };
      }
      return { path };
    }
  } catch {
    // The electron package throws when its runtime was never downloaded.
  }
  return {
    path: null,
    reason: 'Electron runtime not installed (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)',
  };
}

const runtime = electronRuntime();

test.describe('Electron shell', () => {
  test.skip(runtime.path === null, runtime.path === null ? runtime.reason : '');

  test('round-trips a setting through the preload bridge and keeps it across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quayside-electron-'));
    const launch = () =>
      electron.launch({
        args: [join(repoRoot, 'out', 'main', 'index.js'), '--data-dir', dataDir],
        cwd: repoRoot,
      });
    try {
      const first = await launch();
      const window = await first.firstWindow();
      // The renderer has no Node and sees only the bridge.
      expect(
        await window.evaluate(() => typeof (globalThis as { require?: unknown }).require),
      ).toBe('undefined');
      await window.getByRole('link', { name: 'Settings' }).click();
      await expect(window.getByText('Desktop app', { exact: true })).toBeVisible();
      await window.getByLabel('Sync every (minutes)').fill('23');
      await window.getByRole('button', { name: 'Save settings' }).click();
      await expect(window.getByText('Saved')).toBeVisible();
      await first.close();

      const second = await launch();
      const again = await second.firstWindow();
      await again.getByRole('link', { name: 'Settings' }).click();
      await expect(again.getByLabel('Sync every (minutes)')).toHaveValue('23');
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
