/**
 * Runs the cache's WAL checkpoints on a worker thread during a long run of writes (a full sync).
 *
 * A checkpoint copies the write-ahead log back into the database file and syncs both to disk;
 * done by SQLite's automatic checkpoint it runs inside the commit of whichever write crosses the
 * threshold, on the main thread, and on a busy disk that stalls the UI for 100 ms or more. A
 * PASSIVE checkpoint from a second connection does the same work without blocking the writer.
 * SQLite keeps checkpoints crash-safe whoever runs them; the writer keeps a (higher) automatic
 * threshold as a backstop in case the worker falls behind or fails. The thread's own code is
 * checkpoint-worker.ts.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sqliteOptions } from '../../native/sqlite-binding';
import type { CheckpointWorkerData } from './checkpoint-worker';

/**
 * Starts the checkpointing thread (checkpoint-worker.ts). The built app bundles it as its own
 * file in out/main (see electron.vite.config.ts), beside this module's bundle or one folder
 * above its chunk; from source (the CLI, tests) it is the TypeScript module beside this one,
 * run through tsx, registered in the thread before the module is loaded.
 */
function startCheckpointWorker(workerData: CheckpointWorkerData): Worker {
  for (const candidate of ['./checkpoint-worker.js', '../checkpoint-worker.js']) {
    const built = new URL(candidate, import.meta.url);
    if (existsSync(fileURLToPath(built))) return new Worker(built, { workerData });
  }
  const source = new URL('./checkpoint-worker.ts', import.meta.url);
  return new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); })`,
    { eval: true, workerData },
  );
}

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
        this.worker = startCheckpointWorker({
          file: this.file,
          options: sqliteOptions(),
          closed: this.closed,
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
