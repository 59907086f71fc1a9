/**
 * Liner services: each carrier runs a fixed port rotation with a few vessels spaced evenly around
 * it. Schedules repeat forever (any instant has a position), with occasional ETA slips that the
 * vessel makes up on the following leg.
 */
import type { VesselRecord } from '../../shared/reference-data';
import { port, VESSELS } from '../reference';
import { KM_PER_NM, positionAlong, seaRoute, type SeaRoute } from '../geo/searoutes';
import { Rng } from '../prng';
import { DAY, HOUR } from '../time';

export interface ServiceSpec {
  code: string;
  scac: string;
  name: string;
  rotation: string[];
  vessels: string[];
  /** Letter appended to voyage numbers, e.g. `E` for eastbound trans-Pacific loops. */
  bound: string;
}

export const SERVICE_SPECS: ServiceSpec[] = [
  {
    code: 'SWN',
    scac: 'MSCU',
    name: 'Swan',
    rotation: ['CNNGB', 'CNSHA', 'KRPUS', 'USLGB', 'USOAK'],
    vessels: ['MSC AURORA BAY', 'MSC CALLISTA', 'MSC ISABELLA V'],
    bound: 'E',
  },
  {
    code: 'AE1',
    scac: 'MSCU',
    name: 'Asia-North Europe 1',
    rotation: ['CNSHA', 'CNNGB', 'SGSIN', 'NLRTM', 'DEHAM', 'BEANR'],
    vessels: ['MSC TERESINA', 'MSC LORENZA', 'MSC RAFAELA'],
    bound: 'W',
  },
  {
    code: 'SGF',
    scac: 'MSCU',
    name: 'Singapore Feeder',
    rotation: ['SGSIN', 'THLCH', 'VNCMT'],
    vessels: ['SEAWAY CORAL'],
    bound: 'N',
  },
  {
    code: 'TP6',
    scac: 'MAEU',
    name: 'TP6',
    rotation: ['CNYTN', 'CNXMN', 'CNSHA', 'USLAX', 'USTIW'],
    vessels: ['MAERSK KALMAR SOUND', 'MAERSK HALDEN', 'MAERSK ESBJERG BAY'],
    bound: 'E',
  },
  {
    code: 'TA1',
    scac: 'MAEU',
    name: 'TA1',
    rotation: ['DEBRV', 'NLRTM', 'GBFXT', 'USNYC', 'USBAL', 'USORF'],
    vessels: ['MAERSK TAURANGA', 'MAERSK NORFOLK SOUND'],
    bound: 'W',
  },
  {
    code: 'PEX',
    scac: 'CMDU',
    name: 'Pacific Express',
    rotation: ['CNYTN', 'CNNGB', 'KRPUS', 'USSAV', 'USCHS', 'USNYC'],
    vessels: [
      'CMA CGM ORINOCO',
      'CMA CGM SAINT-MALO',
      'CMA CGM ANTIGONE',
      'CMA CGM TOCANTINS',
      'CMA CGM KESTREL',
    ],
    bound: 'E',
  },
  {
    code: 'AAC',
    scac: 'COSU',
    name: 'Asia America Central',
    rotation: ['CNSHA', 'CNNGB', 'USLGB', 'USSEA'],
    vessels: ['COSCO JADE HARBOUR', 'COSCO YELLOW RIVER', 'COSCO PEARL DELTA', 'COSCO HARMONY SEA'],
    bound: 'E',
  },
  {
    code: 'AL5',
    scac: 'HLCU',
    name: 'Atlantic Loop 5',
    rotation: ['DEHAM', 'NLRTM', 'BEANR', 'USNYC', 'USORF', 'USSAV', 'USCHS'],
    vessels: ['HAMBURG EXPRESS LINE', 'BERLIN TRADER', 'BREMEN TRADER', 'VALPARAISO EXPRESS'],
    bound: 'W',
  },
  {
    code: 'EC5',
    scac: 'ONEY',
    name: 'East Coast 5',
    rotation: ['SGSIN', 'LKCMB', 'USNYC', 'USBAL', 'USORF'],
    vessels: ['ONE HARMONIA', 'ONE MERIDIAN', 'ONE SAKURA BRIDGE', 'ONE INTEGRITY'],
    bound: 'W',
  },
  {
    code: 'TPS',
    scac: 'EGLV',
    name: 'Trans-Pacific South',
    rotation: ['TWKHH', 'HKHKG', 'CNYTN', 'USLAX', 'USOAK'],
    vessels: ['EVER GIVEN', 'EVER LUMINA', 'EVER TENACITY', 'EVER PAVILION', 'EVER GALLANT'],
    bound: 'E',
  },
  {
    code: 'PNW',
    scac: 'HDMU',
    name: 'Pacific Northwest',
    rotation: ['KRPUS', 'CNSHA', 'CNNGB', 'USTIW', 'USSEA'],
    vessels: ['HMM ALGECIRAS', 'HMM NURI HARBOR', 'HMM BLUE DAWN'],
    bound: 'E',
  },
  {
    code: 'PSX',
    scac: 'YMLU',
    name: 'Pacific South Express',
    rotation: ['TWKHH', 'CNSHA', 'USLGB', 'USOAK'],
    vessels: ['YM WELLSPRING', 'YM TRIUMPHAL', 'YM CONSTANCY'],
    bound: 'E',
  },
  {
    code: 'ZXB',
    scac: 'ZIMU',
    name: 'ZIM Express',
    rotation: ['CNSHA', 'KRPUS', 'JMKIN', 'USSAV', 'USCHS', 'USNYC'],
    vessels: ['ZIM SAPPHIRE COAST', 'ZIM KINGSTON GATE', 'ZIM CARMEL'],
    bound: 'E',
  },
  {
    code: 'PVS',
    scac: 'OOLU',
    name: 'Pacific Vessel Service',
    rotation: ['CNYTN', 'HKHKG', 'CNNGB', 'USLGB', 'USOAK'],
    vessels: ['OOCL ORCHID', 'OOCL VICTORIA PEAK', 'OOCL SHENZHEN BAY'],
    bound: 'E',
  },
  {
    code: 'AGI',
    scac: 'PABV',
    name: 'Asia Gulf India',
    rotation: ['SGSIN', 'MYPKG', 'INNSA', 'AEJEA'],
    vessels: ['KOTA RAHMAT', 'KOTA SEGAR', 'KOTA PUSAKA'],
    bound: 'W',
  },
  {
    code: 'JTV',
    scac: 'WHLC',
    name: 'Intra-Asia JTV',
    rotation: ['TWKHH', 'HKHKG', 'VNHPH', 'THLCH', 'SGSIN'],
    vessels: ['WAN HAI 617', 'WAN HAI 362', 'WAN HAI 509'],
    bound: 'S',
  },
  {
    code: 'CLX',
    scac: 'MATS',
    name: 'China-Long Beach Express',
    rotation: ['CNXMN', 'CNNGB', 'CNSHA', 'USLGB'],
    vessels: ['MATSON MANULANI', 'MATSON KAIMANA', 'MATSON KAUAI'],
    bound: 'E',
  },
  {
    code: 'EPS',
    scac: 'APLU',
    name: 'Eagle Pacific South',
    rotation: ['CNYTN', 'CNSHA', 'USLAX', 'USOAK'],
    vessels: ['APL VANGUARD STAR', 'APL PACIFIC GATE'],
    bound: 'E',
  },
  {
    code: 'SAE',
    scac: 'SUDU',
    name: 'South America Europe',
    rotation: ['BRSSZ', 'BRPNG', 'UYMVD', 'ARBUE', 'ESALG', 'NLRTM', 'DEHAM'],
    vessels: ['SANTA CRUZ SUR', 'CAP SAN TOMAS'],
    bound: 'N',
  },
  {
    code: 'CPX',
    scac: 'SMLM',
    name: 'China Pacific Express',
    rotation: ['CNSHA', 'KRPUS', 'USLGB', 'USOAK'],
    vessels: ['SM TACOMA', 'SM LONG BEACH'],
    bound: 'E',
  },
];

