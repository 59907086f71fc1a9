/**
 * The lines a child process writes on one of its pipes, read without the pipe holding the
 * service's process open (the reader's process and channel are unref'd the same way).
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export function eachLine(
  stream: Readable | null | undefined,
  onLine: (line: string) => void,
): void {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
  (stream as Readable & { unref?: () => void }).unref?.();
}
