import net from 'node:net';
import AisDecoderModule from 'ais-stream-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { startSimWorld, World, type RunningSimWorld } from '../../src/sim';
import { AIS_INTERVAL_MS, HARBOUR_CRAFT, sentencesForTick } from '../../src/sim/ais/server';
import { nmeaChecksum } from '../../src/sim/ais/nmea';
import { HOUR } from '../../src/sim/time';

// The package is CommonJS with a `default` export; unwrap it the same way under any interop.
const AisDecoder = ((AisDecoderModule as unknown as { default?: typeof AisDecoderModule })
  .default ?? AisDecoderModule) as typeof AisDecoderModule;

interface Decoded {
  type: number;
  mmsi: number;
  lat?: number;
  lon?: number;
  speedOverGround?: number;
  imo?: number;
  name?: string;
  destination?: string;
}

function decode(lines: string[]): Decoded[] {
  const decoder = new AisDecoder({ silent: true });
  const out: Decoded[] = [];
  decoder.on('data', (m: string | Decoded) =>
    out.push(typeof m === 'string' ? (JSON.parse(m) as Decoded) : m),
  );
  for (const l of lines) decoder.write(l);
  return out;
}

const checksumOk = (line: string): boolean => {
  const m = /^!(.*)\*([0-9A-F]{2})$/.exec(line);
  return !!m && nmeaChecksum(m[1]!) === m[2];
};

const START = Date.UTC(2026, 2, 10, 6, 7);
let clock: ManualClock;
let sim: RunningSimWorld;
let socket: net.Socket;
let received = '';

/** Waits until the socket has been quiet for a moment (data is written synchronously by the server). */
async function settle(): Promise<string[]> {
  let last = -1;
  while (last !== received.length) {
    last = received.length;
    await new Promise((r) => setTimeout(r, 60));
  }
  const lines = received.split('\r\n').filter(Boolean);
  received = '';
  return lines;
}

beforeAll(async () => {
  clock = new ManualClock(START);
  sim = await startSimWorld({ seed: 42, clock });
  socket = net.connect(sim.ais.port, sim.ais.host);
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  await new Promise((r) => socket.once('connect', r));
});
afterAll(async () => {
  socket.destroy();
  await sim.close();
});

describe('AIS over TCP', () => {
  it('greets a client with every vessel position and static data, decodable to the right MMSI and position', async () => {
    const lines = await settle();
    expect(lines.every((l) => l.startsWith('!AIVDM,') && checksumOk(l))).toBe(true);
    const messages = decode(lines);
    const vessels = sim.world.vessels();
    for (const { vessel, state } of vessels) {
      const pos = messages.find((m) => m.type === 1 && m.mmsi === Number(vessel.mmsi));
      expect(pos, vessel.name).toBeDefined();
      expect(pos!.lat!).toBeCloseTo(state.lat, 4);
      expect(pos!.lon!).toBeCloseTo(state.lon, 4);
      expect(pos!.speedOverGround!).toBeCloseTo(state.speedKnots, 0);
      const stat = messages.find((m) => m.type === 5 && m.mmsi === Number(vessel.mmsi));
      expect(stat?.imo, vessel.name).toBe(Number(vessel.imo));
      expect(stat?.name).toBe(vessel.name.slice(0, 20));
      expect(stat?.destination).toBe(state.nextPort);
    }
    for (const craft of HARBOUR_CRAFT)
      expect(messages.some((m) => m.type === 18 && m.mmsi === craft.mmsi)).toBe(true);
  });

  it('streams a report of every vessel each 15 simulated minutes as the clock moves', async () => {
    clock.advance(6 * HOUR);
    const lines = await settle();
    const messages = decode(lines);
    const ticks = 6 * (HOUR / AIS_INTERVAL_MS);
    const vesselCount = sim.world.vessels().length;
    const positions = messages.filter((m) => m.type === 1);
    // Every vessel each tick, less the occasional drop or outage.
    expect(positions.length).toBeGreaterThan(ticks * vesselCount * 0.85);
    expect(positions.length).toBeLessThanOrEqual(ticks * vesselCount);
    expect(messages.filter((m) => m.type === 18).length).toBeGreaterThan(0);
    expect(messages.filter((m) => m.type === 5).length).toBeGreaterThan(0);
    // The latest report of a vessel matches where the world says it is now.
    const { vessel, state } = sim.world
      .vessels()
      .find((v) => positions.some((p) => p.mmsi === Number(v.vessel.mmsi)))!;
    const latest = positions.filter((p) => p.mmsi === Number(vessel.mmsi)).at(-1)!;
    expect(Math.abs(latest.lat! - state.lat)).toBeLessThan(1);
  });
});

describe('AIS stream faults', () => {
  it('has gaps and corrupt sentences, identical for the same seed', () => {
    const a = new World(42, START);
    const b = new World(42, START);
    const first = Math.floor(START / AIS_INTERVAL_MS);
    const linesA = Array.from({ length: 96 }, (_, i) => sentencesForTick(a, first + i)).flat();
    const linesB = Array.from({ length: 96 }, (_, i) => sentencesForTick(b, first + i)).flat();
    expect(linesA).toEqual(linesB);
    const bad = linesA.filter(
      (l) =>
        !checksumOk(l) ||
        !/^!AIVDM,\d,\d,\d?,[AB],[0-9:;<=>?@A-W`a-w]+,[0-5]\*[0-9A-F]{2}$/.test(l),
    );
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.length).toBeLessThan(linesA.length * 0.05);
    const mmsis = a.vessels(START).map((v) => Number(v.vessel.mmsi));
    const perTick = Array.from(
      { length: 96 },
      (_, i) =>
        new Set(
          decode(sentencesForTick(a, first + i))
            .filter((m) => m.type === 1)
            .map((m) => m.mmsi),
        ),
    );
    const missed = perTick.reduce((n, seen) => n + mmsis.filter((m) => !seen.has(m)).length, 0);
    expect(missed).toBeGreaterThan(0);
  });
});
