import { createSocket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/shared/clock';
import { AisUdpListener } from '../../../../src/service/feeds/ais/udp';
import { AisVesselStore } from '../../../../src/service/feeds/ais/vessel-store';
import { type1 } from '../../../support/nmea-encoder';
import { until } from '../../../support/wait';

const listeners: AisUdpListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.stop()));
});

const sender = createSocket('udp4');
afterAll(() => sender.close());

function send(port: number, text: string, address = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) =>
    sender.send(Buffer.from(text, 'latin1'), port, address, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
}

const at = (lat: number, lon: number) => ({
  mmsi: 366123456,
  lat,
  lon,
  sog: 12,
  cog: 90,
  heading: 90,
});

describe('AIS over UDP', () => {
  it('decodes positions from datagrams and counts garbage without stopping', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 10));
    const listener = new AisUdpListener({ port: 0, host: '127.0.0.1' }, clock);
    listeners.push(listener);
    const port = await listener.start();
    await send(port, 'garbage\n!AIVDM,1,1,,A,zzz,0*00\n');
    await send(port, 'x'.repeat(10_000));
    await send(port, `${type1(at(33.7, -118.2))}\r\n`);
    await until(() => listener.store.latest('366123456') !== null);
    const stats = listener.stats();
    expect(stats.messagesDecoded).toBe(1);
    expect(stats.malformed + stats.badChecksum).toBeGreaterThanOrEqual(3);
    expect(listener.store.latest('366123456')?.lat).toBeCloseTo(33.7, 3);
  });

  it('merges several sources per MMSI into one store, newest report wins', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 10));
    const store = new AisVesselStore(clock);
    const a = new AisUdpListener({ port: 0, host: '127.0.0.1' }, clock, store);
    const b = new AisUdpListener({ port: 0, host: '127.0.0.1' }, clock, store);
    listeners.push(a, b);
    const [portA, portB] = await Promise.all([a.start(), b.start()]);
    await send(portA!, `${type1(at(33.7, -118.2))}\n`);
    await until(() => store.latest('366123456') !== null);
    clock.advance(60_000);
    await send(portB!, `${type1(at(33.8, -118.3))}\n`);
    await until(() => (store.latest('366123456')?.lat ?? 0) > 33.75);
    expect(store.latest('366123456')?.received_at).toBe(Date.UTC(2026, 2, 10) + 60_000);
  });

  /** This machine's IPv4 addresses other than loopback (what the network can send to). */
  const networkAddress = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

  it.skipIf(!networkAddress)(
    'listens on loopback only when the feeds file names no host',
    async () => {
      const clock = new ManualClock(Date.UTC(2026, 2, 10));
      // A fixed port is what a feeds file names; find a free one first.
      const probe = new AisUdpListener({ port: 0, host: '127.0.0.1' }, clock);
      const port = await probe.start();
      await probe.stop();
      const listener = new AisUdpListener({ port }, clock);
      listeners.push(listener);
      await listener.start();
      // Sent to the machine's network address first, then to loopback: only the second is heard.
      await send(port, `${type1({ ...at(10, 10), mmsi: 366000001 })}\n`, networkAddress);
      await send(port, `${type1({ ...at(20, 20), mmsi: 366000002 })}\n`);
      await until(() => listener.store.latest('366000002') !== null);
      expect(listener.store.latest('366000001')).toBeNull();
      expect(listener.datagrams).toBe(1);
    },
  );
});
