/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service';
import { ManualClock } from '../../../src/shared/clock';
import { emptyFeedsConfig } from '../../../src/service/feeds/runtime';
import { FIXTURE_REFERENCE_DIR } from '../../support/service';

let service: RunningService;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-test-numbers-'));
  service = await startService({
    dataDir,
    port: 0,
    clock: new ManualClock(Date.UTC(2026, 0, 10)),
    referenceDir: FIXTURE_REFERENCE_DIR,
    feeds: emptyFeedsConfig(),
  });
});
afterAll(async () => {
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(service.baseUrl + p, {
    method,
    headers: {
      Authorization: `Token ${service.initialKey}`,
      'Content-Type': 'application/vnd.api+json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

it.each([
  ['TEST-TR-SUCCEEDED', 'created', null],
  ['TEST-TR-FAILED', 'failed', 'not_found'],
])('%s with SCAC TEST ends %s through the API', async (number, status, reason) => {
  const created = await call('POST', '/tracking_requests', {
    data: {
      type: 'tracking_request',
      attributes: { request_type: 'bill_of_lading', request_number: number, scac: 'TEST' },
    },
  });
  expect(created.status).toBe(201);
  expect(created.body.data.attributes.status).toBe('pending');
  await service.engine!.drain();
  const got = await call('GET', `/tracking_requests/${created.body.data.id}`);
  expect(got.body.data.attributes.status).toBe(status);
  expect(got.body.data.attributes.failed_reason).toBe(reason);
});

it('refuses SCAC TEST for other numbers', async () => {
  const res = await call('POST', '/tracking_requests', {
    data: {
      type: 'tracking_request',
      attributes: { request_type: 'bill_of_lading', request_number: 'ABCD1234', scac: 'TEST' },
    },
  });
  expect(res.status).toBe(422);
});
