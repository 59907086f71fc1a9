/**
 * What the end-to-end specs do with a running app: a fresh one per test, its bridge called as the
 * browser-mode renderer calls it, syncing until the board shows what a test waits for.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserMode, type LaunchedApp } from './launch';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');

/**
 * A fresh app in browser mode over its own data folder for each test of the describe block this
 * is called in, stopped and removed after it: a failed test never leaves state for the next.
 */
export function freshAppPerTest(prefix: string): {
  readonly app: LaunchedApp;
  readonly dataDir: string;
} {
  let app: LaunchedApp | undefined;
  let dataDir: string | undefined;
  test.beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), prefix));
    app = await startBrowserMode(dataDir);
  });
  test.afterEach(async () => {
    await app?.stop();
    app = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get app() {
      if (!app) throw new Error('the app runs only inside a test');
      return app;
    },
    get dataDir() {
      if (!dataDir) throw new Error('the data folder exists only inside a test');
      return dataDir;
    },
  };
}

/** Calls one bridge method the way the browser-mode renderer does. */
export async function bridge<T>(app: LaunchedApp, method: string, argument: unknown): Promise<T> {
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

/** Between two clicks of Sync now; `done` is asked every POLL_MS meanwhile. */
const SYNC_AGAIN_MS = 1_500;
const POLL_MS = 100;

/**
 * Clicks Sync now until `done` holds (the embedded world syncs on its own schedule too): at most
 * one click every SYNC_AGAIN_MS, and returns as soon as `done` holds in between.
 */
export async function syncUntil(
  page: Page,
  done: () => Promise<boolean>,
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return;
    if (Date.now() > deadline) throw new Error('condition not reached after syncing');
    const button = page.getByRole('button', { name: 'Sync now' });
    if (await button.isEnabled()) await button.click();
    const again = Date.now() + SYNC_AGAIN_MS;
    while (Date.now() < again) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (await done()) return;
    }
  }
}

/**
 * Opens the first container on the board as a user does (a click on its row) and returns the
 * number of the container whose detail then shows. A sync landing between reading the row and
 * clicking it may reorder the board, so the row is found again by its number; one landing during
 * the click itself may still put another box under the pointer, and the test goes on with the
 * box that opened, as a user would read it from the detail's heading.
 */
export async function openFirstBoardContainer(page: Page): Promise<string> {
  const rows = page.locator('[role=rowgroup].board__body [role=row]');
  await expect(rows.first()).not.toHaveAttribute('aria-busy', 'true');
  const number = ((await rows.first().locator('[data-col="number"]').textContent()) ?? '').trim();
  await rows.filter({ hasText: number }).first().click();
  const detail = page.getByRole('article', { name: /^Container / });
  await expect(detail).toBeVisible();
  return ((await detail.getByRole('heading', { level: 2 }).first().textContent()) ?? '').trim();
}

/** How many containers the board's count line says it shows ("1,234 containers"); 0 before. */
export async function boardCount(page: Page): Promise<number> {
  const text = (await page.getByTestId('board-count').textContent()) ?? '';
  const match = /([\d,]+) containers?\b/.exec(text);
  return match?.[1] ? Number(match[1].replace(/,/g, '')) : 0;
}

/**
 * The board's count once two readings a second apart agree. What a sync wrote just before the
 * service went away reaches the board when it reads its rows again, so a count read at once
 * may still grow; the steady one is what the cache holds.
 */
export async function steadyBoardCount(page: Page): Promise<number> {
  let last = -1;
  await expect
    .poll(
      async () => {
        const now = await boardCount(page);
        const steady = now === last;
        last = now;
        return steady;
      },
      { intervals: [1_000], timeout: 60_000 },
    )
    .toBe(true);
  return last;
}

export interface WorldShipment {
  billOfLading: string;
  scac: string;
  containers: string[];
}

/**
 * A shipment of the simulated world with containers the app does not track yet by any of its
 * numbers, so tracking it is what brings it onto the board. `quayside sim list` prints each
 * shipment as its BL, its booking, then its containers.
 */
export async function untrackedShipment(app: LaunchedApp): Promise<WorldShipment> {
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
      { timeout: 120_000 },
    )
    .toBe(true);
  const tracked = new Set(requests!.rows.map((row) => row.number));
  const shipments: (WorldShipment & { numbers: string[] })[] = [];
  for (const line of listing.split('\n').slice(1)) {
    const [number, scac, type] = line.trim().split(/\s+/);
    if (!number || !scac || !type) continue;
    if (type === 'bill_of_lading')
      shipments.push({ billOfLading: number, scac, containers: [], numbers: [] });
    const shipment = shipments.at(-1);
    shipment?.numbers.push(number);
    if (type === 'container') shipment?.containers.push(number);
  }
  const free = shipments.find(
    (s) => s.containers.length > 0 && s.numbers.every((number) => !tracked.has(number)),
  );
  if (!free) throw new Error('the app already tracks every shipment of the world');
  return { billOfLading: free.billOfLading, scac: free.scac, containers: free.containers };
}
