/**
 * The board's view cost through its bridge handler: summed a page per turn over a real cache
 * file, and dropped when the board has asked for a newer one (it ignores earlier answers).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Cache } from '../../src/main/cache/cache';
import { BridgeHandlerError } from '../../src/main/bridge/dispatcher';
import { boardHandlers } from '../../src/main/core/handlers/board';
import type { HandlerContext } from '../../src/main/core/handlers/context';
import { addCost, containerCost, NO_COST } from '../../src/shared/cost-clock';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { ManualClock } from '../../src/shared/clock';
import { container, shipment, tempDir } from '../support/cache-fixtures';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const at = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let handlers: ReturnType<typeof boardHandlers>;

beforeEach(() => {
  tmp = tempDir();
  cache = Cache.open(tmp.dir);
  // Only what the board's handlers read: the cache, the clock and the tariffs.
  const context: Pick<HandlerContext, 'cache' | 'clock' | 'settings'> = {
    cache,
    clock: new ManualClock(NOW),
    settings: () => DEFAULT_SETTINGS,
  };
  handlers = boardHandlers(context as HandlerContext);
  // 1,200 boxes past their last free day on two lines: several pages of the sum.
  const lines = [
    shipment({ shipping_line_scac: 'MAEU' }),
    shipment({ shipping_line_scac: 'MSCU' }),
  ];
  const boxes = Array.from({ length: 1200 }, (_, i) =>
    container(
      {
        number: `TEST${String(i).padStart(6, '0')}0`,
        current_status: 'available',
        pickup_lfd: at(-24 * (1 + (i % 9))),
      },
      { shipmentId: lines[i % 2]!.id },
    ),
  );
  cache.applyPage({ shipments: lines, containers: boxes }, at(0));
});
afterEach(() => {
  cache.close();
  tmp.remove();
});

const boardSum = (line?: string) =>
  cache.board
    .containers({ limit: 1000, ...(line ? { line: [line] } : {}) }, NOW)
    .rows.concat(
      cache.board.containers({ limit: 1000, offset: 1000, ...(line ? { line: [line] } : {}) }, NOW)
        .rows,
    )
    .reduce((sum, row) => addCost(sum, containerCost(row, DEFAULT_SETTINGS.costs, NOW)), NO_COST);

describe('view cost', () => {
  it("sums every box of the view, as the cost clock prices each of the board's rows", async () => {
    const all = await handlers.getViewCost({});
    expect(all.accrued).toBeGreaterThan(0);
    expect(all).toEqual(boardSum());
    expect(await handlers.getViewCost({ line: ['MSCU'] })).toEqual(boardSum('MSCU'));
  });

  it('drops a sum still running when a newer one is asked for, and finishes the newer', async () => {
    const older = handlers.getViewCost({});
    const newer = handlers.getViewCost({ line: ['MAEU'] });
    await expect(older).rejects.toBeInstanceOf(BridgeHandlerError);
    // Said as replaced, not as failed: the board shows no error and browser mode no HTTP 500.
    await expect(older).rejects.toMatchObject({ code: 'superseded' });
    expect(await newer).toEqual(boardSum('MAEU'));
  });
});
