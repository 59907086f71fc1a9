/**
 * The `delivery_order` member of a document upload (a Quayside extension): what a delivery
 * order stated, checked against its schema and the account (its container, its trucker) before
 * anything is stored. The document is then linked to the container and its shipment.
 */
import { Value } from 'typebox/value';
import { DeliveryOrderAttribute } from '../../shared/api/delivery-order';
import type { ServiceContext } from '../context';
import { ApiError } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import { checkedTrucker } from '../parties';

export const DELIVERY_ORDER_UPLOAD_DOC =
  "Quayside extension: a delivery order carries what it stated as `delivery_order` (JSON: `data.attributes.delivery_order`; multipart: a `delivery_order` field holding the JSON text): `container` {id, number}, `trucker` {id, name} (a party with the trucker role), `sent_at`, `last_free_day` {date, time_zone, source} or null, `terminal`, `pickup_appointment_at`, `holds` (codes) and `pickup_number`. The document keeps it as its `delivery_order` attribute and is linked to the container and its shipment; a container or trucker that is not the account's is a 422 naming it.";

/** Where an error in the member points, for either body kind. */
const at = (multipart: boolean, path: string) =>
  multipart
    ? { parameter: 'delivery_order' }
    : { pointer: `/data/attributes/delivery_order${path}` };

/**
 * The checked order with the container's number as the service knows it, and its shipment id;
 * undefined when the upload carries none.
 */
export async function checkedDeliveryOrder(
  ctx: ServiceContext,
  accountId: string,
  raw: unknown,
  multipart: boolean,
): Promise<{ order: DeliveryOrderAttribute; shipmentId: string } | undefined> {
  if (raw === undefined) return undefined;
  let value = raw;
  if (multipart) {
    try {
      value = JSON.parse(String(raw));
    } catch {
      throw new ApiError(422, 'delivery_order must be JSON text', { source: at(true, '') });
    }
  }
  if (!Value.Check(DeliveryOrderAttribute, value)) {
    const first = Value.Errors(DeliveryOrderAttribute, value)[0];
    const path = first?.instancePath ?? '';
    throw new ApiError(
      422,
      `delivery_order${path.replaceAll('/', '.')} ${first?.message ?? 'is not a delivery order'}`,
      { source: at(multipart, path) },
    );
  }
  const order = value;
  const container = isUuid(order.container.id)
    ? await ctx.stores.reads.ownedContainer(accountId, order.container.id)
    : undefined;
  if (!container) {
    throw new ApiError(422, `Couldn't find Container ${order.container.id}`, {
      code: 'not_found',
      source: at(multipart, '/container/id'),
    });
  }
  const pointer = multipart ? '' : '/data/attributes/delivery_order/trucker/id';
  try {
    await checkedTrucker(ctx, accountId, order.trucker.id, pointer);
  } catch (error) {
    if (multipart && error instanceof ApiError)
      throw new ApiError(422, error.message, { source: at(true, '') });
    throw error;
  }
  return {
    order: { ...order, container: { id: container.id, number: container.number } },
    shipmentId: container.shipment_id,
  };
}
