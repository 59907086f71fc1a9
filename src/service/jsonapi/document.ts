/**
 * Document serialization that reuses the JSON of resources rendered earlier. A resource whose
 * bytes were remembered (and which is frozen, so the bytes stay true) is copied into the
 * document as is; everything else goes through JSON.stringify. The bytes are the UTF-8 encoding
 * of what JSON.stringify(document) would produce.
 */
import type { Resource } from './include';

const serialized = new WeakMap<object, Buffer>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The length of a resource's remembered JSON bytes (0 when none). */
export const serializedLength = (resource: object): number => serialized.get(resource)?.length ?? 0;

/** Freezes a resource and remembers its JSON bytes; returns the same object. */
export function rememberSerialized(resource: Resource): Resource {
  deepFreeze(resource);
  const text = JSON.stringify(resource);
  // Not Buffer.from: a small buffer from Node's shared pool keeps its whole 8 KB slab alive for
  // as long as the render cache keeps the resource, several times the resource's own size.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  serialized.set(resource, bytes);
  return resource;
}

const COMMA = Buffer.from(',');
const NULL = Buffer.from('null');
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');

/** Appends the JSON of `value` to `out`; false when JSON.stringify would leave it out. */
function appendValue(out: Buffer[], value: unknown): boolean {
  if (value !== null && typeof value === 'object') {
    const bytes = serialized.get(value);
    if (bytes) {
      out.push(bytes);
      return true;
    }
    if (Array.isArray(value)) {
      out.push(OPEN_ARRAY);
      value.forEach((item, i) => {
        if (i > 0) out.push(COMMA);
        // JSON.stringify writes undefined, function and symbol items as null.
        if (!appendValue(out, item)) out.push(NULL);
      });
      out.push(CLOSE_ARRAY);
      return true;
    }
  }
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return false;
  out.push(Buffer.from(text));
  return true;
}

/** UTF-8 JSON of a top-level document (an object of data, included, links, meta, ...). */
export function serializeDocument(document: unknown): Buffer {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return Buffer.from(JSON.stringify(document) ?? '');
  }
  const out: Buffer[] = [Buffer.from('{')];
  let first = true;
  for (const [key, value] of Object.entries(document)) {
    const start = out.length;
    out.push(Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`));
    // Properties JSON.stringify leaves out (undefined, functions, symbols) are left out here too.
    if (appendValue(out, value)) first = false;
    else out.length = start;
  }
  out.push(Buffer.from('}'));
  return Buffer.concat(out);
}
