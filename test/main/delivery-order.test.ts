/**
 * The delivery order through the desktop bridge: a real tracking service on 127.0.0.1:0, the
 * app's real cache files. Assign a trucker, make the order: the service keeps it as a document
 * of the shipment with what it said, the data folder has the PDF (its text checked), the cache
 * what it said. A second desktop on the same service learns the order from its sync, and when
 * the terminal moves the LFD each desktop raises the one outdated-order alert.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core';
import { startService, type RunningService } from '../../src/service';
import type { BridgeReply } from '../../src/shared/bridge';
import type { AlertList, TruckerRecord } from '../../src/shared/desktop';
import { seedShipment, type TestService } from '../support/service';
import { applyFeedAnswer, harborTerminalAnswer } from '../support/feed-answers';
import { desktopOn } from '../support/app-core-options';

describe('delivery order through the desktop bridge', () => {
  let dir: string;
  let service: RunningService;
  let core: AppCore;
  /** A second desktop on the same service and account, with its own data folder. */
  let other: AppCore;
  let box: { id: string; number: string };
  let documentId: string;
  const opened: string[] = [];
  const on = async <T>(app: AppCore, method: string, argument: unknown = null): Promise<T> => {
    const answer: BridgeReply = await app.dispatch(method, argument);
    if (!answer.ok) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  };
  const call = <T>(method: string, argument: unknown = null): Promise<T> =>
    on<T>(core, method, argument);
  const desktop = (dataDir: string) => desktopOn(service, dataDir, { opened });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-order-'));
    service = await startService({
      dataDir: join(dir, 'service'),
      port: 0,
      smtpPort: 0,
      config: { requestsPerMinute: 10_000 },
    });
    core = desktop(dir);
    mkdirSync(join(dir, 'other'));
    other = desktop(join(dir, 'other'));
  });
  afterAll(async () => {
    await core?.stop();
    await other?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused until a trucker is assigned, then kept with the shipment, saved and opened', async () => {
    const account = (await service.store.accounts.primary())!;
    // The seeding helper needs only the service's store and a clock to step.
    const seeded = await seedShipment(
      { service, clock: { advance: () => undefined } } as unknown as TestService,
      account.id,
      'MEDU5500001',
    );
    box = seeded.containers[0]!;
    await call('syncNow');
    const refused = await call<{ ok: boolean; message: string }>('makeDeliveryOrder', {
      containerId: box.id,
    });
    expect(refused).toEqual({ ok: false, message: 'Assign a trucker first.' });

    const made = await call<{ ok: true; trucker: TruckerRecord }>('createTrucker', {
      companyName: 'Harbor Drayage',
      scac: 'HBDR',
      email: 'dispatch@harbor.test',
    });
    await call('assignTrucker', { containerIds: [box.id], truckerId: made.trucker.id });
    const order = await call<{
      ok: true;
      documentId: string;
      fileName: string;
      message: string;
    }>('makeDeliveryOrder', { containerId: box.id });
    expect(order.ok).toBe(true);
    documentId = order.documentId;
    expect(order.message).toMatch(/No outgoing mail server/);
    expect(order.fileName).toMatch(
      new RegExp(`^delivery-order-${box.number}-\\d{4}-\\d\\d-\\d\\d\\.pdf$`),
    );

    // The service lists it as a document of the shipment.
    const res = await fetch(`${service.baseUrl}/documents/${order.documentId}`, {
      headers: { Authorization: `Token ${service.initialKey!}` },
    });
    const doc = (await res.json()) as {
      data: {
        attributes: { delivery_order: Record<string, unknown> };
        relationships: { shipments: { data: { id: string }[] } };
      };
    };
    expect(doc.data.relationships.shipments.data.map((s) => s.id)).toEqual([seeded.shipment.id]);
    // With what it said: the service knows the order's trucker, LFD and holds.
    expect(doc.data.attributes.delivery_order).toMatchObject({
      container: { id: box.id, number: box.number },
      trucker: { id: made.trucker.id, name: 'Harbor Drayage' },
      last_free_day: { date: '2026-01-25', source: 'terminal' },
      holds: ['customs'],
    });

    // The data folder has the PDF, opened in the viewer, with the container's facts.
    const path = join(dir, 'documents', order.documentId);
    expect(opened).toEqual([path]);
    const text = (
      await extractText(await getDocumentProxy(new Uint8Array(readFileSync(path))), {
        mergePages: true,
      })
    ).text;
    for (const part of [box.number, 'MEDU5500001', 'Y258', 'Harbor Drayage (HBDR)', 'Customs']) {
      expect(text).toContain(part);
    }
    expect(text).toMatch(/25 Jan \(Terminal LFD\)/);
    // This terminal gave no pickup number: the order says so rather than leaving it blank.
    expect(text).toContain('Pickup number');
    expect(text).toContain('not given by the terminal');
  });

  it('a second desktop learns the order from its sync; an LFD the terminal moves is one alert on each', async () => {
    const outdated = async (app: AppCore) =>
      (await on<AlertList>(app, 'listAlerts', { limit: 500 })).alerts.filter(
        (a) => a.kind === 'delivery_order_outdated',
      );
    await on(other, 'syncNow');
    await call('syncNow');
    // Nothing changed yet: neither desktop alerts.
    expect(await outdated(other)).toEqual([]);
    expect(await outdated(core)).toEqual([]);

    // The terminal now says a day earlier, holds unchanged: the engine's apply step, as a feed.
    await applyFeedAnswer(service.store, box.id, {
      terminal: harborTerminalAnswer({
        last_free_day: '2026-01-24T08:00:00.000Z',
        available_for_pickup: false,
        holds: [{ name: 'customs', status: 'hold', description: null }],
      }),
    });
    for (const app of [other, core]) {
      await on(app, 'syncNow');
      const alerts = await outdated(app);
      expect(alerts.map((a) => a.body)).toEqual([
        expect.stringMatching(
          /^The delivery order sent to Harbor Drayage on .+ says 25 Jan(?: 2026)? \(Terminal LFD\); the terminal now says 24 Jan(?: 2026)? \(Terminal LFD\)\.$/,
        ),
      ]);
      expect(alerts[0]!.containerId).toBe(box.id);
      // Another run finds the same change: still one.
      await on(app, 'syncNow');
      expect(await outdated(app)).toHaveLength(1);
    }
    expect(documentId).toBeTruthy();
  });
});
