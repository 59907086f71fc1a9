/**
 * Installed, not checked out: `npm pack` (which builds), the tarball installed into an empty
 * folder from the npm registry (the local npm cache first), and `quayside serve --sim` run from
 * a third folder. Every documented read of /v2 must answer as the checkout's own command does,
 * the route map (a worker thread) included. Minutes of work: run it with `npm run test:installed`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveCli, type ServingCli } from '../support/cli';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MINUTES = 60_000;

interface Served {
  cli: ServingCli;
  apiKey: string;
}

let work: string;
const running: ServingCli[] = [];

async function serveSim(bin: string | undefined, cwd: string, dataDir: string): Promise<Served> {
  const cli = await serveCli(['--sim', '--data-dir', dataDir], {}, { bin, cwd });
  running.push(cli);
  const apiKey = /API key: (\S+)/.exec(cli.output())?.[1];
  if (!apiKey) throw new Error(`no API key in the output:\n${cli.output()}`);
  return { cli, apiKey };
}

const get = (served: Served, url: string) =>
  fetch(`${served.cli.baseUrl}${url}`, { headers: { Authorization: `Token ${served.apiKey}` } });

/** The first record of a collection, if it lists any. */
async function firstRecord(
  served: Served,
  collection: string,
): Promise<Record<string, unknown> | undefined> {
  const res = await get(served, `/${collection}?page[size]=1`);
  const body = (await res.json().catch(() => ({}))) as { data?: Record<string, unknown>[] };
  return Array.isArray(body.data) ? body.data[0] : undefined;
}

/** The first container, once the simulated world's demo shipments have landed. */
async function firstContainer(served: Served): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10 * MINUTES;
  for (;;) {
    const container = await firstRecord(served, 'containers');
    if (container) return container;
    if (Date.now() > deadline) throw new Error('no container after 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** `/containers/{id}/map_geojson` with the served record's id (or attribute) for each parameter. */
async function concretePath(served: Served, template: string): Promise<string | null> {
  let url = '';
  const segments = template.split('/').filter(Boolean);
  for (const [i, segment] of segments.entries()) {
    const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!parameter) {
      url += `/${segment}`;
      continue;
    }
    const record = await firstRecord(served, segments[i - 1]!);
    const attributes = (record?.attributes ?? {}) as Record<string, unknown>;
    const value = parameter === 'id' ? record?.id : attributes[parameter];
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    url += `/${encodeURIComponent(String(value))}`;
  }
  return url;
}

/** Status of every documented GET, by its path template (-1: no record to ask about). */
async function readStatuses(served: Served): Promise<Record<string, number>> {
  const doc = (await (await get(served, '/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const statuses: Record<string, number> = {};
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!item.get) continue;
    const url = await concretePath(served, template);
    statuses[template] = url === null ? -1 : (await get(served, url)).status;
  }
  return statuses;
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-installed-'));
  const packDir = path.join(work, 'pack');
  fs.mkdirSync(packDir);
  await run(npm, ['pack', '--pack-destination', packDir], {
    cwd: repoRoot,
    timeout: 10 * MINUTES,
  });
  const tarball = path.join(
    packDir,
    fs.readdirSync(packDir).find((f) => f.endsWith('.tgz'))!,
  );
  const appDir = path.join(work, 'app');
  fs.mkdirSync(appDir);
  fs.writeFileSync(path.join(appDir, 'package.json'), '{ "private": true }\n');
  // better-sqlite3 may compile here (its prebuilt download is outside the npm registry).
  await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: appDir,
    timeout: 15 * MINUTES,
  });
});

afterAll(async () => {
  await Promise.all(running.map((cli) => cli.stop()));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

it('installed without sources or tsx, serve --sim from another folder answers every read as the checkout does', async () => {
  const installedRoot = path.join(work, 'app', 'node_modules', 'quayside');
  expect(fs.existsSync(path.join(installedRoot, 'out', 'main', 'cli.js'))).toBe(true);
  expect(fs.existsSync(path.join(installedRoot, 'src'))).toBe(false);
  expect(fs.existsSync(path.join(work, 'app', 'node_modules', 'tsx'))).toBe(false);

  // What `npx quayside` runs: the installed command's bin link, started from an unrelated folder.
  const elsewhere = path.join(work, 'elsewhere');
  fs.mkdirSync(elsewhere);
  const installedBin = path.join(work, 'app', 'node_modules', '.bin', 'quayside');
  const installed = await serveSim(installedBin, elsewhere, path.join(work, 'installed-data'));
  const checkout = await serveSim(undefined, repoRoot, path.join(work, 'checkout-data'));

  const container = await firstContainer(installed);
  await firstContainer(checkout);
  const map = await get(installed, `/containers/${String(container.id)}/map_geojson`);
  expect(map.status, await map.clone().text()).toBe(200);
  expect(((await map.json()) as { type?: string }).type).toBe('FeatureCollection');

  const fromInstalled = await readStatuses(installed);
  const fromCheckout = await readStatuses(checkout);
  expect(Object.keys(fromInstalled).length).toBeGreaterThan(30);
  expect(fromInstalled).toEqual(fromCheckout);
  expect(Object.values(fromInstalled).filter((status) => status >= 500)).toEqual([]);
});
