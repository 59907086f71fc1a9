/**
 * A service killed while documents wait for extraction reads them after its restart: nothing
 * uploaded is left pending for ever.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src/service/store/db';
import { scannedArrivalNoticePng } from '../support/documents/scanned-page';
import { ARRIVAL } from '../support/documents/generated-pdfs';
import { serveCli } from '../support/cli';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-document-resume-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const statusOf = (id: string): string => {
  const db = new SQLite(path.join(dir, DATABASE_FILE), { readonly: true });
  try {
    const row = db.prepare('SELECT extraction_status FROM documents WHERE id = ?').get(id) as {
      extraction_status: string;
    };
    return row.extraction_status;
  } finally {
    db.close();
  }
};

it('extracts after a restart what a killed service left pending', async () => {
  const first = await serveCli(['--data-dir', dir]);
  const key = (await first.waitFor(/API key: (\S+)/))[1]!;
  const form = new FormData();
  form.append('file', new Blob([await scannedArrivalNoticePng()]), 'scan.png');
  const res = await fetch(`${first.baseUrl}/documents`, {
    method: 'POST',
    headers: { Authorization: `Token ${key}` },
    body: form,
  });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  // Killed while the scan is still being read (OCR takes about a second here).
  await first.kill();
  expect(statusOf(id)).toBe('pending');

  const second = await serveCli(['--data-dir', dir]);
  try {
    type Got = {
      data: { attributes: { extraction_status: string } };
      included?: {
        attributes: { payload: { fields: { bill_of_lading_number?: { value: string } } } };
      }[];
    };
    // Read once a second until extracted: on a busy machine the scan may take a minute, and
    // faster polling would run into the account's 100 requests a minute (a 429 reads as not yet).
    let got: Got | null = null;
    const status = async () => {
      const res = await fetch(
        `${second.baseUrl}/documents/${id}?include=last_document_representation`,
        { headers: { Authorization: `Token ${key}` } },
      );
      got = res.ok ? ((await res.json()) as Got) : null;
      return got?.data.attributes.extraction_status;
    };
    await expect.poll(status, { timeout: 100_000, interval: 1_000 }).toBe('extracted');
    expect(got!.included?.[0]?.attributes.payload.fields.bill_of_lading_number?.value).toBe(
      ARRIVAL.bl,
    );
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 120_000);
