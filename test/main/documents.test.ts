/**
 * Documents on the desktop, end to end: a real tracking service on 127.0.0.1:0 extracting real
 * generated PDFs, the app's real cache files, the dispatcher exactly as both transports call it.
 */
import nodemailer from 'nodemailer';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScaledClock } from '../../src/shared/clock';
import { AppCore } from '../../src/main/core/app-core';
import { DocumentCache } from '../../src/main/cache/document-cache';
import { appCoreOptions, desktopOn } from '../support/app-core-options';
import { startService, type RunningService } from '../../src/service';
import type { BridgeReply, OpenDocumentResult, TrackNumberOutcome } from '../../src/shared/bridge';
import type { DocumentSummary } from '../../src/shared/documents';
import {
  ARRIVAL,
  WRONG,
  arrivalNotice,
  executable,
  wrongCheckDigit,
} from '../support/documents/generated-pdfs';
import { until } from '../support/wait';

describe('documents through the desktop bridge', () => {
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
  const upload = (fileName: string, bytes: Uint8Array) =>
    reply('uploadDocument', { fileName, dataBase64: Buffer.from(bytes).toString('base64') });

  /**
   * Asks the service until extraction has finished. The reader runs at the lowest priority: on a
   * busy machine a read takes many times its idle time, so only an outer limit bounds the wait.
   */
  async function extracted(id: string): Promise<DocumentSummary> {
    let doc: DocumentSummary | undefined;
    await until(
      async () => {
        doc = await call<DocumentSummary>('getDocument', { id, refresh: true });
        return doc.extractionStatus !== 'pending' && doc.extractionStatus !== 'processing';
      },
      110_000,
      100,
    );
    return doc!;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-docs-'));
    // Every test here syncs through the bridge within the same real minute: the per-account
    // request limit (tested in test/service/limits-reference.test.ts) is not what this file checks.
    service = await startService({
      dataDir: join(dir, 'service'),
      port: 0,
      smtpPort: 0,
      config: { requestsPerMinute: 10_000 },
    });
    core = desktopOn(service, dir, { opened });
  });
  afterAll(async () => {
    await core?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let arrivalId = '';

  it('uploads an arrival notice and shows its numbers with page and confidence', async () => {
    const answer = await upload('arrival notice.pdf', await arrivalNotice());
    expect(answer.ok).toBe(true);
    arrivalId = (answer as { result: DocumentSummary }).result.id;
    const doc = await extracted(arrivalId);
    expect(doc.extractionStatus).toBe('extracted');
    expect(doc.documentType).toBe('arrival_notice');
    expect(doc.fileName).toBe('arrival notice.pdf');
    const containers = doc.numbers.filter((n) => n.kind === 'container');
    expect(containers.map((n) => n.value)).toEqual(ARRIVAL.containers);
    for (const n of containers) {
      expect(n.page).toBe(2);
      expect(n.confidence).toBeGreaterThan(0.5);
      expect(n.problem).toBeNull();
    }
    expect(doc.numbers.find((n) => n.kind === 'bill_of_lading')).toMatchObject({
      value: ARRIVAL.bl,
      page: 1,
    });
    // The uploaded bytes are kept: it opens before any sync.
    expect(doc.fileCached).toBe(true);
  });

  it('marks a wrong check digit and never tracks it', async () => {
    const answer = await upload('delivery order.pdf', await wrongCheckDigit());
    expect(answer.ok).toBe(true);
    const doc = await extracted((answer as { result: DocumentSummary }).result.id);
    const bad = doc.numbers.find((n) => n.value === WRONG.bad);
    expect(bad?.problem).toMatch(/check digit/i);
    expect(doc.numbers.find((n) => n.value === WRONG.good)?.problem).toBeNull();
    const { results } = await call<{ results: TrackNumberOutcome[] }>('trackDocumentNumbers', {
      id: doc.id,
      numbers: [WRONG.bad],
      scac: 'MSCU',
    });
    expect(results).toEqual([{ number: WRONG.bad, ok: false, message: bad!.problem }]);
  });

  it('refuses files that are not PDF, PNG or JPEG by their content, whatever the name', async () => {
    const answer = await upload('invoice.pdf', executable());
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.error.message).toMatch(/not a PDF, PNG or JPEG/);
    const bogus = await reply('uploadDocument', { fileName: 'x.pdf', dataBase64: 'not base64!' });
    expect(!bogus.ok && bogus.error.code).toBe('invalid_argument');
    // Nothing of the refused files reached the service.
    const { rows } = await call<{ rows: DocumentSummary[] }>('listDocuments');
    expect(rows.map((r) => r.fileName).sort()).toEqual([
      'arrival notice.pdf',
      'delivery order.pdf',
    ]);
  });

  it('tracks the selected numbers through the tracking-request path', async () => {
    const { results } = await call<{ results: TrackNumberOutcome[] }>('trackDocumentNumbers', {
      id: arrivalId,
      numbers: [ARRIVAL.bl],
    });
    expect(results).toEqual([{ number: ARRIVAL.bl, ok: true, message: 'Tracking requested.' }]);
    const requests = await call<{ rows: { number: string }[] }>('listTrackingRequests', {});
    expect(requests.rows.map((r) => r.number)).toContain(ARRIVAL.bl);
  });

  it('syncs documents into the cache with private files, and lists a shipment’s documents', async () => {
    const account = (await service.store.accounts.primary())!;
    const shipment = await service.store.tracking.createShipment(account.id, {
      billOfLadingNumber: ARRIVAL.bl,
      scac: 'MSCU',
    });
    // Forget the uploaded copies: the sync must bring both documents and their files.
    await call('clearCache');
    expect((await call<{ rows: DocumentSummary[] }>('listDocuments')).rows).toEqual([]);
    await call('syncNow');
    const { rows } = await call<{ rows: DocumentSummary[] }>('listDocuments');
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.fileCached)).toBe(true);
    const path = join(dir, 'documents', arrivalId);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path)).toEqual(Buffer.from(await arrivalNotice()));

    const forShipment = await call<DocumentSummary[]>('listShipmentDocuments', {
      shipmentId: shipment.id,
    });
    expect(forShipment.map((d) => d.id)).toEqual([arrivalId]);
  });

  it('opens the cached file, in the OS viewer or as an address for the tab', async () => {
    expect(await call<OpenDocumentResult>('openDocument', { id: arrivalId })).toEqual({
      opened: true,
    });
    expect(opened).toEqual([join(dir, 'documents', arrivalId)]);
    const missing = await reply('openDocument', { id: '00000000-0000-0000-0000-000000000000' });
    expect(!missing.ok && missing.error.message).toMatch(/not been downloaded/);
    const traversal = await reply('openDocument', { id: '../settings' });
    expect(!traversal.ok && traversal.error.code).toBe('invalid_argument');
  });

  it('offline: refuses uploads with a clear message, cached documents still open', async () => {
    const offlineDir = mkdtempSync(join(tmpdir(), 'quayside-docs-offline-'));
    // The synced cache of the first app, copied as it would be on a laptop gone offline.
    const source = DocumentCache.open(dir);
    const target = DocumentCache.open(offlineDir);
    for (const doc of source.list()) {
      target.upsert({ ...doc, updatedAt: null }, new Date().toISOString());
      target.writeFile(doc.id, readFileSync(source.filePath(doc.id)));
    }
    source.close();
    target.close();
    const offline = new AppCore({
      ...appCoreOptions(offlineDir),
      // Port 9 (discard), which fetch never connects to: the service cannot be reached.
      embedded: { connection: () => ({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: 'k' }) },
      clock: new ScaledClock(),
    });
    try {
      await offline.dispatch('syncNow', null);
      const refused = await offline.dispatch('uploadDocument', {
        fileName: 'arrival.pdf',
        dataBase64: Buffer.from(await arrivalNotice()).toString('base64'),
      });
      expect(!refused.ok && refused.error.message).toMatch(/offline.*Cached documents still open/);
      const open = await offline.dispatch('openDocument', { id: arrivalId });
      expect(open).toEqual({
        ok: true,
        result: { opened: false, url: `/documents/${arrivalId}/file` },
      });
    } finally {
      await offline.stop();
      rmSync(offlineDir, { recursive: true, force: true });
    }
  });

  it('lists a mailed document with its sender and subject after a sync', async () => {
    const settings = await fetch(`${service.baseUrl}/documents/settings`, {
      headers: { Authorization: `Token ${service.initialKey!}` },
    });
    const inbox = ((await settings.json()) as { data: { attributes: { inbox_address: string } } })
      .data.attributes.inbox_address;
    await nodemailer
      .createTransport({
        host: '127.0.0.1',
        port: service.smtpPort!,
        secure: false,
        ignoreTLS: true,
        connectionTimeout: 5000,
        greetingTimeout: 5000,
        socketTimeout: 10_000,
      })
      .sendMail({
        from: 'notices@line.example',
        to: inbox,
        subject: 'Arrival notice for your cargo',
        text: 'Attached.',
        attachments: [
          {
            filename: 'mailed-notice.pdf',
            content: Buffer.from(await arrivalNotice('MEDUA7654321')),
          },
        ],
      });
    await service.store.context.documents.service.idle();
    await call('syncNow');
    const { rows } = await call<{ rows: DocumentSummary[] }>('listDocuments');
    const mailed = rows.find((r) => r.fileName === 'mailed-notice.pdf');
    expect(mailed).toMatchObject({
      source: 'email',
      documentType: 'arrival_notice',
      email: { from: 'notices@line.example', subject: 'Arrival notice for your cargo' },
      fileCached: true,
    });
  });
});
