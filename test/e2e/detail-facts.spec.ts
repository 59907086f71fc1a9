/**
 * The facts a dispatcher reads on a container's detail, checked against the data the app holds:
 * at a ramp the rail carrier's last free day leads and every time is the ramp's; the event
 * history runs in the order things happened, in words, each with its place and one zone per
 * instant; at the port the terminal's last free day leads when it comes before the line's. One
 * app (the demo world) serves the three, which look at different boxes of it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import type { BoardPage, BoardRow, ContainerDetail } from '../../src/shared/desktop';
import type { Worklist } from '../../src/shared/bridge';
import { bridge, syncUntil } from '../support/e2e/app';
import { startBrowserMode, type LaunchedApp } from '../support/e2e/launch';

const LEFT = new Set(['picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped']);
const deadline = (row: BoardRow, source: 'line' | 'terminal' | 'rail') =>
  row.deadlines.find((d) => d.source === source) ?? null;

test.describe('the detail tells the facts', () => {
  let dataDir: string;
  let app: LaunchedApp;
  let rows: BoardRow[] = [];

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    dataDir = mkdtempSync(join(tmpdir(), 'quayside-facts-'));
    app = await startBrowserMode(dataDir);
    const page = await browser.newPage();
    await page.goto(app.url);
    // Synced far enough that the world's boxes at a ramp and at a terminal are on the board.
    await syncUntil(
      page,
      async () => {
        rows = (await bridge<BoardPage>(app, 'listContainers', { limit: 1000 })).rows;
        return Boolean(rampBox() && terminalFirstBox());
      },
      120_000,
    );
    await page.close();
  });
  test.afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A box at a ramp whose rail LFD comes before the line's (when the line gives one). */
  const rampBox = () =>
    rows.find((r) => {
      const rail = deadline(r, 'rail');
      const line = deadline(r, 'line');
      return (
        r.location.kind === 'ramp' &&
        !LEFT.has(r.status) &&
        rail !== null &&
        (line === null || rail.endsAt < line.endsAt)
      );
    });
  /** A box at its terminal whose terminal LFD comes before its line LFD. */
  const terminalFirstBox = () =>
    rows.find((r) => {
      const terminal = deadline(r, 'terminal');
      const line = deadline(r, 'line');
      return (
        r.location.kind === 'terminal' &&
        !LEFT.has(r.status) &&
        terminal !== null &&
        line !== null &&
        terminal.endsAt < line.endsAt
      );
    });

  /** The app's time (the demo world runs faster than the wall clock). */
  const appNow = async () =>
    Date.parse((await bridge<{ now: string }>(app, 'getClock', undefined)).now);

  const openDetail = async (page: Page, row: BoardRow) => {
    await page.goto(`${app.url.split('#')[0]}#/containers/${row.id}`);
    await expect(page.getByRole('heading', { name: row.number })).toBeVisible();
    return page.getByRole('article', { name: `Container ${row.number}` });
  };

  test('at a ramp the rail LFD leads and every time is in the ramp zone, on the detail and the worklist', async ({
    page,
  }) => {
    const row = rampBox()!;
    const rail = deadline(row, 'rail')!;
    const rampZone = row.destinationTimezone!;
    expect(rail.zone).toBe(rampZone);
    const detail = await openDetail(page, row);

    // The headline under Key dates names the rail LFD; the deadlines table marks its row.
    const headline = detail.getByTestId('lfd-cell');
    await expect(headline.locator('.lfd__source')).toHaveText('rail');
    await expect(headline.locator('.lfd__date')).toHaveText(
      DateTime.fromISO(rail.date, { zone: rampZone }).toFormat('d LLL'),
    );
    const table = detail.getByRole('table', { name: 'Last free days' });
    await expect(table.locator('tr.binding th')).toHaveText('Rail LFD');
    await expect(table.locator('tr.binding')).toContainText(`(${rampZone})`);
    // A deadline already passed is never offered as the next one.
    const now = await appNow();
    for (const d of row.deadlines.filter((x) => x.endsAt <= now)) {
      const name = `${d.source![0]!.toUpperCase()}${d.source!.slice(1)} LFD`;
      await expect(table.getByRole('row', { name: new RegExp(`^${name}`) })).not.toContainText(
        'Next deadline',
      );
    }
    // An arrived box's destination date is its arrival, not an ETA.
    const detailData = await bridge<ContainerDetail>(app, 'getContainerDetail', { id: row.id });
    if (detailData.shipment?.attributes.destination_ata_at) {
      await expect(
        detail.getByRole('rowheader', { name: 'Destination ETA', exact: true }),
      ).toHaveCount(0);
      await expect(
        detail.getByRole('rowheader', { name: 'Arrived destination', exact: true }),
      ).toHaveCount(1);
    }

    // The pickup appointment, when the box has one, in the ramp's own zone.
    const appointment = row.pickupAppointmentAt
      ? DateTime.fromISO(row.pickupAppointmentAt, { zone: rampZone })
      : null;
    const appointmentText = appointment
      ? `${appointment.toFormat('HH:mm')} ${appointment.offsetNameShort!}`
      : null;
    if (appointmentText) {
      await expect(
        detail.getByRole('row', { name: /^Pickup appointment/ }).getByRole('cell'),
      ).toContainText(appointmentText);
    }

    // The worklist lists the box under its ramp, counted in the ramp's zone, with the same
    // headline deadline (and the same appointment time) as the detail.
    const worklist = await bridge<Worklist>(app, 'getWorklist', undefined);
    const place = worklist.sections
      .flatMap((s) => s.places)
      .find((p) => p.items.some((i) => i.row.id === row.id));
    expect(place, 'the box at the ramp is on the worklist').toBeDefined();
    expect(place!.name).toBe(row.location.name);
    expect(place!.zone).toBe(rampZone);
    await page.goto(`${app.url.split('#')[0]}#/`);
    const onWorklist = page.getByTestId('worklist-row').filter({ hasText: row.number });
    await expect(onWorklist.getByTestId('worklist-reason')).toContainText('Rail LFD');
    await expect(onWorklist.getByTestId('lfd-cell').locator('.lfd__source')).toHaveText('rail');
    await expect(onWorklist.getByTestId('lfd-cell').locator('.lfd__date')).toHaveText(
      DateTime.fromISO(rail.date, { zone: rampZone }).toFormat('d LLL'),
    );
    const action = onWorklist.getByTestId('worklist-action');
    if (appointmentText && /Dispatch the truck for/.test((await action.textContent()) ?? '')) {
      await expect(action).toContainText(appointmentText);
    }
  });

  test('events run in the order they happened, in words, each with its place and one zone per instant', async ({
    page,
  }) => {
    // The box at the ramp has the longest story: ocean, port, rail and ramp events.
    const row = rampBox()!;
    const detail = await openDetail(page, row);
    const events = detail.getByTestId('timeline-event');
    await expect(events.first()).toBeVisible();
    const entries = await events.evaluateAll((items) =>
      items.map((li) => ({
        at: li.getAttribute('data-at'),
        when: li.querySelector('.timeline__when')?.textContent?.trim() ?? '',
        what: li.querySelector('.timeline__what')?.firstChild?.textContent?.trim() ?? '',
        where: li.querySelector('.timeline__where')?.textContent?.trim() ?? '',
      })),
    );
    const stored = await bridge<ContainerDetail>(app, 'getContainerDetail', { id: row.id });
    expect(entries).toHaveLength(stored.events.length);

    // In the order they happened (undated last).
    const instants = entries.map((e) => (e.at ? Date.parse(e.at) : Infinity));
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
    for (const e of entries) {
      // In words: no event codes, no dotted or underscored names, no "lfd" in lower case.
      expect(e.what, JSON.stringify(e)).toMatch(/^[A-Z][A-Za-z ,'()/-]+$/);
      expect(e.what).not.toMatch(/\blfd\b/);
      // Each with its place.
      expect(e.where, JSON.stringify(e)).not.toMatch(/^(—|·|$)/);
    }
    // The rail move reads loaded, departed, arrived.
    const first = (pattern: RegExp) => entries.findIndex((e) => pattern.test(e.what));
    const loaded = first(/loaded on rail|rail loaded/i);
    const departed = first(/rail departed/i);
    const arrived = first(/rail arrived/i);
    expect(loaded).toBeGreaterThanOrEqual(0);
    expect(loaded).toBeLessThan(departed);
    expect(departed).toBeLessThan(arrived);
    // One instant, one written time (never "14:52 CST" beside "15:52 EST").
    const byInstant = new Map<string, Set<string>>();
    for (const e of entries.filter((x) => x.at)) {
      byInstant.set(e.at!, (byInstant.get(e.at!) ?? new Set()).add(e.when));
    }
    for (const [at, written] of byInstant) expect([...written], at).toHaveLength(1);
  });

  test('at the terminal the terminal LFD leads when it comes before the line LFD', async ({
    page,
  }) => {
    const row = terminalFirstBox()!;
    const terminal = deadline(row, 'terminal')!;
    const line = deadline(row, 'line')!;
    const day = (d: typeof terminal) =>
      DateTime.fromISO(d.date, { zone: d.zone }).toFormat('d LLL');

    // The board leads with the terminal's date.
    await page.goto(`${app.url.split('#')[0]}#/containers`);
    await page.getByRole('searchbox', { name: 'Filter containers' }).fill(row.number);
    const grid = page.getByRole('grid', { name: 'Containers' });
    await expect(grid.getByRole('row')).toHaveCount(2);
    const cell = grid.getByRole('row').nth(1).getByTestId('lfd-cell');
    await expect(cell.locator('.lfd__date')).toHaveText(day(terminal));
    await expect(cell.locator('.lfd__source')).toHaveText('terminal');
    await expect(cell.locator('.lfd__more')).toContainText(`${day(line)} line`);

    // The detail marks the terminal's row as the one that acts first; "binding" names nothing.
    const detail = await openDetail(page, row);
    const table = detail.getByRole('table', { name: 'Last free days' });
    await expect(table.locator('tr.binding th')).toHaveText('Terminal LFD');
    await expect(detail.getByTestId('lfd-cell').locator('.lfd__source')).toHaveText('terminal');
    await expect(detail).not.toContainText(/binding/i);
    // Still a day of app time ahead (about two and a half minutes at the demo's 600×).
    if ((await appNow()) < terminal.endsAt - 24 * 3_600_000) {
      await expect(table.locator('tr.binding')).toContainText('Acts first');
      await expect(table.getByRole('row', { name: /^Line LFD/ })).not.toContainText('Acts first');
    }
  });
});
