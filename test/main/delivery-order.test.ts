/**
 * The delivery order through the desktop bridge: a real tracking service on 127.0.0.1:0, the
 * app's real cache files. Assign a trucker, make the order: the service keeps it as a document
 * of the shipment, the data folder has the PDF (its text checked), the cache what it said.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore } from '../../src/main/core/app-core';
import { FileSecretStore } from '../../src/main/core/secret-store';
import { JsonFileSettingsStore } from '../../src/main/settings/json-file-settings-store';
import { startService, type RunningService } from '../../src/service';
import type { BridgeReply } from '../../src/shared/bridge';
import { ScaledClock } from '../../src/shared/clock';
import type { TruckerRecord } from '../../src/shared/desktop';
import { seedShipment, type TestService } from '../support/service';

describe('delivery order through the desktop bridge', () => {
  let dir: string;
  let service: RunningService;
  let core: AppCore;
  const opened: string[] = [];
  const reply = (method: string, argument: unknown = null): Promise<BridgeReply> =>
    core.dispatch(method, argument);
  const call = async <T>(method: string, argument: unknown = null): Promise<T> => {
    const answer = await reply(method, argument);
    if (!answer.ok) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-order-'));
    service = await startService({
      dataDir: join(dir, 'service'),
      port: 0,
      smtpPort: 0,
      config: { requestsPerMinute: 10_000 },
    });
    core = new AppCore({
      appInfo: {
        name: 'Quayside',
        version: '0',
        shell: 'browser',
        platform: 'linux',
        dataDir: dir,
      },
      settingsStore: new JsonFileSettingsStore(dir),
      secretStore: new FileSecretStore(dir),
      embedded: { connection: () => ({ baseUrl: service.baseUrl, apiKey: service.initialKey! }) },
      clock: new ScaledClock(),
      openFile: async (path) => {
        opened.push(path);
        return '';
      },
    });
  });
  afterAll(async () => {
    core?.stop();
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
    const box = seeded.containers[0]!;
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
    expect(order.message).toMatch(/No outgoing mail server/);
    expect(order.fileName).toMatch(
      new RegExp(`^delivery-order-${box.number}-\\d{4}-\\d\\d-\\d\\d\\.pdf$`),
    );

    // The service lists it as a document of the shipment.
    const res = await fetch(`${service.baseUrl}/documents/${order.documentId}`, {
      headers: { Authorization: `Token ${service.initialKey!}` },
    });
    const doc = (await res.json()) as {
      data: { relationships: { shipments: { data: { id: string }[] } } };
    };
    expect(doc.data.relationships.shipments.data.map((s) => s.id)).toEqual([seeded.shipment.id]);

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
  });
});