export interface CallTime {
  serviceCode: string;
  vesselIndex: number;
  cycle: number;
  callIndex: number;
  locode: string;
  plannedArrive: number;
  plannedDepart: number;
  arrive: number;
  depart: number;
  /** When the line learned of a slip at this call (null: on schedule). */
  slipKnownAt: number | null;
  voyage: string;
}

export interface VesselState {
  lon: number;
  lat: number;
  speedKnots: number;
  courseDeg: number;
  /** UN/LOCODE of the port the vessel is at, or null at sea. */
  inPort: string | null;
  nextPort: string;
  nextEta: number;
}

const portStayMs = (locode: string): number =>
  locode.startsWith('US') || ['NLRTM', 'DEHAM', 'BEANR', 'DEBRV'].includes(locode)
    ? 36 * HOUR
    : 22 * HOUR;

/** A late-running cycle (see Service.slip). */
export interface Slip {
  callIndex: number;
  ms: number;
  knownAt: number;
}

const MAX_KEPT_SLIPS = 10_000;

export class Service {
  readonly legs: SeaRoute[];
  readonly vessels: VesselRecord[];
  readonly speedKnots: number;
  readonly cycleMs: number;
  private readonly arriveOffset: number[] = [];
  private readonly departOffset: number[] = [];
  private readonly legMs: number[] = [];
  /**
   * Each cycle's slip, by vessel and cycle: a pure function of both, asked for by every call
   * time and vessel position; drawing it (a seeded generator) was most of a call time's cost.
   */
  private readonly slips = new Map<string, Slip | null>();

