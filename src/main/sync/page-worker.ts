/**
 * The sync's page thread (started by page-thread.ts): reads a walk's page from the service's
 * text to rows ready to write (walk-page.ts), so that the main thread only runs the writes, each
 * while this thread prepares the next slice.
 *
 * Messages in: `{ id, kind, text }`. Out, for each id in order: its steps (`WalkStep`, records
 * left out: only plain values cross), `{ id, type: 'syntax' }` for unreadable JSON,
 * `{ id, type: 'failed', message }` when reading it failed otherwise, and `{ id, type: 'end' }`.
 */
import { parentPort } from 'node:worker_threads';
import { walkPageSteps, type WalkKind } from './walk-page';

export interface PageRequest {
  id: number;
  kind: WalkKind;
  text: string;
}

const port = parentPort;
if (!port) throw new Error('page-worker.ts runs as a worker thread');

port.on('message', ({ id, kind, text }: PageRequest) => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    port.postMessage({ id, type: 'syntax' });
    return;
  }
  try {
    for (const step of walkPageSteps(kind, body, false)) {
      if (step) port.postMessage({ id, ...step });
    }
  } catch (error) {
    // A fault in reading one page fails that page, not the thread.
    port.postMessage({ id, type: 'failed', message: String((error as Error)?.message ?? error) });
    return;
  }
  port.postMessage({ id, type: 'end' });
});
