/**
 * Identical reads asked in one turn of the event loop share one query (PostgreSQL's hot key and
 * list reads, store/key-memo.ts); a read asked in a later turn goes to the database again, so it
 * sees what was committed in between.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { frozenRows, sameTurnShared } from '../../../src/service/store/key-memo';

describe('sameTurnShared', () => {
  it('shares one read among identical asks of a turn and reads again in the next', async () => {
    let stored = 'before';
    const queries: string[] = [];
    const shared = sameTurnShared<readonly { id: string; value: string }[]>();
    const read = (id: string) =>
      shared(id, async () => {
        queries.push(id);
        return frozenRows([{ id, value: stored }]);
      });
    const [a, b, other] = await Promise.all([read('c1'), read('c1'), read('c2')]);
    expect(queries).toEqual(['c1', 'c2']);
    expect(a).toBe(b);
    expect(other[0]).toEqual({ id: 'c2', value: 'before' });

    stored = 'after';
    await nextTurn();
    expect((await read('c1'))[0]).toEqual({ id: 'c1', value: 'after' });
    expect(queries).toEqual(['c1', 'c2', 'c1']);
  });
});
