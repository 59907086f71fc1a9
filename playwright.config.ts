import { execSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

/** Debian's chromium package; Playwright never downloads a browser of its own here. */
function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execSync('command -v chromium || command -v chromium-browser', { shell: '/bin/sh' })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  // Outer limits only (a passing test never waits for them), sized for a machine two to three
  // times slower than a quiet one: two shared cores on CI, busy with another job or a slow host.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  // One file per worker at a time, its tests in order. Two workers: much of an end-to-end test is
  // waiting on the app's clock or a sync, so two at once take about half the time on two cores;
  // every test starts its own app and service on free ports with its own data folder.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 720 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
