/**
 * Builds AIVDM sentences bit by bit (ITU-R M.1371 layouts) so tests can send positions and static
 * data with known values over a real socket.
 */
import { nmeaChecksum } from '../../src/service/feeds/ais/nmea';

class Bits {
  private bits = '';
  uint(value: number, width: number): this {
    this.bits += (value >>> 0).toString(2).padStart(width, '0').slice(-width);
    return this;
  }
  int(value: number, width: number): this {
    const v = value < 0 ? 2 ** width + value : value;
    this.bits += Math.round(v).toString(2).padStart(width, '0').slice(-width);
    return this;
  }
  text(value: string, chars: number): this {
    const padded = value.toUpperCase().padEnd(chars, '@').slice(0, chars);
    for (const ch of padded) {
      const c = ch.charCodeAt(0);
      this.uint(c >= 64 ? c - 64 : c, 6);
    }
    return this;
  }
  armor(): { payload: string; fill: number } {
    const fill = (6 - (this.bits.length % 6)) % 6;
    const bits = this.bits + '0'.repeat(fill);
    let payload = '';
    for (let i = 0; i < bits.length; i += 6) {
      const v = parseInt(bits.slice(i, i + 6), 2);
      payload += String.fromCharCode(v < 40 ? v + 48 : v + 56);
    }
    return { payload, fill };
  }
}

export function sentence(
  payload: string,
  fill: number,
  parts = 1,
  part = 1,
  seq = '',
  channel = 'A',
): string {
  const body = `AIVDM,${parts},${part},${seq},${channel},${payload},${fill}`;
  return `!${body}*${nmeaChecksum(body)}`;
}

export interface PositionInput {
  mmsi: number;
  lat: number;
  lon: number;
  sog: number;
  cog: number;
  heading: number;
}

export function type1(p: PositionInput): string {
  const { payload, fill } = new Bits()
    .uint(1, 6)
    .uint(0, 2)
    .uint(p.mmsi, 30)
    .uint(0, 4)
    .int(0, 8)
    .uint(Math.round(p.sog * 10), 10)
    .uint(1, 1)
    .int(Math.round(p.lon * 600000), 28)
    .int(Math.round(p.lat * 600000), 27)
    .uint(Math.round(p.cog * 10), 12)
    .uint(p.heading, 9)
    .uint(30, 6)
    .uint(0, 2)
    .uint(0, 3)
    .uint(0, 1)
    .uint(0, 19)
    .armor();
  return sentence(payload, fill);
}

export function type18(p: PositionInput): string {
  const { payload, fill } = new Bits()
    .uint(18, 6)
    .uint(0, 2)
    .uint(p.mmsi, 30)
    .uint(0, 8)
    .uint(Math.round(p.sog * 10), 10)
    .uint(0, 1)
    .int(Math.round(p.lon * 600000), 28)
    .int(Math.round(p.lat * 600000), 27)
    .uint(Math.round(p.cog * 10), 12)
    .uint(p.heading, 9)
    .uint(12, 6)
    .uint(0, 2)
    .uint(1, 1)
    .uint(0, 1)
    .uint(1, 1)
    .uint(1, 1)
    .uint(1, 1)
    .uint(0, 1)
    .uint(0, 1)
    .uint(0, 20)
    .armor();
  return sentence(payload, fill, 1, 1, '', 'B');
}

/** Type 5 (424 bits) split over two sentences with the given sequential message id. */
export function type5(
  v: { mmsi: number; imo: number; callSign: string; name: string; destination: string },
  seq = '3',
): [string, string] {
  const { payload, fill } = new Bits()
    .uint(5, 6)
    .uint(0, 2)
    .uint(v.mmsi, 30)
    .uint(0, 2)
    .uint(v.imo, 30)
    .text(v.callSign, 7)
    .text(v.name, 20)
    .uint(71, 8)
    .uint(200, 9)
    .uint(150, 9)
    .uint(20, 6)
    .uint(28, 6)
    .uint(1, 4)
    .uint(2, 4)
    .uint(14, 5)
    .uint(6, 5)
    .uint(0, 6)
    .uint(125, 8)
    .text(v.destination, 20)
    .uint(0, 1)
    .uint(0, 1)
    .armor();
  return [
    sentence(payload.slice(0, 60), 0, 2, 1, seq),
    sentence(payload.slice(60), fill, 2, 2, seq),
  ];
}

export function type24(v: { mmsi: number; name?: string; callSign?: string }): string {
  const bits = new Bits().uint(24, 6).uint(0, 2).uint(v.mmsi, 30);
  if (v.name !== undefined) bits.uint(0, 2).text(v.name, 20).uint(0, 8);
  else
    bits
      .uint(1, 2)
      .uint(70, 8)
      .text('ACME', 3)
      .uint(0, 4)
      .uint(0, 20)
      .text(v.callSign ?? '', 7)
      .uint(0, 30)
      .uint(0, 6);
  const { payload, fill } = bits.armor();
  return sentence(payload, fill, 1, 1, '', 'B');
}
