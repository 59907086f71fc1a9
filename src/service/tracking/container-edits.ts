/**
 * User actions on containers as use cases, callable without HTTP: editing the ref numbers or the
 * trucker of one container or many (all or nothing), and asking every relevant source now.
 */
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import { checkedTrucker } from '../parties';
import type { ContainerEdit } from '../store/record-edits';

/** One item of a PATCH /containers body. */
export interface ContainerEditItem {
  id: string;
  attributes?: { ref_numbers?: string[] };
  relationships?: { trucker?: { data: { id: string } | null } };
}

/** The account's container with this id, or undefined. */
export async function ownedContainer(ctx: ServiceContext, accountId: string, id: string) {
  if (!isUuid(id)) return undefined;
  return ctx.stores.reads.ownedContainer(accountId, id);
}

/** Each item as an edit: something to change, the trucker checked (once per trucker). */
async function editsOf(
  ctx: ServiceContext,
  accountId: string,
  list: ContainerEditItem[],
  at: (index: number) => string,
): Promise<ContainerEdit[]> {
  const truckers = new Map<string, string | null>();
  const edits: ContainerEdit[] = [];
  for (const [index, item] of list.entries()) {
    const refs = item.attributes?.ref_numbers;
    const trucker = item.relationships?.trucker;
    if (!refs && !trucker) {
      throw new ApiError(
        422,
        'Nothing to change: send attributes.ref_numbers or relationships.trucker',
        { source: { pointer: `${at(index)}/attributes` } },
      );
    }
    const edit: ContainerEdit = { id: item.id };
    if (refs) edit.refNumbers = [...new Set(refs.map((r) => r.trim()).filter(Boolean))];
    if (trucker) {
      const id = trucker.data?.id ?? null;
      const pointer = `${at(index)}/relationships/trucker/data/id`;
      if (id !== null && !truckers.has(id)) {
        truckers.set(id, await checkedTrucker(ctx, accountId, id, pointer));
      }
      edit.truckerId = id === null ? null : truckers.get(id)!;
    }
    edits.push(edit);
  }
  return edits;
}

/**
 * Edits one container or many, all or nothing: an id that is not the account's container is a
 * 404 pointing at it and nothing changes. `many` says whether the body held a list. Gives the
 * edited containers' rows in the order asked.
 */
export async function editContainers(
  ctx: ServiceContext,
  accountId: string,
  list: ContainerEditItem[],
  many: boolean,
) {
  const at = (index: number) => (many ? `/data/${index}` : '/data');
  const edits = await editsOf(ctx, accountId, list, at);
  const badId = list.findIndex((item) => !isUuid(item.id));
  const { missing } =
    badId >= 0
      ? { missing: [list[badId]!.id] }
      : await ctx.stores.edits.editContainers(accountId, edits);
  if (missing.length) {
    const index = list.findIndex((item) => item.id === missing[0]);
    throw new ApiError(404, `No container with id ${missing[0]}`, {
      source: { pointer: many ? `/data/${index}/id` : '/data/id' },
    });
  }
  return {
    ids: edits.map((e) => e.id),
    rows: await ctx.stores.resources.containers(edits.map((e) => e.id)),
  };
}

/**
 * Schedules the shipping line (and the POD terminal, when the box has one) to be asked now; a
 * stopped shipment is a 422. Names the sources asked.
 */
export async function refreshContainer(ctx: ServiceContext, accountId: string, id: string) {
  const container = await ownedContainer(ctx, accountId, id);
  if (!container) throw notFound();
  const shipment = await ctx.stores.tracking.shipment(container.shipment_id);
  if (!shipment) throw notFound();
  if (shipment.line_tracking_stopped_at) {
    throw new ApiError(
      422,
      'Tracking is stopped for this shipment; resume tracking to refresh it',
      {
        code: 'tracking_stopped',
      },
    );
  }
  const now = new Date(ctx.clock.now()).toISOString();
  const sources = ['Shipping line'];
  if (container.pod_terminal_id) sources.push('Terminal');
  await ctx.stores.tracking.setShipmentSchedule(shipment.id, {
    next_line_check_at: now,
    ...(container.pod_terminal_id ? { next_terminal_check_at: now } : {}),
  });
  ctx.trackingRequestCreated?.();
  return sources;
}
