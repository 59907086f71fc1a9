import { describe, expect, it } from 'vitest';
import { SHRINK_FLOOR, TRIM_SHARE, fitColumnWidths } from '../../src/renderer/board/fit';

const sum = (widths: Record<string, number>) => Object.values(widths).reduce((a, b) => a + b, 0);

describe('board columns fitted to content and to the window', () => {
  const natural = { number: 118, status: 96, lfd: 210, ready: 224, holds: 120, pod: 260 };

  it('spreads spare room over every column on a wide window, leaving no empty band', () => {
    const widths = fitColumnWidths(natural, 2000);
    expect(sum(widths)).toBe(2000);
    for (const [id, width] of Object.entries(widths))
      expect(width).toBeGreaterThanOrEqual(natural[id as keyof typeof natural]);
  });

  it('narrows only free-text columns when the content is wider than the board', () => {
    const widths = fitColumnWidths(natural, 950);
    expect(sum(widths)).toBe(950);
    expect(widths.ready).toBe(224); // readiness chips are never cut
    expect(widths.lfd).toBe(210);
    expect(widths.pod).toBe(260 - 78);
  });

  it('trims the other columns slightly when the floor leaves the board a little too wide', () => {
    // The floor leaves 118+96+210+224+120+110 = 878: 28 px too wide for 850.
    const widths = fitColumnWidths(natural, 850, undefined, { status: 90 });
    expect(sum(widths)).toBe(850);
    expect(widths.pod).toBe(SHRINK_FLOOR);
    // The number, readiness and holds keep their whole width; the header's label is never cut.
    expect([widths.number, widths.ready, widths.holds]).toEqual([118, 224, 120]);
    expect(widths.status).toBeGreaterThanOrEqual(90);
    expect(widths.lfd).toBeGreaterThanOrEqual(Math.ceil(210 * (1 - TRIM_SHARE)));
    expect(widths.lfd).toBeLessThan(210);
  });

  it("fits a 1440 px board whose LFD column an overdue box's countdown widened", () => {
    // The default columns with "25 Nov overdue 2d 21h terminal" in the LFD column: at their
    // floor 93 px too wide for the board's 1211 px (a 15% trim had 83 px to give, so none).
    const board = {
      ...{ number: 125, status: 113, lfd: 223, ready: 235, holds: 128 },
      ...{ fees: 130, pod: 170, line: 60, eta: 100, trucker: 100 },
    };
    const headers = { status: 70, lfd: 60, line: 50, eta: 90, trucker: 85 };
    const widths = fitColumnWidths(board, 1211, undefined, headers);
    expect(sum(widths)).toBe(1211);
    expect([widths.number, widths.ready, widths.holds]).toEqual([125, 235, 128]);
    for (const [id, least] of Object.entries(headers))
      expect(widths[id], id).toBeGreaterThanOrEqual(least);
  });

  it('stops at the floor and lets the board scroll when even that is too wide', () => {
    const widths = fitColumnWidths(natural, 700);
    expect(widths.pod).toBe(SHRINK_FLOOR);
    expect(sum(widths)).toBeGreaterThan(700);
    // No trim either: it would cut text and still leave a scrollbar.
    expect([widths.status, widths.lfd]).toEqual([96, 210]);
  });
});
