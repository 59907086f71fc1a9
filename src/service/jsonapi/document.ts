/**
 * Document serialization that reuses the JSON of resources rendered earlier. A resource whose
 * JSON was remembered (and which is frozen, so the text stays true) is copied into the document
 * as is; everything else goes through JSON.stringify. The result is the text
 * JSON.stringify(document) would produce.
 *
 * Remembered JSON is kept as strings, not Buffers: a Buffer's bytes live outside the V8 heap and
 * are freed only when a major collection finds their wrapper dead, so a walk over many rows
 * (each rendering evicting an older one) piled up tens of MB of freed-later native chunks that
 * the C allocator then kept as fragmented heap. Strings stay in the collected, compacted heap.
 */
import { deepFreeze } from '../../shared/deep-freeze';
import type { Resource } from './include';

const serialized = new WeakMap<object, string>();

/** The length of a resource's remembered JSON text (0 when none). */
export const serializedLength = (resource: object): number => serialized.get(resource)?.length ?? 0;

/** Freezes a resource and remembers its JSON text; returns the same object. */
export function rememberSerialized(resource: Resource): Resource {
  deepFreeze(resource);
  serialized.set(resource, JSON.stringify(resource));
  return resource;
}

/** Appends the JSON of `value` to `out`; false when JSON.stringify would leave it out. */
function appendValue(out: string[], value: unknown): boolean {
  if (value !== null && typeof value === 'object') {
    const text = serialized.get(value);
    if (text !== undefined) {
      out.push(text);
      return true;
    }
    if (Array.isArray(value)) {
      out.push('[');
      value.forEach((item, i) => {
        if (i > 0) out.push(',');
        // JSON.stringify writes undefined, function and symbol items as null.
        if (!appendValue(out, item)) out.push('null');
      });
      out.push(']');
      return true;
    }
  }
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return false;
  out.push(text);
  return true;
}

/**
 * Below this many characters a document is sent as one string: a Buffer of more than 4 KiB is
 * not cut from Node's shared pool but allocated on its own, outside the V8 heap, which costs a
 * detail answer more than joining its few pieces.
 */
const BUFFER_FROM_CHARS = 32 * 1024;

/** Where a long document's bytes are written: a buffer of at least `length` bytes, or undefined. */
export type BodyAllocator = (length: number) => Buffer | undefined;

/**
 * The JSON of a top-level document (an object of data, included, links, meta, ...): a string
 * when short, else its UTF-8 bytes, written into what `allocate` gives when it gives a buffer.
 */
export function serializeDocument(document: unknown, allocate?: BodyAllocator): Buffer | string {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return JSON.stringify(document) ?? '';
  }
  const out: string[] = ['{'];
  let first = true;
  for (const [key, value] of Object.entries(document)) {
    const start = out.length;
    out.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    // Properties JSON.stringify leaves out (undefined, functions, symbols) are left out here too.
    if (appendValue(out, value)) first = false;
    else out.length = start;
  }
  out.push('}');
  let chars = 0;
  for (const piece of out) chars += piece.length;
  return chars < BUFFER_FROM_CHARS ? out.join('') : encodeAll(out, allocate);
}

/**
 * The UTF-8 bytes of the pieces in order, written straight into one buffer: several times
 * faster than joining a page's pieces into one string and encoding that.
 */
function encodeAll(pieces: string[], allocate?: BodyAllocator): Buffer {
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = allocate?.(length) ?? Buffer.allocUnsafe(length);
  let offset = 0;
  for (const piece of pieces) offset += bytes.write(piece, offset);
  return bytes.length === length ? bytes : bytes.subarray(0, length);
}
