/**
 * AIS over TCP: streams NMEA 0183 AIVDM sentences of every vessel's position every 15 simulated
 * minutes (type 1 for the Class A container ships, type 18 for Class B harbour craft) and their
 * static data (type 5) every six simulated hours. Like a real feed it has holes: occasional missed
 * reports, vessels silent for a few hours, and corrupt sentences, all deterministic per seed.
 */
import net from 'node:net';
import type { Clock } from '../../shared/clock';
import { hashString, Rng } from '../prng';
import { port } from '../reference';
import { HOUR, MINUTE } from '../time';
import type { World } from '../world/world';
import { encodeType1, encodeType18, encodeType5, toSentences, type PositionReport } from './nmea';

export const AIS_INTERVAL_MS = 15 * MINUTE;
const STATIC_EVERY_TICKS = 24;

export interface AisFaults {
  /** Share of single position reports that are not received. */
  dropRate: number;
  /** Share of 4-hour blocks in which a vessel is silent. */
  outageRate: number;
  /** Share of sentences that arrive damaged. */
  corruptRate: number;
}

export const DEFAULT_AIS_FAULTS: AisFaults = {
  dropRate: 0.03,
  outageRate: 0.03,
  corruptRate: 0.01,
};

/** Small harbour craft carry Class B transponders; they circle near their home port. */
export const HARBOUR_CRAFT = [
  { mmsi: 366998110, name: 'SAN PEDRO PILOT 3', home: 'USLAX', offset: [0.02, -0.03] },
  { mmsi: 367554320, name: 'NEWARK BAY TENDER', home: 'USNYC', offset: [0.03, -0.04] },
  { mmsi: 244690123, name: 'HAVENDIENST 12', home: 'NLRTM', offset: [-0.02, 0.02] },
] as const;

export interface AisStation {
  mmsi: number;
  classB: boolean;
  report: PositionReport;
}

const fitted = (teu: number): { length: number; beam: number; draught: number } =>
  teu < 3000
    ? { length: 200, beam: 32, draught: 10.5 }
    : teu < 6000
      ? { length: 260, beam: 40, draught: 12.5 }
      : teu < 10000
        ? { length: 300, beam: 48, draught: 14 }
        : teu < 16000
          ? { length: 366, beam: 51, draught: 15.2 }
          : { length: 399, beam: 61, draught: 16 };

/** Every station's report at `at`. */
export function stationsAt(world: World, at: number): AisStation[] {
  const second = Math.floor(at / 1000) % 60;
  const ships: AisStation[] = world.vessels(at).map(({ vessel, state }) => ({
    mmsi: Number(vessel.mmsi),
    classB: false,
    report: {
      mmsi: Number(vessel.mmsi),
      lon: state.lon,
      lat: state.lat,
      speedKnots: state.speedKnots,
      courseDeg: state.courseDeg,
      headingDeg: state.inPort ? null : Math.round(state.courseDeg) % 360,
      second,
      navStatus: state.inPort ? 5 : 0,
    },
  }));
  const craft: AisStation[] = HARBOUR_CRAFT.map((c, i) => {
    const home = port(c.home);
    const angle = ((at / HOUR) * 0.9 + i) % (2 * Math.PI);
    return {
      mmsi: c.mmsi,
      classB: true,
      report: {
        mmsi: c.mmsi,
        lon: home.longitude + c.offset[0] + 0.012 * Math.cos(angle),
        lat: home.latitude + c.offset[1] + 0.009 * Math.sin(angle),
        speedKnots: 6,
        courseDeg: (((((angle + Math.PI / 2) * 180) / Math.PI) % 360) + 360) % 360,
        headingDeg: null,
        second,
      },
    };
  });
  return [...ships, ...craft];
}

