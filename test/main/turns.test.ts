/** The main thread's turn scheduler: waiting slices resume one per turn of the event loop. */
import { describe, expect, it } from 'vitest';
import { inTurns, nextTurn } from '../../src/main/turns';

describe('nextTurn', () => {
  it('lets I/O-phase work run between any two slices, whichever task they belong to', async () => {
    const log: string[] = [];
    const task = async (name: string): Promise<void> => {
      for (let slice = 0; slice < 3; slice++) {
        log.push(`${name}${slice}`);
        await nextTurn();
      }
    };
    // A check-phase marker queued after every slice: with one setImmediate per slice the two
    // tasks' slices would run back to back between two markers.
    let turns = 0;
    const marker = (): void => {
      log.push('|');
      if (++turns < 8) setImmediate(marker);
    };
    setImmediate(marker);
    await Promise.all([task('a'), task('b')]);
    const slicesBetweenMarkers = log
      .join(' ')
      .split('|')
      .slice(1) // both tasks' first slices run at once, before any turn
      .map((between) => between.trim().split(' ').filter(Boolean).length);
    expect(Math.max(...slicesBetweenMarkers)).toBe(1);
    expect(log.filter((entry) => entry !== '|')).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2']);
  });

  it('resumes slices in the order they asked', async () => {
    const order: number[] = [];
    await Promise.all([1, 2, 3].map(async (n) => nextTurn().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });

  it('runs a generator one step per turn and resolves to what it returns', async () => {
    const log: string[] = [];
    function* steps(): Generator<void, number> {
      for (let step = 0; step < 3; step++) {
        log.push(`step${step}`);
        yield;
      }
      return 42;
    }
    setImmediate(() => log.push('turn'));
    expect(await inTurns(steps())).toBe(42);
    expect(log.slice(0, 3)).toEqual(['step0', 'turn', 'step1']);
  });
});
