import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, localMidnight, zoneOffsetMs } from '../../src/sim/time';

/** Zones with an hour, a half-hour and no daylight saving, and offsets off the whole hour. */
const ZONES = [
  'America/Los_Angeles',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Asia/Shanghai',
];

/** Every instant in 2026 where a zone's offset changes, found by luxon (the oracle). */
function transitions(zone: string): number[] {
  const found: number[] = [];
  let at = Date.UTC(2026, 0, 1);
  let offset = DateTime.fromMillis(at, { zone }).offset;
  for (; at < Date.UTC(2027, 0, 1); at += 15 * MINUTE) {
    const next = DateTime.fromMillis(at, { zone }).offset;
    if (next !== offset) found.push(at);
    offset = next;
  }
  return found;
}

describe("the simulated world's zone arithmetic", () => {
  it('gives the offset luxon gives at every minute around each 2026 change, asked in any order', () => {
    let checked = 0;
    for (const zone of ZONES) {
      const changes = transitions(zone);
      const instants = [Date.UTC(2026, 5, 1, 12), ...changes].flatMap((change) =>
        Array.from(
          { length: 4 * 60 + 1 },
          (_, i) => change - 2 * HOUR + i * MINUTE + (i % 7) * 1000,
        ),
      );
      // Forward, then backward: a kept answer must be as right as a fresh one.
      for (const at of [...instants, ...instants.reverse()]) {
        const expected = DateTime.fromMillis(at, { zone }).offset * MINUTE;
        expect(zoneOffsetMs(zone, at), `${zone} ${new Date(at).toISOString()}`).toBe(expected);
        checked++;
      }
    }
    // London, Los Angeles, St John's and Lord Howe change twice; Kathmandu and Shanghai never.
    expect(checked).toBe(2 * 241 * (6 + 4 * 2));
  });

  it("gives each day's local midnight as luxon does, across the changes", () => {
    for (const zone of ZONES) {
      for (const change of [Date.UTC(2026, 0, 15), ...transitions(zone)]) {
        for (let at = change - 30 * HOUR; at <= change + 30 * HOUR; at += 37 * MINUTE) {
          const expected = DateTime.fromMillis(at, { zone }).startOf('day').plus({ days: 1 });
          expect(localMidnight(zone, at, 1), `${zone} ${new Date(at).toISOString()}`).toBe(
            expected.toMillis(),
          );
        }
      }
    }
  });
});
