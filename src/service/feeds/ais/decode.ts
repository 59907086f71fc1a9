/**
 * AIS payload decoding for the message types Quayside uses: position reports (1, 2, 3 class A;
 * 18 class B) and static data (5 class A; 24 class B parts A and B). Bit extraction is done by
 * `ais-stream-decoder`; framing, checksums and multi-part assembly are ours (./nmea), because the
 * library keeps one multi-part buffer for the whole stream and has no time limit.
 */
import AisDecoderImport from 'ais-stream-decoder';
import { normalizeImo } from '../normalize/raw-events';

type AisDecoderCtor = typeof AisDecoderImport;
// The package is CommonJS with an `exports.default`; depending on the loader the default import
// is either the class or the module namespace holding it.
const imported = AisDecoderImport as unknown as AisDecoderCtor | { default: AisDecoderCtor };
const AisDecoder: AisDecoderCtor = typeof imported === 'function' ? imported : imported.default;

export interface AisPositionReport {
  kind: 'position';
  messageType: 1 | 2 | 3 | 18;
  mmsi: string;
  /** null when the report says "not available" (91 / 181) or is out of range. */
  lat: number | null;
  lon: number | null;
  speedKnots: number | null;
  courseDeg: number | null;
  headingDeg: number | null;
  navStatus: number | null;
}

export interface AisStaticReport {
  kind: 'static';
  messageType: 5 | 24;
  mmsi: string;
  imo: string | null;
  name: string | null;
  callSign: string | null;
  shipType: number | null;
  destination: string | null;
}

export type AisDecoded = AisPositionReport | AisStaticReport;

export type DecodeResult =
  | { ok: true; message: AisDecoded }
  | { ok: false; reason: 'unsupported' | 'malformed'; detail: string };

/** Minimum payload bits per message type (shorter payloads are truncated). */
const MIN_BITS: Record<number, number> = { 1: 168, 2: 168, 3: 168, 5: 420, 18: 168, 24: 160 };

const SUPPORTED = new Set([1, 2, 3, 5, 18, 24]);

interface LibMessage {
  type: number;
  mmsi: number;
  lat?: number | null;
  lon?: number | null;
  speedOverGround?: number | null;
  courseOverGround?: number | null;
  heading?: number | null;
  navStatus?: number;
  imo?: number;
  name?: string;
  callsign?: string;
  typeAndCargo?: number;
  destination?: string;
  partNum?: number;
}

const decoder = new AisDecoder({ silent: true });

function sixBit(char: string): number {
  let v = char.charCodeAt(0) - 48;
  if (v > 40) v -= 8;
  return v;
}

export function decodePayload(payload: string, fillBits: number, channel = 'A'): DecodeResult {
  if (payload.length === 0) return { ok: false, reason: 'malformed', detail: 'empty payload' };
  const type = sixBit(payload[0] as string);
  if (!SUPPORTED.has(type))
    return { ok: false, reason: 'unsupported', detail: `message type ${type}` };
  const bits = payload.length * 6 - fillBits;
  const min = MIN_BITS[type] ?? 0;
  if (bits < min)
    return {
      ok: false,
      reason: 'malformed',
      detail: `type ${type} needs ${min} bits, got ${bits}`,
    };

  let lib: LibMessage;
  try {
    decoder.decodePayload(payload, channel, []);
    const out: unknown = decoder.read();
    if (typeof out !== 'string')
      return { ok: false, reason: 'malformed', detail: 'payload did not decode' };
    lib = JSON.parse(out) as LibMessage;
  } catch (err) {
    return {
      ok: false,
      reason: 'malformed',
      detail: err instanceof Error ? err.message : String(err),
    };
  }
  const mmsi = String(lib.mmsi).padStart(9, '0');
  if (!/^\d{9}$/.test(mmsi) || lib.mmsi === 0)
    return { ok: false, reason: 'malformed', detail: `bad MMSI ${lib.mmsi}` };

  if (type === 5 || type === 24) {
    if (type === 24 && lib.partNum !== 0 && lib.partNum !== 1) {
      return { ok: false, reason: 'malformed', detail: `type 24 part ${lib.partNum}` };
    }
    return {
      ok: true,
      message: {
        kind: 'static',
        messageType: type,
        mmsi,
        imo: type === 5 && lib.imo ? normalizeImo(String(lib.imo).padStart(7, '0')) : null,
        name: clean(lib.name),
        callSign: clean(lib.callsign),
        shipType: lib.typeAndCargo ?? null,
        destination: type === 5 ? clean(lib.destination) : null,
      },
    };
  }

  const lat = validNumber(lib.lat, -90, 90);
  const lon = validNumber(lib.lon, -180, 180);
  return {
    ok: true,
    message: {
      kind: 'position',
      messageType: type as 1 | 2 | 3 | 18,
      mmsi,
      lat,
      lon,
      speedKnots: validNumber(lib.speedOverGround, 0, 102.2),
      courseDeg: validNumber(lib.courseOverGround, 0, 359.9),
      headingDeg: validNumber(lib.heading, 0, 359),
      navStatus: type === 18 ? null : (lib.navStatus ?? null),
    },
  };
}

function validNumber(value: number | null | undefined, min: number, max: number): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return value >= min && value <= max ? value : null;
}

function clean(value: string | undefined): string | null {
  const trimmed = (value ?? '').replace(/@+$/, '').trim();
  return trimmed === '' ? null : trimmed;
}
