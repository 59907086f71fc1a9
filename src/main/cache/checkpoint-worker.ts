/**
 * The cache's checkpointing thread (started by checkpointer.ts): a second connection to the
 * cache file that runs a PASSIVE checkpoint on each request, so the writer never waits on one.
 *
 * Messages in: 'checkpoint' (answered with 'done', whatever the outcome) or 'close' (the
 * connection is closed, `closed[0]` set to 1 and notified, and the thread ends).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** What the thread is started with. */
export interface CheckpointWorkerData {
  file: string;
  /** The same driver options the writer opened the file with (which native addon, …). */
  options: Database.Options;
  /** Set to 1 by the thread once its connection is closed. */
  closed: Int32Array;
}

const port = parentPort;
if (!port) throw new Error('checkpoint-worker.ts runs as a worker thread');
const data = workerData as CheckpointWorkerData;
const db = new Database(data.file, data.options);
db.pragma('busy_timeout = 1000');

port.on('message', (message: unknown) => {
  if (message === 'close') {
    db.close();
    // Tells a waiting stop() that this connection is closed.
    Atomics.store(data.closed, 0, 1);
    Atomics.notify(data.closed, 0);
    process.exit(0);
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or failing: the writer's own automatic checkpoint still bounds the log.
  }
  port.postMessage('done');
});
