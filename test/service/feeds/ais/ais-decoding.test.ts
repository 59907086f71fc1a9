import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/shared/clock';
import { decodePayload } from '../../../../src/service/feeds/ais/decode';
import { MultipartAssembler, parseSentence } from '../../../../src/service/feeds/ais/nmea';
import { type1, type5 } from '../../../support/nmea-encoder';

// Real sentences as published with the decoder library (a Dutch inland vessel and an Indonesian tug).
const REAL_TYPE_1 = '!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:Ow:2>`<,0*41';
const REAL_TYPE_5 = [
  '!AIVDM,2,1,7,A,57lof8`2F5HeT<eC:204e86373:222222222221@8HQC16Ch0:RA7kAD,0*28',
  '!AIVDM,2,2,7,A,PBp888888888880,2*79',
];

describe('NMEA sentences', () => {
  it('verifies checksums and rejects truncated and non-AIS lines', () => {
    expect(parseSentence(REAL_TYPE_1)).toMatchObject({
      ok: true,
      sentence: { parts: 1, channel: 'B', fillBits: 0 },
    });
    expect(parseSentence(REAL_TYPE_1.replace('*41', '*42'))).toMatchObject({
      ok: false,
      reason: 'bad_checksum',
    });
    expect(parseSentence(REAL_TYPE_1.slice(0, 30))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(
      parseSentence('$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47'),
    ).toMatchObject({ ok: false });
    // A tag block before the sentence is allowed.
    expect(parseSentence(`\\s:base,c:1700000000*00\\${REAL_TYPE_1}`)).toMatchObject({ ok: true });
  });

  it('decodes a real type 1 report and a real two-part type 5', () => {
    const one = parseSentence(REAL_TYPE_1);
    if (!one.ok) throw new Error('parse failed');
    expect(decodePayload(one.sentence.payload, one.sentence.fillBits)).toEqual({
      ok: true,
      message: {
        kind: 'position',
        messageType: 1,
        mmsi: '205278090',
        lat: 51.725665,
        lon: 4.73319,
        speedKnots: 8.4,
        courseDeg: 260.1,
        headingDeg: null,
        navStatus: 0,
      },
    });
    const assembler = new MultipartAssembler(new ManualClock());
    const parts = REAL_TYPE_5.map((s) => parseSentence(s)).map((p) => (p.ok ? p.sentence : null));
    expect(assembler.add(parts[0]!)).toBeNull();
    const whole = assembler.add(parts[1]!);
    expect(whole).not.toBeNull();
    expect(decodePayload(whole!.payload, whole!.fillBits)).toMatchObject({
      ok: true,
      message: {
        kind: 'static',
        messageType: 5,
        mmsi: '525200930',
        imo: '9835915',
        name: 'AKRA 102',
        callSign: 'YCKT2',
      },
    });
  });

  it('assembles interleaved multi-part messages by sequence id and expires stale parts', () => {
    const clock = new ManualClock();
    const assembler = new MultipartAssembler(clock, 2000);
    const [a1, a2] = type5(
      {
        mmsi: 636019825,
        imo: 9321483,
        callSign: 'D5AB7',
        name: 'MSC AURORA',
        destination: 'USLAX',
      },
      '1',
    );
    const [b1, b2] = type5(
      {
        mmsi: 636019826,
        imo: 9811000,
        callSign: 'D5AB8',
        name: 'MSC BOREAS',
        destination: 'SGSIN',
      },
      '2',
    );
    const p = (s: string) => {
      const r = parseSentence(s);
      if (!r.ok) throw new Error(r.detail);
      return r.sentence;
    };
    expect(assembler.add(p(a1))).toBeNull();
    expect(assembler.add(p(b1))).toBeNull();
    const b = assembler.add(p(b2));
    const a = assembler.add(p(a2));
    expect(decodePayload(a!.payload, a!.fillBits)).toMatchObject({
      ok: true,
      message: { name: 'MSC AURORA', imo: '9321483' },
    });
    expect(decodePayload(b!.payload, b!.fillBits)).toMatchObject({
      ok: true,
      message: { name: 'MSC BOREAS', imo: '9811000' },
    });

    // A first part whose second part never comes is dropped after the time limit.
    expect(assembler.add(p(a1))).toBeNull();
    clock.advance(2500);
    expect(assembler.add(p(a2))).toBeNull(); // alone it is only a fragment
    expect(assembler.expired).toBe(1);
  });

  it('refuses a truncated payload even with a correct checksum', () => {
    const full = parseSentence(
      type1({ mmsi: 366123456, lat: 33.7, lon: -118.2, sog: 12.3, cog: 90, heading: 91 }),
    );
    if (!full.ok) throw new Error('parse failed');
    expect(decodePayload(full.sentence.payload.slice(0, 20), 0)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });
});
