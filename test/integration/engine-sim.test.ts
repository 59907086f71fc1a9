/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * The service with the simulated world beside it (real HTTP and TCP on loopback, one
 * ManualClock): a tracking request for a number the world knows reaches `created`, and as time
 * moves the container's events, status, ETA and LFD follow the world through the public API.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedService, type EmbeddedService } from '../../src/embedded/service-with-world';
import { testDatabase } from '../support/store-kinds';
import { ManualClock } from '../../src/shared/clock';

const HOUR = 3600_000;
const SEED = 7;

let embedded: EmbeddedService;
let clock: ManualClock;
let dataDir: string;

async function api(pathAndQuery: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(embedded.baseUrl + pathAndQuery, {
    ...init,
    headers: {
      Authorization: `Token ${embedded.apiKey}`,
      'Content-Type': 'application/vnd.api+json',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const body = (await res.json()) as any;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function step(ms: number): Promise<void> {
  clock.advance(ms);
  await embedded.service.engine!.drain();
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-sim-it-'));
  clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  embedded = await startEmbeddedService({
    dataDir,
    database: await testDatabase(),
    port: 0,
    seed: SEED,
    clock,
    seedDemo: false,
  });
});

afterAll(async () => {
  await embedded?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('service + simulated world', () => {
  it('tracks a bill of lading from sea to availability as the world dictates', async () => {
    const world = embedded.sim.world;
    const shipment = world.model.shipments.find((s) => s.story.startsWith('Arriving within a day'));
    expect(shipment).toBeDefined();
    const box = shipment!.containers[0]!.number;

    const created = await api('/tracking_requests', {
      method: 'POST',
      body: JSON.stringify({
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: shipment!.billOfLading,
            scac: shipment!.scac,
          },
        },
      }),
    });
    await step(1000);
    const request = await api(`/tracking_requests/${created.data.id}`);
    expect(request.data.attributes.status).toBe('created');
    const shipmentId = request.data.relationships.tracked_object.data.id;

    const findBox = async () => {
      const doc = await api(`/shipments/${shipmentId}?include=containers`);
      return (doc.included as any[]).find(
        (r) => r.type === 'container' && r.attributes.number === box,
      );
    };
    let container = await findBox();
    expect(container.attributes.current_status).toBe('on_ship');
    let s = (await api(`/shipments/${shipmentId}`)).data.attributes;
    expect(s.pod_eta_at).not.toBeNull();
    expect(s.pod_original_eta_at).not.toBeNull();
    expect(s.pol_atd_at).not.toBeNull();
    // What the real service's records carry besides the reference's list: the box's dates at the
    // port of loading and the first departure estimate, from the line's events; what no feed
    // reports is null.
    expect(container.attributes.pol_vessel_loaded_at).not.toBeNull();
    expect(container.attributes.pol_vessel_departed_at).toBe(s.pol_atd_at);
    expect(s.pol_original_etd_at).not.toBeNull();
    expect(container.attributes).toMatchObject({
      delivered_at: null,
      ind_facility_holds: null,
      ind_facility_fees: null,
      rail_last_tracking_request_at: null,
    });

    // Hour by hour until the world has the box discharged and the terminal has answered.
    let story = world.containerStory(box)!;
    for (let i = 0; i < 120 && !['discharged', 'available'].includes(story.stage); i++) {
      await step(HOUR);
      story = world.containerStory(box)!;
    }
    await step(HOUR);
    container = await findBox();
    s = (await api(`/shipments/${shipmentId}`)).data.attributes;
    expect(s.pod_ata_at).not.toBeNull();
    expect(container.attributes.pod_discharged_at).not.toBeNull();
    // The port of discharge lists its terminals, the box's among them.
    const podId = (await api(`/shipments/${shipmentId}`)).data.relationships.port_of_discharge.data
      .id as string;
    const podTerminals = (await api(`/ports/${podId}`)).data.relationships.terminals.data;
    expect(podTerminals.map((t: any) => t.id)).toContain(
      container.relationships.pod_terminal.data.id,
    );

    const terminal = world.terminalStatus(box)!;
    expect(terminal).not.toBeNull();
    expect(container.attributes.available_for_pickup).toBe(terminal.available_for_pickup);
    expect(container.attributes.current_status).toBe(
      terminal.available_for_pickup ? 'available' : 'not_available',
    );
    expect(container.attributes.import_deadlines.pickup_lfd_terminal).toBe(
      terminal.last_free_day === null ? null : new Date(terminal.last_free_day).toISOString(),
    );
    expect(container.attributes.holds_at_pod_terminal.map((h: any) => h.name).sort()).toEqual(
      terminal.holds
        .filter((h) => h.status !== 'released')
        .map((h) => h.name)
        .sort(),
    );
    const lfd = container.attributes.pickup_lfd;
    const coalesced =
      container.attributes.import_deadlines.pickup_lfd_line ??
      container.attributes.import_deadlines.pickup_lfd_terminal;
    expect(lfd).toBe(coalesced);

    const events = await api(`/containers/${container.id}/transport_events`);
    const names = (events.data as any[]).map((e) => e.attributes.event);
    expect(names).toEqual(
      expect.arrayContaining([
        'container.transport.vessel_arrived',
        'container.transport.vessel_discharged',
      ]),
    );
    // One record per milestone although line and terminal both report the discharge.
    expect(names.filter((n) => n === 'container.transport.vessel_discharged')).toHaveLength(1);

    // The AIS stream fed vessel positions into the store.
    const stats = embedded.service.engine!.stats();
    expect(stats.ais?.positionsAccepted).toBeGreaterThan(0);
    expect(stats.positionsStored).toBeGreaterThan(0);
  }, 30_000);
});
