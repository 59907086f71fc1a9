/**
 * The documents sync step against a misbehaving service: a real HTTP server on 127.0.0.1:0 that
 * answers /v2/documents with a malformed record, files of the wrong type, a file over the limit
 * and a download link to another host. Nothing of those reaches the cache's files.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentCache } from '../../../src/main/cache/document-cache';
import { V2Client } from '../../../src/main/sync/client';
import { syncDocuments } from '../../../src/main/sync/documents';
import { ScaledClock } from '../../../src/shared/clock';
import { MAX_DOCUMENT_BYTES } from '../../../src/shared/documents';

const PDF = Buffer.from('%PDF-1.7\n%%EOF\n');
const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

const doc = (n: number, attributes: Record<string, unknown> = {}) => ({
  type: 'document',
  id: id(n),
  attributes: {
    name: `Document ${n}`,
    file_name: `doc-${n}.pdf`,
    file_content_type: 'application/pdf',
    file_size_bytes: 1000,
    created_at: `2026-01-0${n}T00:00:00Z`,
    updated_at: `2026-01-0${n}T00:00:00Z`,
    extraction_status: 'extracted',
    document_type: 'arrival_notice',
    ...attributes,
  },
  relationships: {
    last_document_representation: { data: { type: 'document_representation', id: `r${n}` } },
    shipments: {
      data: [
        { type: 'shipment', id: 'ship-1' },
        { type: 'shipment', id: '../x' },
      ],
    },
  },
});

describe('documents sync step', () => {
  let server: Server;
  let origin = '';
  let dir: string;
  let listed: unknown[] = [];
  const downloads: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-docsync-'));
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', origin);
      const json = (body: unknown) => {
        response.writeHead(200, { 'Content-Type': 'application/vnd.api+json' });
        response.end(JSON.stringify(body));
      };
      if (url.pathname === '/v2/documents') {
        return json({
          data: listed,
          included: [
            {
              type: 'document_representation',
              id: 'r4',
              attributes: {
                payload: {
                  fields: {
                    container_numbers: [{ value: 'MSCU1234566', page: 2, confidence: 0.99 }],
                    bill_of_lading_number: { value: 'MEDUA1234567', page: 1, confidence: 0.9 },
                    carrier_scac: { value: 'MSCU', page: 1, confidence: 0.95 },
                  },
                  // A wrong check digit, reported by the service.
                  rejected: [{ value: 'MSCU1234567', page: 2, reason: 'check digit' }],
                },
              },
            },
          ],
          links: {},
          meta: { total: listed.length },
        });
      }
      const link = /^\/v2\/documents\/([\w-]+)\/download_url$/.exec(url.pathname);
      if (link) {
        const target = link[1] === id(2) ? 'http://127.0.0.2:9' : origin;
        return json({ download_url: `${target}/v2/files/${link[1]}` });
      }
      const file = /^\/v2\/files\/([\w-]+)$/.exec(url.pathname);
      if (file) {
        downloads.push(file[1]!);
        if (file[1] === id(1)) return response.end(Buffer.from('MZ a program'));
        if (file[1] === id(6)) {
          // Streamed without a length: the limit is enforced while reading.
          response.writeHead(200, { 'Content-Type': 'application/pdf' });
          const chunk = Buffer.alloc(1024 * 1024, 0x20);
          response.write(PDF);
          let sent = 0;
          const more = (): void => {
            while (sent < 21 && !response.destroyed) {
              sent++;
              if (!response.write(chunk)) {
                response.once('drain', more);
                return;
              }
            }
            response.end();
          };
          response.on('error', () => undefined);
          return more();
        }
        return response.end(PDF);
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores valid documents, keeps only genuine files within the limit, and forgets removed ones', async () => {
    listed = [
      doc(1), // its file is a program
      doc(2), // its link points at another host
      { type: 'document', id: id(3), attributes: { name: 'no date' } }, // malformed
      doc(4), // fine
      doc(5, { file_size_bytes: MAX_DOCUMENT_BYTES + 1 }), // over the limit: never fetched
      doc(6), // streams past the limit
    ];
    const cache = DocumentCache.open(dir);
    const client = new V2Client({ baseUrl: `${origin}/v2`, apiKey: 'k', clock: new ScaledClock() });
    try {
      const outcome = await syncDocuments(client, cache, '2026-01-10T00:00:00Z', null);
      expect(outcome.documents).toBe(5);
      expect(outcome.downloaded).toBe(1);
      const reasons = new Map(outcome.skipped.map((s) => [s.id, s.reason]));
      expect(reasons.get(id(1))).toMatch(/not a PDF, PNG or JPEG/);
      expect(reasons.get(id(2))).toMatch(/another host/);
      expect(reasons.get(id(3))).toMatch(/not a readable document/);
      expect(reasons.get(id(6))).toMatch(/too large/);
      expect(downloads).not.toContain(id(5));

      const stored = cache.list();
      expect(stored.map((d) => d.id).sort()).toEqual([id(1), id(2), id(4), id(5), id(6)]);
      expect(stored.filter((d) => d.fileCached).map((d) => d.id)).toEqual([id(4)]);
      expect(statSync(cache.filePath(id(4))).mode & 0o777).toBe(0o600);
      const four = cache.get(id(4))!;
      expect(four.shipmentIds).toEqual(['ship-1']);
      expect(four.carrierScac).toBe('MSCU');
      expect(four.numbers).toEqual([
        { kind: 'bill_of_lading', value: 'MEDUA1234567', page: 1, confidence: 0.9, problem: null },
        { kind: 'container', value: 'MSCU1234566', page: 2, confidence: 0.99, problem: null },
        {
          kind: 'container',
          value: 'MSCU1234567',
          page: 2,
          confidence: 0,
          problem: expect.stringMatching(/check digit/i) as string,
        },
      ]);
      // Found by its bill of lading or a valid container, never by the wrong number.
      expect(cache.forShipment('other', ['MSCU1234566']).map((d) => d.id)).toEqual([id(4)]);
      expect(cache.forShipment('other', ['MSCU1234567'])).toEqual([]);

      // A document the service no longer lists goes, with its file.
      listed = [doc(1)];
      await syncDocuments(client, cache, '2026-01-11T00:00:00Z', null);
      expect(cache.list().map((d) => d.id)).toEqual([id(1)]);
      expect(cache.hasFile(id(4))).toBe(false);
    } finally {
      cache.close();
    }
  });
});
