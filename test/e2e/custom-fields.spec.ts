/**
 * Custom fields end to end, browser mode against the embedded service: a team admin defines a
 * "Haulier" choice field through the service's API with the embedded service's key (the app has
 * no screen for defining fields), a dispatcher sets it on a container from the detail view, sees
 * it as a board column after the sync, filters by it and exports it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { boardCount, freshAppPerTest, openFirstBoardContainer } from '../support/e2e/app';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/**
 * A container of the simulated world whose shipment nobody tracks yet (`quayside sim list`
 * prints each shipment as its BL, its booking, then its containers).
 */
async function untrackedContainer(service: {
  baseUrl: string;
  apiKey: string;
}): Promise<{ number: string; scac: string }> {
  const listing = execFileSync(process.execPath, ['bin/quayside.mjs', 'sim', 'list'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  const res = await fetch(`${service.baseUrl}/tracking_requests?page[size]=100`, {
    headers: { Authorization: `Token ${service.apiKey}` },
    signal: AbortSignal.timeout(10_000),
  });
  const tracked = new Set(
    ((await res.json()) as { data: { attributes: { request_number: string } }[] }).data.map(
      (r) => r.attributes.request_number,
    ),
  );
  const groups: { numbers: string[]; containers: { number: string; scac: string }[] }[] = [];
  for (const line of listing.split('\n').slice(1)) {
    const [number, scac, type] = line.trim().split(/\s+/);
    if (!number || !scac || !type) continue;
    if (type === 'bill_of_lading') groups.push({ numbers: [], containers: [] });
    const group = groups.at(-1);
    group?.numbers.push(number);
    if (type === 'container') group?.containers.push({ number, scac });
  }
  const free = groups.find(
    (group) => group.containers.length > 0 && group.numbers.every((n) => !tracked.has(n)),
  );
  if (!free?.containers[0]) throw new Error('every shipment of the world is tracked already');
  return free.containers[0];
}

/** The embedded service process of the app using `dataDir` (its options name the folder). */
function servicePid(dataDir: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!command.includes('service-process.js')) continue;
      const environment = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (environment.includes(join(dataDir, 'embedded-service'))) return Number(entry);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return null;
}

/** The loopback TCP ports a process listens on (its socket inodes among the listening ones). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // Column 3 is the state (0A: listening), column 9 the socket's inode.
      if (cols[3] === '0A' && inodes.has(cols[9] ?? '')) {
        ports.push(parseInt(cols[1]!.split(':')[1]!, 16));
      }
    }
  }
  return ports;
}

/** The embedded service's /v2 address and key: the port of the process that answers with the key. */
async function embeddedService(dataDir: string): Promise<{ baseUrl: string; apiKey: string }> {
  let found: { baseUrl: string; apiKey: string } | null = null;
  await expect
    .poll(
      async () => {
        const pid = servicePid(dataDir);
        if (!pid) return false;
        let apiKey = '';
        try {
          apiKey = (
            JSON.parse(
              readFileSync(join(dataDir, 'embedded-service', 'embedded-key.json'), 'utf8'),
            ) as { apiKey: string }
          ).apiKey;
        } catch {
          return false;
        }
        for (const port of listeningPorts(pid)) {
          const baseUrl = `http://127.0.0.1:${port}/v2`;
          try {
            const res = await fetch(`${baseUrl}/custom_field_definitions`, {
              headers: { Authorization: `Token ${apiKey}` },
              signal: AbortSignal.timeout(5_000),
            });
            if (res.status === 200) {
              found = { baseUrl, apiKey };
              return true;
            }
          } catch {
            // Not an HTTP port (the simulated world's AIS feed), or not up yet.
          }
        }
        return false;
      },
      { timeout: 120_000, intervals: [1_000] },
    )
    .toBe(true);
  return found!;
}

async function send(
  service: { baseUrl: string; apiKey: string },
  path: string,
  body: unknown,
): Promise<{ data: { id: string } }> {
  const res = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Token ${service.apiKey}`,
      'Content-Type': 'application/vnd.api+json',
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { data: { id: string } };
}

/** The rows of a CSV file (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

test.describe('custom fields on the board', () => {
  const fresh = freshAppPerTest('quayside-custom-fields-');

  test('define "Haulier", set it from the detail view, see, filter and export it', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    const service = await embeddedService(fresh.dataDir);
    const definition = await send(service, '/custom_field_definitions', {
      data: {
        type: 'custom_field_definition',
        attributes: {
          entity_type: 'Container',
          api_slug: 'haulier',
          display_name: 'Haulier',
          data_type: 'enum',
        },
      },
    });
    for (const [label, value] of [
      ['Acme Drayage', 'acme'],
      ['Bay Haulers', 'bay'],
    ]) {
      await send(service, `/custom_field_definitions/${definition.data.id}/options`, {
        data: { type: 'custom_field_option', attributes: { label, value } },
      });
    }

    await page.goto(`${fresh.app.url}#/containers`);
    await expect
      .poll(
        async () => {
          const sync = page.getByRole('button', { name: 'Sync now' });
          if (await sync.isEnabled()) await sync.click();
          return boardCount(page);
        },
        { timeout: 180_000, intervals: [2_000] },
      )
      .toBeGreaterThan(1);

    // Set the haulier on the first container from its detail view.
    const board = page.getByRole('grid', { name: 'Containers' });
    const number = await openFirstBoardContainer(page);
    expect(number).toMatch(/^[A-Z]{4}\d{7}$/);
    const haulier = page.getByLabel('Haulier', { exact: true });
    await expect(haulier).toBeEnabled();
    await haulier.selectOption('acme');
    await page
      .getByRole('region', { name: 'Custom fields' })
      .getByRole('button', { name: 'Save' })
      .click();
    await expect(page.getByText('Haulier saved.')).toBeVisible();

    // Back on the board the column is offered (hidden until chosen) and shows the value.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Containers' })
      .click();
    const columnsMenu = page.locator('summary', { hasText: 'Columns' });
    await columnsMenu.click();
    const columnToggle = page
      .getByRole('group', { name: 'Visible columns' })
      .getByRole('checkbox', { name: 'Haulier' });
    await expect(columnToggle).not.toBeChecked();
    await columnToggle.check();
    await columnsMenu.click();
    await expect(board.getByRole('columnheader', { name: /Haulier/ })).toBeVisible();

    // Filter by it: only the container just set is left, with its value in the column.
    const filter = page.getByRole('combobox', { name: 'Haulier filter' });
    await expect
      .poll(
        async () => {
          const sync = page.getByRole('button', { name: 'Sync now' });
          if (await sync.isEnabled()) await sync.click();
          await filter.selectOption('acme');
          return boardCount(page);
        },
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBe(1);
    await expect(page.getByTestId('board-count')).toHaveText('1 container');
    const cell = page.locator('[role=rowgroup].board__body [data-col="cf:haulier"]').first();
    await expect(cell).toHaveText(/Acme Drayage/);
    await expect(board).toContainText(number);
    await page.screenshot({ path: test.info().outputPath('custom-field-column.png') });

    // Export: the CSV has the column and the value.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const [header, ...rows] = parseCsv(readFileSync((await download.path())!, 'utf8'));
    const column = header!.indexOf('Haulier');
    expect(column).toBeGreaterThan(0);
    expect(rows).toHaveLength(1);
    expect(rows[0]![0]).toBe(number);
    expect(rows[0]![column]).toBe('Acme Drayage');
  });

  test('a PO number set on the Track form shows on the board with the shipment', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    const service = await embeddedService(fresh.dataDir);
    for (const entityType of ['TrackingRequest', 'Shipment']) {
      await send(service, '/custom_field_definitions', {
        data: {
          type: 'custom_field_definition',
          attributes: {
            entity_type: entityType,
            api_slug: 'po_number',
            display_name: 'PO number',
            data_type: 'short_text',
          },
        },
      });
    }
    const target = await untrackedContainer(service);

    await page.goto(`${fresh.app.url}#/track`);
    await page.getByLabel('Request type').selectOption('container');
    await page.getByLabel('Numbers (one per line; paste many at once)').fill(target.number);
    await page.getByLabel('Shipping line (SCAC)').fill(target.scac);
    await page
      .getByRole('group', { name: 'Custom fields' })
      .getByLabel('PO number')
      .fill('PO-E2E-4471');
    await page.screenshot({ path: test.info().outputPath('track-form-custom-fields.png') });
    await page.getByRole('button', { name: 'Track', exact: true }).click();
    await expect(page.getByTestId('submitted-request')).toContainText(target.number);
    await expect(page.getByRole('alert')).toHaveCount(0);
    // The service looks the number up at the simulated line and creates the shipment.
    await expect
      .poll(
        async () => {
          const res = await fetch(
            `${service.baseUrl}/tracking_requests?filter[request_number]=${target.number}`,
            { headers: { Authorization: `Token ${service.apiKey}` } },
          );
          const body = (await res.json()) as {
            data: { attributes: { status: string; failed_reason: string | null } }[];
          };
          const a = body.data[0]?.attributes;
          return a ? `${a.status}${a.failed_reason ? ` (${a.failed_reason})` : ''}` : 'none';
        },
        { timeout: 120_000, intervals: [1_000] },
      )
      .toBe('created');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Containers' })
      .click();
    const columnsMenu = page.locator('summary', { hasText: 'Columns' });
    await columnsMenu.click();
    await page
      .getByRole('group', { name: 'Visible columns' })
      .getByRole('checkbox', { name: 'PO number' })
      .check();
    await columnsMenu.click();
    // The box may be a finished one of the simulated world's history.
    await page.getByRole('checkbox', { name: 'Show completed' }).check();
    await page.getByRole('searchbox', { name: 'Filter containers' }).fill('PO-E2E-4471');
    // The service creates the shipment, copies the PO onto it, and the next sync brings both.
    await expect
      .poll(
        async () => {
          const sync = page.getByRole('button', { name: 'Sync now' });
          if (await sync.isEnabled()) await sync.click();
          return boardCount(page);
        },
        { timeout: 180_000, intervals: [2_000] },
      )
      .toBe(1);
    const row = page.locator('[role=rowgroup].board__body [role=row]').first();
    await expect(row.locator('[data-col="number"]')).toHaveText(target.number);
    const cell = row.locator('[data-col="cf:po_number"] .custom-value');
    await expect(cell).toContainText('PO-E2E-4471');
    await expect(cell).toHaveAttribute('title', /shipment's value/);
  });
});
