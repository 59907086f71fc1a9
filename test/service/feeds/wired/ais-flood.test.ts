/**
 * A standalone service with an AIS receiver on UDP (from its feeds file) under a bounded flood of
 * garbage datagrams: every bad one is counted as rejected in /metrics, a good report between them
 * is still decoded, and the API keeps answering.
 */
import { createSocket } from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../../src/service';
import { parseFeedsConfig } from '../../../../src/service/feeds/config';
import { type1 } from '../../../support/nmea-encoder';

const GARBAGE = 2_000;
let service: RunningService;
let dataDir: string;
let port: number;
const sender = createSocket('udp4');

/** A UDP port free right now on loopback (bound, read, released). */
async function freeUdpPort(): Promise<number> {
  const probe = createSocket('udp4');
  await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', resolve));
  const { port: free } = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}

const send = (text: string) =>
  new Promise<void>((resolve, reject) =>
    sender.send(Buffer.from(text, 'latin1'), port, '127.0.0.1', (err) =>
      err ? reject(err) : resolve(),
    ),
  );

async function metric(labels: string): Promise<number> {
  const text = await (await fetch(service.baseUrl.replace(/\/v2$/, '/metrics'))).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('quayside_ais_sentences_total{') && l.includes(labels));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

beforeAll(async () => {
  port = await freeUdpPort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-ais-flood-'));
  const feeds = parseFeedsConfig(
    { ais: [{ type: 'nmea_udp', host: '127.0.0.1', port }] },
    'feeds with an AIS receiver',
  );
  service = await startService({ dataDir, port: 0, feeds });
});
afterAll(async () => {
  sender.close();
  await service?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('counts a flood of garbage as rejected, still decodes a good report and keeps answering', async () => {
  const shapes = [
    'garbage',
    '!AIVDM,1,1,,A,zzz,0*00',
    `!AIVDM,2,1,7,A,${'0'.repeat(60)},0*5C`,
    '\u0000\u00ff'.repeat(200),
  ];
  for (let i = 0; i < GARBAGE; i++) {
    await send(`${shapes[i % shapes.length]}\n`);
    // Paced so the kernel's receive buffer, not the service, is never the limit.
    if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await send(
    `${type1({ mmsi: 366123456, lat: 33.7, lon: -118.2, sog: 12, cog: 90, heading: 90 })}\r\n`,
  );

  await expect
    .poll(() => metric('result="decoded"'), { timeout: 60_000, interval: 25 })
    .toBeGreaterThanOrEqual(1);
  expect(await metric('result="decoded"')).toBe(1);
  expect(await metric('result="rejected"')).toBe(GARBAGE);

  const lines = await fetch(`${service.baseUrl}/shipping_lines`, {
    headers: { Authorization: `Token ${service.initialKey}` },
  });
  expect(lines.status).toBe(200);
});