  constructor(
    readonly spec: ServiceSpec,
    /** Anchor instant of cycle 0 (a fixed distance before the world's origin). */
    private readonly anchor: number,
    private readonly seed: number,
  ) {
    this.vessels = spec.vessels.map((name) => {
      const v = VESSELS.find((x) => x.name === name);
      if (!v) throw new Error(`service ${spec.code}: unknown vessel ${name}`);
      return v;
    });
    // Slow steaming a little below the slowest ship's service speed, within 14-20 knots.
    this.speedKnots = Math.min(
      18.5,
      Math.max(15, Math.min(...this.vessels.map((v) => v.service_speed_knots)) * 0.92),
    );
    const n = spec.rotation.length;
    this.legs = spec.rotation.map((from, i) => {
      const to = spec.rotation[(i + 1) % n]!;
      const a = port(from);
      const b = port(to);
      return seaRoute([a.longitude, a.latitude], [b.longitude, b.latitude]);
    });
    let t = 0;
    for (let j = 0; j < n; j++) {
      this.arriveOffset.push(t);
      t += portStayMs(spec.rotation[j]!);
      this.departOffset.push(t);
      const ms = (this.legs[j]!.lengthKm / (this.speedKnots * KM_PER_NM)) * HOUR;
      this.legMs.push(ms);
      t += ms;
    }
    this.cycleMs = t;
  }

  get code(): string {
    return this.spec.code;
  }

  indexOf(locode: string): number {
    return this.spec.rotation.indexOf(locode);
  }

  private cycleStart(vesselIndex: number, cycle: number): number {
    return this.anchor + cycle * this.cycleMs + (vesselIndex * this.cycleMs) / this.vessels.length;
  }

  /** The cycle in which `vesselIndex` arrives at call `callIndex` nearest to `at`. */
  cycleNear(vesselIndex: number, callIndex: number, at: number): number {
    const base = this.cycleStart(vesselIndex, 0) + this.arriveOffset[callIndex]!;
    return Math.round((at - base) / this.cycleMs);
  }

  voyageNumber(cycle: number): string {
    return `${String((((cycle % 900) + 900) % 900) + 100)}${this.spec.bound}`;
  }

  /**
   * A slip on a vessel's cycle: from call `callIndex` on, every call is `ms` late, and the vessel
   * makes the time up on the last (long, return) leg of the cycle. `knownAt` is when the line hears.
   */
  slip(vesselIndex: number, cycle: number): Slip | null {
    const key = `${vesselIndex}:${cycle}`;
    let slip = this.slips.get(key);
    if (slip === undefined) {
      // A long run visits a few cycles a simulated month: the bound only stops a runaway.
      if (this.slips.size >= MAX_KEPT_SLIPS) this.slips.clear();
      slip = this.drawSlip(vesselIndex, cycle);
      this.slips.set(key, slip);
    }
    return slip;
  }