function staticSentences(world: World, at: number, mmsi: number, seq: number): string[] {
  const entry = world.vessels(at).find((v) => Number(v.vessel.mmsi) === mmsi);
  if (!entry) return [];
  const { vessel, state } = entry;
  const size = fitted(vessel.teu);
  const callSign = `${String.fromCharCode(65 + (hashString(vessel.imo) % 26))}${vessel.mmsi.slice(3, 7)}`;
  const enc = encodeType5({
    mmsi,
    imo: Number(vessel.imo),
    callSign,
    name: vessel.name,
    shipType: 71,
    lengthM: size.length,
    beamM: size.beam,
    draughtM: size.draught,
    destination: state.nextPort,
    eta: new Date(state.nextEta),
  });
  return toSentences(enc.payload, enc.fillBits, { sequenceId: seq });
}

function positionSentences(s: AisStation, channel: 'A' | 'B'): string[] {
  const enc = s.classB ? encodeType18(s.report) : encodeType1(s.report);
  return toSentences(enc.payload, enc.fillBits, { channel });
}

/** Damages a sentence the way noisy reception does: a wrong checksum or a cut-off payload. */
function corrupt(sentence: string, rng: Rng): string {
  if (rng.chance(0.5)) {
    const star = sentence.lastIndexOf('*');
    const wrong = ((parseInt(sentence.slice(star + 1), 16) + 1 + rng.int(0, 200)) % 256)
      .toString(16)
      .toUpperCase()
      .padStart(2, '0');
    return `${sentence.slice(0, star + 1)}${wrong}`;
  }
  return sentence.slice(0, Math.max(10, Math.floor(sentence.length * rng.range(0.3, 0.8))));
}

/**
 * The sentences broadcast at tick `tick` (instant tick * 15 min), with drops, outages and damage
 * applied. Pure: the same world and tick give the same lines.
 */
export function sentencesForTick(
  world: World,
  tick: number,
  faults: AisFaults = DEFAULT_AIS_FAULTS,
): string[] {
  const at = tick * AIS_INTERVAL_MS;
  const rng = new Rng(`${world.seed}:ais:${tick}`);
  const lines: string[] = [];
  stationsAt(world, at).forEach((station, i) => {
    const outage = new Rng(
      `${world.seed}:ais-outage:${station.mmsi}:${Math.floor(tick / 16)}`,
    ).chance(faults.outageRate);
    const dropped = rng.chance(faults.dropRate);
    if (!outage && !dropped) lines.push(...positionSentences(station, tick % 2 ? 'B' : 'A'));
    if (!station.classB && (tick + i * 7) % STATIC_EVERY_TICKS === 0 && !outage) {
      lines.push(...staticSentences(world, at, station.mmsi, tick + i));
    }
  });
  return lines.map((l) => (rng.chance(faults.corruptRate) ? corrupt(l, rng) : l));
}

/** A clean snapshot (positions and static data) sent to each client when it connects. */
export function snapshotSentences(world: World, at: number): string[] {
  return stationsAt(world, at).flatMap((s, i) => [
    ...positionSentences(s, 'A'),
    ...(s.classB ? [] : staticSentences(world, at, s.mmsi, i)),
  ]);
}

export interface AisServerOptions {
  world: World;
  clock: Clock;
  host: string;
  port?: number;
  faults?: AisFaults;
}

export interface AisServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startAisServer(opts: AisServerOptions): Promise<AisServer> {
  const { world, clock } = opts;
  const faults = opts.faults ?? DEFAULT_AIS_FAULTS;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    socket.write(snapshotSentences(world, clock.now()).join('\r\n') + '\r\n');
  });

  let cancel: (() => void) | null = null;
  let closed = false;
  const schedule = (): void => {
    if (closed) return;
    const now = clock.now();
    const nextTick = Math.floor(now / AIS_INTERVAL_MS) + 1;
    cancel = clock.setTimer(nextTick * AIS_INTERVAL_MS - now, () => {
      if (closed) return;
      // Nobody listening: nothing to compute (ticks are pure, so skipping changes nothing).
      if (sockets.size) {
        const lines = sentencesForTick(world, nextTick, faults);
        const text = lines.join('\r\n') + '\r\n';
        for (const s of sockets) s.write(text);
      }
      schedule();
    });
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host, () => resolve());
  });
  schedule();
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : 0;
  return {
    host: opts.host,
    port: boundPort,
    close: async () => {
      closed = true;
      cancel?.();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
