/**
 * Long main-thread work shares the loop here. The sync (parsing a page, checking records,
 * writing a slice) and a view's cost sum run in short slices, each followed by
 * `await nextTurn()`. Several run at once (the next page is parsed while the current one is
 * written, a cost sum while a sync runs), and a setImmediate per slice would let all of them run
 * back to back in the same turn of the event loop. Here the waiting slices resume one per turn,
 * so timers, I/O and the UI get the loop between any two.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function resumeOne(): void {
  const next = waiting.shift();
  // Scheduled from inside the check phase, so it runs in the next turn, not this one.
  if (waiting.length > 0) setImmediate(resumeOne);
  else scheduled = false;
  next?.();
}

/** Resolves in a later turn of the event loop, after slices that asked before it. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(resumeOne);
    }
  });
}

/**
 * Runs work written as a generator, one step per turn: each `yield` ends a slice. Resolves to
 * the generator's return value.
 */
export async function inTurns<T>(steps: Generator<unknown, T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}
