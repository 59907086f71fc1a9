/**
 * What an uploaded document must be, callable without HTTP: the JSON body's file (a base64
 * `data:` URL) and attached shipments, the shipments being the account's, the file not stored
 * before; then the one add path (`DocumentService.add`). Failures are JSON:API errors.
 */
import { ApiError } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { DocumentRow } from '../store/documents';
import { sha256Hex } from './files';
import type { ServiceContext } from '../context';
import { checkedDeliveryOrder } from './delivery-order-upload';
import { DocumentService } from './service';

/** How many shipments one upload may be attached to. */
export const MAX_SHIPMENTS = 10;

/** A file as it arrived, with the shipments to attach it to. */
export type IncomingDocument = {
  bytes: Uint8Array;
  fileName: string;
  name?: string;
  shipmentIds: string[];
  /** The `delivery_order` member as sent (checked by `checkedDeliveryOrder`). */
  deliveryOrderRaw?: unknown;
};

const DATA_URL_RE = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,([A-Za-z0-9+/=\s]*)$/;

/** The file of a JSON upload: `data.attributes.name` and `attached_document` (a data: URL). */
export function jsonFile(body: unknown): IncomingDocument {
  const attrs = (body as { data?: { type?: unknown; attributes?: Record<string, unknown> } })?.data
    ?.attributes;
  const pointer = (name: string) => ({ source: { pointer: `/data/attributes/${name}` } });
  if ((body as { data?: { type?: unknown } })?.data?.type !== 'document') {
    throw new ApiError(422, "data.type must be 'document'", { source: { pointer: '/data/type' } });
  }
  const name = attrs?.name;
  if (typeof name !== 'string' || !name.trim()) {
    throw new ApiError(422, "Name can't be blank", pointer('name'));
  }
  const attached = attrs?.attached_document;
  const match = typeof attached === 'string' ? DATA_URL_RE.exec(attached) : null;
  if (!match) {
    throw new ApiError(
      422,
      'attached_document must be a data: URL with the base64 file (or upload with multipart/form-data)',
      pointer('attached_document'),
    );
  }
  return {
    bytes: Buffer.from(match[2]!, 'base64'),
    fileName: name.trim(),
    name: name.trim(),
    shipmentIds: jsonShipmentIds(body),
    deliveryOrderRaw: attrs?.delivery_order,
  };
}

/** `data.relationships.shipments.data`: absent, or a list of shipment identifiers. */
function jsonShipmentIds(body: unknown): string[] {
  const relationships = (body as { data?: { relationships?: unknown } }).data?.relationships;
  if (relationships === undefined) return [];
  const shipments = (relationships as { shipments?: { data?: unknown } } | null)?.shipments;
  if (shipments === undefined) return [];
  const list = shipments?.data;
  if (!Array.isArray(list) || list.length > MAX_SHIPMENTS) {
    throw new ApiError(
      422,
      `relationships.shipments.data must be a list of at most ${MAX_SHIPMENTS} shipment identifiers`,
      { source: { pointer: '/data/relationships/shipments/data' } },
    );
  }
  return list.map((item: unknown, i) => {
    const ref = item as { type?: unknown; id?: unknown } | null;
    if (ref?.type !== 'shipment' || typeof ref.id !== 'string') {
      throw new ApiError(422, "Each shipment identifier is {type: 'shipment', id}", {
        source: { pointer: `/data/relationships/shipments/data/${i}` },
      });
    }
    return ref.id;
  });
}

/** Every attached shipment must be the account's; the error names the first that is not. */
async function checkShipments(
  documents: ServiceContext['documents'],
  accountId: string,
  ids: string[],
  multipartBody: boolean,
) {
  const own = await documents.store.ownShipmentIds(accountId, ids.filter(isUuid));
  const index = ids.findIndex((id) => !own.has(id));
  if (index < 0) return;
  throw new ApiError(422, `Couldn't find Shipment ${ids[index]}`, {
    source: multipartBody
      ? { parameter: 'shipment_id' }
      : { pointer: `/data/relationships/shipments/data/${index}/id` },
  });
}

/**
 * Stores an uploaded document and queues its extraction: the file checked (size, real type),
 * its shipments the account's, and no document of the account holding the same bytes (409).
 * `multipartBody` says where an error about a shipment points (a form field or the JSON body).
 */
export async function uploadDocument(
  ctx: ServiceContext,
  accountId: string,
  incoming: IncomingDocument,
  multipartBody: boolean,
): Promise<DocumentRow> {
  const { documents } = ctx;
  DocumentService.check(incoming);
  await checkShipments(documents, accountId, incoming.shipmentIds, multipartBody);
  const order = await checkedDeliveryOrder(
    ctx,
    accountId,
    incoming.deliveryOrderRaw,
    multipartBody,
  );
  const existing = await documents.store.byHash(accountId, sha256Hex(incoming.bytes));
  if (existing) {
    throw new ApiError(409, `This file was already uploaded as document ${existing.id}`, {
      code: 'duplicate_document',
    });
  }
  // A delivery order is kept with what it said, and attached to its container's shipment.
  const file = order
    ? {
        ...incoming,
        deliveryOrder: order.order,
        shipmentIds: [...new Set([...incoming.shipmentIds, order.shipmentId])],
      }
    : incoming;
  return documents.service.add(accountId, file, 'api');
}
