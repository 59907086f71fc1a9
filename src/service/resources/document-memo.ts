/**
 * Whole documents (a list page, a container's detail) kept as the bytes they were sent as. A
 * page of 100 containers with their shipments is a quarter of a megabyte of JSON: even from
 * cached renderings, looking up its resources, resolving its includes and encoding it took most
 * of a list response's CPU (about 340 µs a response; 120 to 180 µs when the kept bytes are sent,
 * mostly the socket's write). A detail is small, but the same steps were a third of its CPU.
 *
 * A document is kept against the key read it was made from, and used only while that read
 * answers the very same object (store/key-memo.ts, isKeptRead): a kept read is a new object
 * after any change to the rendered tables (containers, shipments and their events), so a
 * document is never sent after a change its own reading would have seen. That holds only for
 * what is made from those tables and from the reference data read once at start; a document with
 * anything else in it (custom field values, users, vessels) is made afresh every time.
 */
import type { FastifyRequest } from 'fastify';
import { ByteLru } from '../byte-lru';
import { includedTypes } from '../jsonapi/include';
import { isKeptRead } from '../store/key-memo';

/** What one memo's documents may take; a document bigger than a quarter of it is not kept. */
const DOCUMENT_MEMO_BYTES = 16 * 1024 * 1024;

/**
 * The types a kept document may hold: rendered from the rendered tables (whose every change
 * makes a new key read) or from reference data, which does not change while the service runs.
 */
const KEEPABLE_TYPES = new Set([
  'container',
  'shipment',
  'transport_event',
  'raw_event',
  'port',
  'metro_area',
  'terminal',
  'rail_terminal',
]);

interface KeptDocument {
  /** The key read the document was made from. */
  basis: object;
  body: Buffer | string;
}

/** The parts of a request a document's links are made from. */
type DocumentRequest = Pick<FastifyRequest, 'protocol' | 'host' | 'url'>;

/** What a document holds: its primary type, the include paths it resolved, custom fields or not. */
export interface DocumentContents {
  primaryType: string;
  include: string[][];
  customFields: boolean;
}

/**
 * Where one request's document stands: `kept`, the bytes to send as they are; else `keep`,
 * which keeps the document once made (and returns it), when it may be kept.
 */
export type DocumentSlot =
  | { kept: Buffer | string; keep?: undefined }
  | { kept?: undefined; keep?: (body: Buffer | string) => Buffer | string };

export class DocumentMemo {
  private readonly documents = new ByteLru<string, KeptDocument>(DOCUMENT_MEMO_BYTES);

  /** The slot of the document `request` asks of `accountId`, made from `basis`. */
  slot(
    accountId: string,
    request: DocumentRequest,
    basis: object,
    contents: DocumentContents,
  ): DocumentSlot {
    if (!isKeptRead(basis) || contents.customFields) return {};
    for (const type of includedTypes(contents.include, contents.primaryType))
      if (!KEEPABLE_TYPES.has(type)) return {};
    // The links are absolute: a document is kept per host and scheme as well as per query.
    const key = `${accountId} ${request.protocol}://${request.host}${request.url}`;
    const document = this.documents.get(key);
    if (document?.basis === basis) return { kept: document.body };
    return {
      keep: (body) => {
        this.documents.set(key, { basis, body }, Math.max(1, body.length));
        return body;
      },
    };
  }
}
