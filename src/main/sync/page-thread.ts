/**
 * Reads the walks' pages on a thread of their own (page-worker.ts): parsing, checking and
 * projecting a page of 100 containers with their events costs the main thread more than writing
 * it, and on the thread it overlaps the writes (the main thread writes a slice while the thread
 * prepares the next). Only plain values cross: the text in, rows and history texts out.
 *
 * One thread per process, started on first use and left idle between syncs (not keeping the
 * process alive). Where it cannot start, or stops, pages are read on the main thread instead,
 * a slice per turn (walk-page.ts `stepsHere`); a page the thread was reading when it stopped is
 * read again there (its slices already written are written again unchanged, which the cache
 * skips by their hashes).
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../native/worker-entry';
import type { PageRequest } from './page-worker';
import { stepsHere, walkPageFrom, type WalkKind, type WalkPage, type WalkStep } from './walk-page';

type ThreadStep =
  WalkStep | { type: 'syntax' } | { type: 'failed'; message: string } | { type: 'end' };

/** The steps of one page as the thread sends them. */
class StepQueue {
  private readonly steps: ThreadStep[] = [];
  private waiting: (() => void) | null = null;
  /** Set when the thread stopped before the page's end. */
  stopped = false;

  /** `hold`: keeps the process alive while a reader waits for the thread (and only then). */
  constructor(private readonly hold: (waiting: boolean) => void) {}

  push(step: ThreadStep): void {
    this.steps.push(step);
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  async take(): Promise<ThreadStep | null> {
    while (this.steps.length === 0) {
      if (this.stopped) return null;
      this.hold(true);
      try {
        await new Promise<void>((resolve) => (this.waiting = resolve));
      } finally {
        this.hold(false);
      }
    }
    return this.steps.shift()!;
  }
}

class PageThread {
  private worker: Worker | null = null;
  private failed = false;
  private lastId = 0;
  private readonly pages = new Map<number, StepQueue>();
  /** Readers waiting for the thread: only they keep the process alive. */
  private waiting = 0;

  private hold(waiting: boolean): void {
    this.waiting += waiting ? 1 : -1;
    if (this.waiting > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  /** The page's steps from the thread, or null when there is no thread (read here instead). */
  steps(kind: WalkKind, text: string): AsyncIterator<WalkStep> | null {
    const worker = this.running();
    if (!worker) return null;
    const id = ++this.lastId;
    const queue = new StepQueue((waiting) => this.hold(waiting));
    this.pages.set(id, queue);
    worker.postMessage({ id, kind, text } satisfies PageRequest);
    return this.iterate(id, queue, kind, text);
  }

  private async *iterate(
    id: number,
    queue: StepQueue,
    kind: WalkKind,
    text: string,
  ): AsyncGenerator<WalkStep> {
    let taken = 0;
    try {
      for (;;) {
        const step = await queue.take();
        if (step === null) {
          // The thread stopped: the page is read again here, past the steps already taken.
          let skip = taken;
          for await (const again of stepsHere(kind, text)) if (skip-- <= 0) yield again;
          return;
        }
        if (step.type === 'end') return;
        if (step.type === 'syntax') throw new SyntaxError('Unreadable JSON in a page');
        if (step.type === 'failed') throw new Error(step.message);
        taken++;
        yield step;
      }
    } finally {
      this.pages.delete(id);
    }
  }

  private running(): Worker | null {
    if (this.failed) return null;
    if (this.worker) return this.worker;
    try {
      // Built as its own file in out/main (see electron.vite.config.ts).
      const worker = startWorkerThread('page-worker', import.meta.url);
      worker.unref();
      worker.on('message', ({ id, ...step }: { id: number } & ThreadStep) => {
        this.pages.get(id)?.push(step as ThreadStep);
      });
      const stop = () => {
        this.failed = true;
        this.worker = null;
        for (const queue of this.pages.values()) queue.stop();
      };
      worker.on('error', stop);
      worker.on('exit', stop);
      this.worker = worker;
      return worker;
    } catch {
      this.failed = true;
      return null;
    }
  }
}

const thread = new PageThread();

/** The page's steps as the page thread reads them; null where the thread cannot run. */
export function stepsOnThread(kind: WalkKind, text: string): AsyncIterator<WalkStep> | null {
  return thread.steps(kind, text);
}

/**
 * A walk's page read from its text (on the page thread where there is one); null when the body
 * is JSON but no /v2 collection. Unreadable JSON throws a SyntaxError (the client asks again).
 */
export function readWalkPage(kind: WalkKind, text: string): Promise<WalkPage | null> {
  return walkPageFrom(stepsOnThread(kind, text) ?? stepsHere(kind, text));
}
