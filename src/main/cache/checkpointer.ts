/**
 * Runs the cache's WAL checkpoints on a worker thread during a long run of writes (a full sync).
 *
 * A checkpoint copies the write-ahead log back into the database file and syncs both to disk;
 * done by SQLite's automatic checkpoint it runs inside the commit of whichever write crosses the
 * threshold, on the main thread, and on a busy disk that stalls the UI for 100 ms or more. A
 * PASSIVE checkpoint from a second connection does the same work without blocking the writer.
 * SQLite keeps checkpoints crash-safe whoever runs them; the writer keeps a (higher) automatic
 * threshold as a backstop in case the worker falls behind or fails. The thread's own code is
 * checkpoint-worker.ts, built as its own file in out/main (see electron.vite.config.ts).
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../native/worker-entry';
import { sqliteOptions } from '../../native/sqlite-binding';
import type { CheckpointWorkerData } from './checkpoint-worker';

/** The longest stop() waits for the worker to close its connection (a checkpoint finishing). */
const CLOSE_WAIT_MS = 2_000;

export class BackgroundCheckpointer {
  private worker: Worker | null = null;
  private busy = false;
  private failed = false;
  /** Set to 1 by the worker once its connection is closed. */
  private readonly closed = new Int32Array(new SharedArrayBuffer(4));

  /** `onFailure`: the worker could not start or died; the writer must checkpoint again. */
  constructor(
    private readonly file: string,
    private readonly onFailure: () => void,
  ) {}

  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    this.worker = null;
    this.onFailure();
  }

  /** Asks for a checkpoint unless one is already running. */
  request(): void {
    if (this.failed || this.busy) return;
    if (!this.worker) {
      try {
        this.worker = startWorkerThread('checkpoint-worker', import.meta.url, {
          workerData: {
            file: this.file,
            options: sqliteOptions(),
            closed: this.closed,
          } satisfies CheckpointWorkerData,
        });
      } catch {
        this.fail();
        return;
      }
      this.worker.unref();
      this.worker.on('message', () => {
        this.busy = false;
      });
      this.worker.on('error', () => this.fail());
    }
    this.busy = true;
    this.worker.postMessage('checkpoint');
  }

  /**
   * Stops the worker: it finishes a checkpoint in progress and closes its connection, and this
   * waits for that (at most CLOSE_WAIT_MS), so that once the cache is closed no connection to
   * its file is left (its folder can be removed or moved at once).
   */
  stop(): void {
    const worker = this.worker;
    this.worker = null;
    this.busy = false;
    if (!worker) return;
    worker.postMessage('close');
    Atomics.wait(this.closed, 0, 0, CLOSE_WAIT_MS);
  }
}
