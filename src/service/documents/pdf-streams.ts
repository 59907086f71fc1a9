/**
 * The inflated size of a PDF's Flate streams, counted before pdf.js sees the file: a "zip bomb"
 * (a small file whose streams expand to gigabytes) fails on the document's budget instead of
 * filling memory. Inflated bytes are counted and dropped as they come, so the check itself holds
 * one chunk at a time.
 */
import { createInflate, inflateSync } from 'node:zlib';
import { DocumentReadError, megabytes } from './budget';

/**
 * Output a stream is inflated to at once, in one call: a text PDF's streams are a few kilobytes,
 * and a zlib stream object per stream (its chunks handed to the thread pool and back) cost more
 * than the inflating (about 0.5 ms a page). Past this, or when damaged, the stream is counted
 * chunk by chunk instead.
 */
const AT_ONCE_BYTES = 1024 * 1024;

/** Bytes one compressed stream expands to, stopping once it passes `limit`. */
function inflatedLength(data: Buffer, limit: number): Promise<number> {
  try {
    return Promise.resolve(
      inflateSync(data, { maxOutputLength: Math.min(limit + 1, AT_ONCE_BYTES) }).length,
    );
  } catch {
    return inflatedLengthInChunks(data, limit);
  }
}

/** inflatedLength for a large or damaged stream: counted and dropped chunk by chunk. */
function inflatedLengthInChunks(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflate({ chunkSize: 256 * 1024 });
    let total = 0;
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        inflate.destroy();
        resolve(total);
      }
    });
    inflate.on('end', () => resolve(total));
    // A damaged stream is pdf.js's to judge; what it inflated so far still counts.
    inflate.on('error', () => resolve(total));
    inflate.end(data);
  });
}

/** Throws DocumentReadError when the Flate streams together expand beyond `maxBytes`. */
export async function checkInflatedSize(bytes: Uint8Array, maxBytes: number): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = 0;
  for (;;) {
    const start = text.indexOf('stream', at, 'latin1');
    if (start < 0) return;
    // Skip the `endstream` keyword itself.
    if (text.subarray(Math.max(0, start - 3), start).toString('latin1') === 'end') {
      at = start + 6;
      continue;
    }
    let dataStart = start + 6;
    if (text[dataStart] === 0x0d) dataStart++;
    if (text[dataStart] === 0x0a) dataStart++;
    const end = text.indexOf('endstream', dataStart, 'latin1');
    if (end < 0) return;
    const dict = text.subarray(Math.max(0, start - 400), start).toString('latin1');
    if (/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<')))) {
      total += await inflatedLength(text.subarray(dataStart, end), maxBytes - total);
      if (total > maxBytes) {
        throw new DocumentReadError(
          `The PDF's compressed streams expand beyond ${megabytes(maxBytes)} MB together; the file looks like a compression bomb`,
        );
      }
    }
    at = end + 9;
  }
}
