/**
 * User edits of a shipment as use cases, callable without HTTP: ref numbers, tags, customer
 * (one of the account's parties), a trucker for every container, custom fields; and stopping or
 * resuming its tracking. Every value is checked before anything is written.
 */
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import { checkedTrucker } from '../parties';

/** What a PATCH /shipments/:id body may change (its `data`). */
export interface ShipmentEdit {
  attributes: { ref_numbers?: string[]; tags?: string[]; custom_fields?: Record<string, unknown> };
  relationships?: {
    customer?: { data: { id: string } | null };
    trucker?: { data: { id: string } | null };
  };
}

/** The account's shipment with this id, or undefined. */
export async function ownedShipment(ctx: ServiceContext, accountId: string, id: string) {
  if (!isUuid(id)) return undefined;
  return ctx.stores.reads.ownedShipment(accountId, id);
}

/** `relationships.customer`: null clears it; an id must be one of the account's parties. */
async function checkedCustomer(
  ctx: ServiceContext,
  accountId: string,
  ref: { id: string } | null | undefined,
): Promise<{ id: string; companyName: string } | null | undefined> {
  if (ref === null) return null;
  if (!ref) return undefined;
  const party = isUuid(ref.id) ? await ctx.stores.parties.owned(accountId, ref.id) : undefined;
  if (!party) {
    throw new ApiError(422, `No party with id ${ref.id}`, {
      code: 'not_found',
      source: { pointer: '/data/relationships/customer/data/id' },
    });
  }
  return { id: party.id, companyName: party.company_name };
}

/** Applies a PATCH /shipments/:id body to the account's shipment (a 404 when not its own). */
export async function editShipment(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  edit: ShipmentEdit,
) {
  if (!(await ownedShipment(ctx, accountId, id))) throw notFound();
  const { attributes, relationships } = edit;
  const clean = (list: string[] | undefined) =>
    list && [...new Set(list.map((v) => v.trim()).filter(Boolean))];
  const customer = await checkedCustomer(ctx, accountId, relationships?.customer?.data);
  const truckerRef = relationships?.trucker;
  const truckerId = !truckerRef
    ? undefined
    : truckerRef.data === null
      ? null
      : await checkedTrucker(
          ctx,
          accountId,
          truckerRef.data.id,
          '/data/relationships/trucker/data/id',
        );
  if (attributes.custom_fields) {
    await ctx.customFields.setMany(
      accountId,
      { type: 'shipment', id },
      attributes.custom_fields,
      '/data/attributes/custom_fields',
    );
  }
  await ctx.stores.edits.editShipment(accountId, id, {
    refNumbers: clean(attributes.ref_numbers),
    tags: clean(attributes.tags),
    customer,
  });
  if (truckerId !== undefined) {
    await ctx.stores.edits.assignShipmentTrucker(accountId, id, truckerId);
  }
  return (await ownedShipment(ctx, accountId, id))!;
}

/** Stops or resumes the line tracking of the account's shipment; a cancelled booking stays stopped. */
export async function setShipmentTracking(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  action: 'stop_tracking' | 'resume_tracking',
) {
  const existing = await ownedShipment(ctx, accountId, id);
  if (!existing) throw notFound();
  if (
    action === 'resume_tracking' &&
    existing.line_tracking_stopped_reason === 'booking_cancelled'
  ) {
    throw new ApiError(422, 'Tracking cannot be resumed for a cancelled booking');
  }
  await ctx.stores.tracking.setLineTracking(
    accountId,
    id,
    action === 'stop_tracking' ? 'cancelled_by_user' : null,
  );
  return (await ownedShipment(ctx, accountId, id))!;
}
