/**
 * An NMEA 0183 AIVDM encoder for the AIS messages the simulated world broadcasts: position reports
 * of Class A (type 1) and Class B (type 18) stations and Class A static and voyage data (type 5).
 * Payloads are packed MSB-first into 6-bit groups, armored as ASCII, split into sentences with
 * fill bits, and closed with the XOR checksum.
 */

class BitWriter {
  private bits: number[] = [];

  uint(value: number, width: number): this {
    const v = Math.max(0, Math.round(value));
    for (let i = width - 1; i >= 0; i--) this.bits.push(Math.floor(v / 2 ** i) % 2);
    return this;
  }

  int(value: number, width: number): this {
    const v = Math.round(value);
    return this.uint(v < 0 ? 2 ** width + v : v, width);
  }

  /** AIS 6-bit text, padded with `@` (zero) to `chars` characters. */
  text(value: string, chars: number): this {
    const upper = value.toUpperCase().slice(0, chars).padEnd(chars, '@');
    for (const ch of upper) {
      const code = ch.charCodeAt(0);
      const sixBit = code >= 64 && code < 96 ? code - 64 : code >= 32 && code < 64 ? code : 32;
      this.uint(sixBit, 6);
    }
    return this;
  }

  get length(): number {
    return this.bits.length;
  }

  /** Armored payload and the number of fill bits added to complete the last 6-bit group. */
  armor(): { payload: string; fillBits: number } {
    const fillBits = (6 - (this.bits.length % 6)) % 6;
    const bits = [...this.bits, ...new Array<number>(fillBits).fill(0)];
    let payload = '';
    for (let i = 0; i < bits.length; i += 6) {
      let v = 0;
      for (let j = 0; j < 6; j++) v = v * 2 + bits[i + j]!;
      payload += String.fromCharCode(v < 40 ? v + 48 : v + 56);
    }
    return { payload, fillBits };
  }
}

export function nmeaChecksum(body: string): string {
  let x = 0;
  for (let i = 0; i < body.length; i++) x ^= body.charCodeAt(i);
  return x.toString(16).toUpperCase().padStart(2, '0');
}

/** Wraps an armored payload into one or more `!AIVDM` sentences. */
export function toSentences(
  payload: string,
  fillBits: number,
  opts: { channel?: 'A' | 'B'; sequenceId?: number; maxPayloadChars?: number } = {},
): string[] {
  const max = opts.maxPayloadChars ?? 60;
  const parts: string[] = [];
  for (let i = 0; i < payload.length; i += max) parts.push(payload.slice(i, i + max));
  const total = parts.length;
  const seq = total > 1 ? String((opts.sequenceId ?? 0) % 10) : '';
  return parts.map((part, i) => {
    const fill = i === total - 1 ? fillBits : 0;
    const body = `AIVDM,${total},${i + 1},${seq},${opts.channel ?? 'A'},${part},${fill}`;
    return `!${body}*${nmeaChecksum(body)}`;
  });
}

export interface PositionReport {
  mmsi: number;
  lon: number;
  lat: number;
  speedKnots: number;
  courseDeg: number;
  headingDeg: number | null;
  /** UTC second of the fix. */
  second: number;
  /** 0 under way using engine, 1 at anchor, 5 moored. */
  navStatus?: number;
}

const lonField = (lon: number): number => Math.round(lon * 600000);
const latField = (lat: number): number => Math.round(lat * 600000);
const sogField = (knots: number): number => Math.min(1022, Math.round(knots * 10));
const cogField = (deg: number): number => Math.round((((deg % 360) + 360) % 360) * 10) % 3600;
const headingField = (deg: number | null): number =>
  deg === null ? 511 : Math.round(((deg % 360) + 360) % 360) % 360;

/** Type 1: Class A position report (168 bits). */
export function encodeType1(r: PositionReport): { payload: string; fillBits: number } {
  return new BitWriter()
    .uint(1, 6)
    .uint(0, 2)
    .uint(r.mmsi, 30)
    .uint(r.navStatus ?? 0, 4)
    .int(-128, 8) // rate of turn not available
    .uint(sogField(r.speedKnots), 10)
    .uint(1, 1) // position accuracy: high (DGPS)
    .int(lonField(r.lon), 28)
    .int(latField(r.lat), 27)
    .uint(cogField(r.courseDeg), 12)
    .uint(headingField(r.headingDeg), 9)
    .uint(r.second % 60, 6)
    .uint(0, 2)
    .uint(0, 3)
    .uint(0, 1)
    .uint(0, 19)
    .armor();
}

/** Type 18: Class B position report (168 bits). */
export function encodeType18(r: PositionReport): { payload: string; fillBits: number } {
  return new BitWriter()
    .uint(18, 6)
    .uint(0, 2)
    .uint(r.mmsi, 30)
    .uint(0, 8)
    .uint(sogField(r.speedKnots), 10)
    .uint(0, 1)
    .int(lonField(r.lon), 28)
    .int(latField(r.lat), 27)
    .uint(cogField(r.courseDeg), 12)
    .uint(headingField(r.headingDeg), 9)
    .uint(r.second % 60, 6)
    .uint(0, 2)
    .uint(1, 1) // carrier-sense unit
    .uint(0, 1)
    .uint(0, 1)
    .uint(1, 1)
    .uint(0, 1)
    .uint(0, 1)
    .uint(0, 1)
    .uint(0, 20)
    .armor();
}

export interface StaticData {
  mmsi: number;
  imo: number;
  callSign: string;
  name: string;
  /** 70-79 cargo ships. */
  shipType: number;
  lengthM: number;
  beamM: number;
  draughtM: number;
  destination: string;
  eta: Date | null;
}

/** Type 5: Class A static and voyage related data (424 bits, two sentences). */
export function encodeType5(d: StaticData): { payload: string; fillBits: number } {
  const bow = Math.round(d.lengthM * 0.8);
  const port = Math.round(d.beamM / 2);
  const w = new BitWriter()
    .uint(5, 6)
    .uint(0, 2)
    .uint(d.mmsi, 30)
    .uint(0, 2)
    .uint(d.imo, 30)
    .text(d.callSign, 7)
    .text(d.name, 20)
    .uint(d.shipType, 8)
    .uint(Math.min(511, bow), 9)
    .uint(Math.min(511, Math.round(d.lengthM) - bow), 9)
    .uint(Math.min(63, port), 6)
    .uint(Math.min(63, Math.round(d.beamM) - port), 6)
    .uint(1, 4); // GPS
  if (d.eta) {
    w.uint(d.eta.getUTCMonth() + 1, 4)
      .uint(d.eta.getUTCDate(), 5)
      .uint(d.eta.getUTCHours(), 5)
      .uint(d.eta.getUTCMinutes(), 6);
  } else {
    w.uint(0, 4).uint(0, 5).uint(24, 5).uint(60, 6);
  }
  w.uint(Math.min(255, Math.round(d.draughtM * 10)), 8)
    .text(d.destination, 20)
    .uint(0, 1)
    .uint(0, 1);
  return w.armor();
}
