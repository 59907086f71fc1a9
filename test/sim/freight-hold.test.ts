/**
 * The line's freight hold is placed on the bill of lading: the terminal shows it on every box of
 * the B/L or on none, and releases it on all of them together once the freight is paid.
 */
import { describe, expect, it } from 'vitest';
import { World } from '../../src/sim';
import { terminalStatusAt } from '../../src/sim/terminals/status';
import { DAY } from '../../src/sim/time';
import type { ShipmentPlan } from '../../src/sim/world/plan';

const ORIGIN = Date.UTC(2026, 2, 10, 6);

/** The opening shipments and the stream's bookings over two months, each once. */
function shipments(): ShipmentPlan[] {
  const world = new World(42, ORIGIN);
  const byBl = new Map<string, ShipmentPlan>();
  for (let day = 0; day <= 60; day += 5) {
    for (const s of world.shipmentsAt(ORIGIN + day * DAY)) byBl.set(s.billOfLading, s);
  }
  return [...byBl.values()];
}

describe('freight hold', () => {
  const all = shipments();
  const multiBox = all.filter((s) => s.cancelledAt === null && s.containers.length > 1);

  it('is on every box of a bill of lading or on none, pending and released together', () => {
    let heldBls = 0;
    for (const s of multiBox) {
      const freight = s.containers.map((c) => c.holds.find((h) => h.name === 'freight') ?? null);
      const held = freight.filter((h) => h !== null);
      expect([0, s.containers.length], s.billOfLading).toContain(held.length);
      if (held.length === 0) continue;
      heldBls++;
      expect(new Set(held.map((h) => h.pendingFrom)).size, s.billOfLading).toBe(1);
      expect(new Set(held.map((h) => h.description)).size, s.billOfLading).toBe(1);
    }
    // Enough B/Ls of several boxes with the hold for the check to mean something.
    expect(heldBls).toBeGreaterThan(3);
  });

  it('shows as a hold on every box the terminal reports once all are discharged', () => {
    let checked = 0;
    for (const s of multiBox) {
      const holds = s.containers.map((c) => c.holds.find((h) => h.name === 'freight'));
      if (!holds[0] || s.containers.some((c) => c.rail)) continue;
      const allDischarged = Math.max(...s.containers.map((c) => c.dischargedAt));
      const released = Math.min(...holds.map((h) => h!.releasedAt));
      if (allDischarged >= released) continue;
      const statuses = s.containers.map(
        (c) =>
          terminalStatusAt(s, c, allDischarged + 1)?.holds.find((h) => h.name === 'freight')
            ?.status,
      );
      expect(statuses, s.billOfLading).toEqual(s.containers.map(() => 'hold'));
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
