/**
 * NMEA 0183 framing for AIS: splits a byte stream into sentences, verifies each checksum and
 * reassembles multi-part messages (AIVDM/AIVDO), keyed by talker, channel and sequential message
 * id, with a time limit for the missing parts. The payload's bits are decoded in ./decode.
 *
 *   !AIVDM,<parts>,<part no>,<seq id>,<channel>,<payload>,<fill bits>*<checksum>
 */
import type { Clock } from '../../../shared/clock';

export interface AisSentence {
  talker: string; // e.g. AI
  formatter: 'VDM' | 'VDO';
  parts: number;
  part: number;
  sequenceId: string;
  channel: string;
  payload: string;
  fillBits: number;
}

export type SentenceParse =
  | { ok: true; sentence: AisSentence }
  | { ok: false; reason: 'bad_checksum' | 'malformed'; detail: string };

const PAYLOAD_CHARS = /^[0-W`-w]*$/;

/** XOR of the characters between the start delimiter and `*`, as two upper-case hex digits. */
export function nmeaChecksum(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum.toString(16).toUpperCase().padStart(2, '0');
}

export function parseSentence(line: string): SentenceParse {
  // A tag block (\...\) or noise may precede the sentence; the sentence starts at `!`.
  const start = line.indexOf('!');
  if (start < 0) return { ok: false, reason: 'malformed', detail: 'no sentence start' };
  const text = line.slice(start).trim();
  const star = text.lastIndexOf('*');
  if (star < 0 || text.length - star !== 3)
    return { ok: false, reason: 'malformed', detail: 'no checksum' };
  const body = text.slice(1, star);
  const given = text.slice(star + 1).toUpperCase();
  if (!/^[0-9A-F]{2}$/.test(given))
    return { ok: false, reason: 'malformed', detail: 'checksum is not hex' };
  // Only printable ASCII belongs in a sentence body.
  if (!/^[\x20-\x7e]*$/.test(body))
    return { ok: false, reason: 'malformed', detail: 'non-ASCII bytes' };
  if (nmeaChecksum(body) !== given)
    return {
      ok: false,
      reason: 'bad_checksum',
      detail: `checksum ${given} != ${nmeaChecksum(body)}`,
    };

  const fields = body.split(',');
  if (fields.length !== 7)
    return { ok: false, reason: 'malformed', detail: `expected 7 fields, got ${fields.length}` };
  const [address, partsText, partText, sequenceId, channel, payload, fillText] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const m = /^([A-Z]{2})(VDM|VDO)$/.exec(address);
  if (!m) return { ok: false, reason: 'malformed', detail: `not an AIS sentence: ${address}` };
  const parts = Number(partsText);
  const part = Number(partText);
  const fillBits = Number(fillText);
  if (
    !Number.isInteger(parts) ||
    parts < 1 ||
    parts > 9 ||
    !Number.isInteger(part) ||
    part < 1 ||
    part > parts
  ) {
    return { ok: false, reason: 'malformed', detail: `bad part numbers ${partsText}/${partText}` };
  }
  if (!/^\d?$/.test(sequenceId))
    return { ok: false, reason: 'malformed', detail: 'bad sequence id' };
  if (!Number.isInteger(fillBits) || fillBits < 0 || fillBits > 5 || fillText === '') {
    return { ok: false, reason: 'malformed', detail: 'bad fill bits' };
  }
  if (payload === '' || !PAYLOAD_CHARS.test(payload))
    return { ok: false, reason: 'malformed', detail: 'bad payload characters' };
  return {
    ok: true,
    sentence: {
      talker: m[1] as string,
      formatter: m[2] as 'VDM' | 'VDO',
      parts,
      part,
      sequenceId,
      channel,
      payload,
      fillBits,
    },
  };
}

export interface AssembledMessage {
  payload: string;
  fillBits: number;
  channel: string;
  formatter: 'VDM' | 'VDO';
}

interface PendingMessage {
  parts: number;
  received: Map<number, AisSentence>;
  firstSeenAt: number;
}

/**
 * Collects the parts of multi-part messages. Parts may arrive out of order and interleaved with
 * other messages; a message whose parts do not all arrive within `timeoutMs` is discarded and
 * counted as expired.
 */
export class MultipartAssembler {
  private pending = new Map<string, PendingMessage>();
  expired = 0;

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs = 5_000,
  ) {}

  add(sentence: AisSentence): AssembledMessage | null {
    this.expire();
    if (sentence.parts === 1) {
      return {
        payload: sentence.payload,
        fillBits: sentence.fillBits,
        channel: sentence.channel,
        formatter: sentence.formatter,
      };
    }
    const key = `${sentence.talker}${sentence.formatter}|${sentence.channel}|${sentence.sequenceId}|${sentence.parts}`;
    let entry = this.pending.get(key);
    // Part 1 again means the sender reused the sequence id for a new message.
    if (entry && sentence.part === 1 && entry.received.has(1)) {
      this.pending.delete(key);
      this.expired++;
      entry = undefined;
    }
    if (!entry) {
      entry = { parts: sentence.parts, received: new Map(), firstSeenAt: this.clock.now() };
      this.pending.set(key, entry);
    }
    entry.received.set(sentence.part, sentence);
    if (entry.received.size < entry.parts) return null;
    this.pending.delete(key);
    const ordered = [...entry.received.values()].sort((a, b) => a.part - b.part);
    const last = ordered[ordered.length - 1] as AisSentence;
    return {
      payload: ordered.map((p) => p.payload).join(''),
      fillBits: last.fillBits,
      channel: sentence.channel,
      formatter: sentence.formatter,
    };
  }

  pendingCount(): number {
    return this.pending.size;
  }

  /** Drops messages whose parts have been waiting too long. */
  expire(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.pending) {
      if (now - entry.firstSeenAt > this.timeoutMs) {
        this.pending.delete(key);
        this.expired++;
      }
    }
  }
}
