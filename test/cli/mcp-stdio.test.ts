/* eslint-disable @typescript-eslint/no-explicit-any -- tool answers are untyped JSON */
/**
 * `quayside mcp` spawned from source and driven by the official SDK's stdio client: it answers
 * from a data folder synced from a real service, after that service has stopped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSyncCommand } from '../../src/main/sync/command';
import { QUAYSIDE_TOOL_NAMES, T49_TOOL_NAMES } from '../../src/shared/mcp/tools';
import { seedShipment, startTestService } from '../support/service';
import { BIN } from '../support/cli';
import { callTool as call } from '../support/mcp-client';

describe('quayside mcp (stdio, from the desktop cache)', () => {
  let dataDir: string;
  let client: Client;
  let mine: Awaited<ReturnType<typeof seedShipment>>;
  let theirs: Awaited<ReturnType<typeof seedShipment>>;
  let syncedAt: string;

  beforeAll(async () => {
    const t = await startTestService();
    mine = await seedShipment(t, t.accountA, 'MEDUAA0001');
    theirs = await seedShipment(t, t.accountB, 'MEDUBB0002');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-mcp-'));
    const before = new Date().toISOString();
    await runSyncCommand({
      baseUrl: t.baseUrl,
      apiKey: t.keyA,
      dataDir,
      out: new PassThrough(),
    });
    syncedAt = before;
    // Offline from here on: the service is gone.
    await t.close();
    client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--data-dir', dataDir],
        stderr: 'pipe',
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every tool', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of [...T49_TOOL_NAMES, ...QUAYSIDE_TOOL_NAMES]) expect(names).toContain(name);
  });

  it("answers from the cache with the service stopped, as of the last sync, only the synced account's data", async () => {
    const container = mine.containers[0]!;
    const search = await call(client, 'search_container', { query: container.number });
    expect(search.body.source).toBe('desktop cache');
    expect(search.body.as_of >= syncedAt).toBe(true);
    expect(search.body.containers.map((c: any) => c.container_number)).toEqual([container.number]);

    const detail = await call(client, 'get_container', { id: container.id });
    expect(detail.body.container).toMatchObject({
      holds: ['Customs'],
      bill_of_lading: 'MEDUAA0001',
    });
    const shipment = await call(client, 'get_shipment_details', { id: mine.shipment.id });
    expect(shipment.body.containers).toHaveLength(2);
    const events = await call(client, 'get_container_transport_events', { id: container.id });
    expect(events.body.total_events).toBe(2);
    const route = await call(client, 'get_container_route', { id: container.id });
    expect(route.body.route_locations[1].locode).toBe('USLAX');
    const containers = await call(client, 'list_containers', { carrier: 'MSCU' });
    expect(containers.body.meta.total).toBe(2);
    const shipments = await call(client, 'list_shipments', { port: 'USLAX' });
    expect(shipments.body.items.map((s: any) => s.bill_of_lading)).toEqual(['MEDUAA0001']);
    const lines = await call(client, 'get_supported_shipping_lines', { search: 'MSCU' });
    expect(lines.body.total_lines).toBeGreaterThan(0);
    const lfds = await call(client, 'list_last_free_days', {
      from: '2026-01-25',
      to: '2026-01-25',
    });
    expect(lfds.body.meta.total).toBe(2);
    const holds = await call(client, 'list_holds_and_fees', {});
    expect(holds.body.with_holds).toBe(2);
    const worklist = await call(client, 'get_worklist', {});
    expect(worklist.body.complete).toBe(true);
    const money = await call(client, 'get_money_at_risk', {});
    expect(money.body).toHaveProperty('totals');
    const documents = await call(client, 'list_documents', {});
    // This folder was filled by `quayside sync`, which keeps no documents.
    expect(documents).toMatchObject({ isError: true });
    expect(documents.text).toMatch(/No documents are available from the desktop cache/);
    const fields = await call(client, 'list_custom_fields', {});
    expect(fields.body.fields).toEqual([]);
    const requests = await call(client, 'list_tracking_requests', {});
    expect(requests).toMatchObject({ isError: true });
    expect(requests.text).toMatch(/not kept in the desktop cache/);

    expect((await call(client, 'get_container', { id: theirs.containers[0]!.id })).isError).toBe(
      true,
    );
    expect(
      (await call(client, 'search_container', { query: 'MEDUBB0002' })).body.total_results,
    ).toBe(0);
  });

  it('rejects bad arguments, and says plainly that tracking is unavailable offline', async () => {
    expect((await call(client, 'get_container', { id: 'x' })).isError).toBe(true);
    expect((await call(client, 'list_shipments', { port: 'Los Angeles' })).isError).toBe(true);
    const track = await call(client, 'track_container', { number: 'MSCU1234566', scac: 'MSCU' });
    expect(track.isError).toBe(true);
    expect(track.text).toMatch(/reads the desktop cache only/);
    const typo = await call(client, 'track_container', { number: 'MSCU 123456-0' });
    expect(typo.text).toMatch(/check digit/i);
  });
});