  private drawSlip(vesselIndex: number, cycle: number): Slip | null {
    const n = this.spec.rotation.length;
    if (n < 3) return null;
    const rng = new Rng(`${this.seed}:slip:${this.code}:${vesselIndex}:${cycle}`);
    if (!rng.chance(0.35)) return null;
    const callIndex = rng.int(1, n - 1);
    // Keep the slower and the faster leg within realistic speeds (about 8% either way).
    const maxMs = 0.08 * Math.min(this.legMs[callIndex - 1]!, this.legMs[n - 1]!);
    const ms = Math.min(maxMs, rng.range(10, 48) * HOUR);
    if (ms < 4 * HOUR) return null;
    const plannedArrive = this.cycleStart(vesselIndex, cycle) + this.arriveOffset[callIndex]!;
    const knownAt = plannedArrive - rng.range(1.5, 5) * DAY;
    return { callIndex, ms, knownAt };
  }

  call(vesselIndex: number, cycle: number, callIndex: number): CallTime {
    const start = this.cycleStart(vesselIndex, cycle);
    const plannedArrive = start + this.arriveOffset[callIndex]!;
    const plannedDepart = start + this.departOffset[callIndex]!;
    const slip = this.slip(vesselIndex, cycle);
    const late = slip && callIndex >= slip.callIndex ? slip.ms : 0;
    return {
      serviceCode: this.code,
      vesselIndex,
      cycle,
      callIndex,
      locode: this.spec.rotation[callIndex]!,
      plannedArrive,
      plannedDepart,
      arrive: plannedArrive + late,
      depart: plannedDepart + late,
      slipKnownAt: late ? slip!.knownAt : null,
      voyage: this.voyageNumber(cycle),
    };
  }

  /** The call after `c` in rotation order (wrapping into the next cycle). */
  nextCall(c: CallTime): CallTime {
    const n = this.spec.rotation.length;
    return c.callIndex + 1 < n
      ? this.call(c.vesselIndex, c.cycle, c.callIndex + 1)
      : this.call(c.vesselIndex, c.cycle + 1, 0);
  }

  /** Calls from `from` up to and including the first later call at `locode`. */
  callsUntil(from: CallTime, locode: string): CallTime[] {
    const out = [from];
    let c = from;
    for (let i = 0; i < this.spec.rotation.length; i++) {
      c = this.nextCall(c);
      out.push(c);
      if (c.locode === locode) return out;
    }
    throw new Error(`${this.code}: ${locode} not on the rotation`);
  }

  /** Where vessel `vesselIndex` is at instant `at`. */
  state(vesselIndex: number, at: number): VesselState {
    const base = this.cycleStart(vesselIndex, 0);
    let cycle = Math.floor((at - base) / this.cycleMs);
    let c = this.call(vesselIndex, cycle, 0);
    if (at < c.arrive) {
      cycle -= 1;
      c = this.call(vesselIndex, cycle, this.spec.rotation.length - 1);
    }
    for (;;) {
      const next = this.nextCall(c);
      if (at < c.depart) {
        const p = port(c.locode);
        return {
          lon: p.longitude,
          lat: p.latitude,
          speedKnots: 0,
          courseDeg: 0,
          inPort: c.locode,
          nextPort: next.locode,
          nextEta: next.arrive,
        };
      }
      if (at < next.arrive) {
        const leg = this.legs[c.callIndex]!;
        const fraction = (at - c.depart) / (next.arrive - c.depart);
        const pos = positionAlong(leg, fraction);
        const speedKnots = leg.lengthKm / KM_PER_NM / ((next.arrive - c.depart) / HOUR);
        return {
          lon: pos.lon,
          lat: pos.lat,
          speedKnots,
          courseDeg: pos.courseDeg,
          inPort: null,
          nextPort: next.locode,
          nextEta: next.arrive,
        };
      }
      c = next;
    }
  }
}
