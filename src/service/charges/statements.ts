/**
 * Demurrage and detention statements as use cases, callable without HTTP: one container's
 * (src/shared/charges/statement.ts) from what the service knows (the container, its shipment,
 * its POD terminal and its transport events, priced with the default cost tables), and a
 * customer's pass-through statement over a date range. Hold history is not kept by the service:
 * the holds of the terminal's last check stand from that check on.
 */
import { DateTime } from 'luxon';
import {
  chargesStatement,
  PASS_THROUGH_LIMITS,
  passThroughStatement,
  type ChargesInput,
} from '../../shared/charges/statement';
import { DEFAULT_COST_TABLES } from '../../shared/cost-clock';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { Resource } from '../jsonapi/include';

const ALL_EVENTS = { size: 10_000, offset: 0 };

export const MAX_PASS_THROUGH_CONTAINERS = PASS_THROUGH_LIMITS.containers;
export const MAX_PASS_THROUGH_DAYS = PASS_THROUGH_LIMITS.days;

/** One rendered container's statement, from its shipment, terminal and events. */
async function statementOf(ctx: ServiceContext, accountId: string, container: Resource) {
  const rel = (name: string) => {
    const data = container.relationships?.[name]?.data;
    return data && !Array.isArray(data) ? data.id : null;
  };
  const shipmentId = rel('shipment');
  const terminalId = rel('pod_terminal');
  const [shipments, terminals, events] = await Promise.all([
    shipmentId ? ctx.render.load(accountId, 'shipment', [shipmentId]) : [],
    terminalId ? ctx.render.load(accountId, 'terminal', [terminalId]) : [],
    ctx.stores.reads.transportEvents(container.id, ALL_EVENTS),
  ]);
  const terminalName = terminals[0]?.attributes.name;
  return chargesStatement({
    container: container.attributes as unknown as ChargesInput['container'],
    shipment: (shipments[0]?.attributes ?? null) as ChargesInput['shipment'],
    terminalName: typeof terminalName === 'string' ? terminalName : null,
    events: events.rows.map((e) => ({ event: e.event, timestamp: e.timestamp })),
    tables: DEFAULT_COST_TABLES,
    now: ctx.clock.now(),
  });
}

/** The account's container with this id (any other is a 404) and its statement. */
export async function containerCharges(ctx: ServiceContext, accountId: string, id: string) {
  const key = isUuid(id) ? await ctx.stores.reads.ownedContainerKey(accountId, id) : undefined;
  const [container] = key ? await ctx.render.containersByKey([key], undefined) : [];
  if (!container) throw notFound();
  return { containerId: container.id, statement: await statementOf(ctx, accountId, container) };
}

/** A bare calendar date that exists (`2026-02-30` does not). */
function dateParam(value: unknown, name: string): string {
  const text = typeof value === 'string' ? value : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !DateTime.fromISO(text, { zone: 'UTC' }).isValid) {
    throw new ApiError(400, `${name} must be a date (yyyy-MM-dd)`, { source: { parameter: name } });
  }
  return text;
}

/** `filter[from]` and `filter[to]`: dates in order, spanning at most MAX_PASS_THROUGH_DAYS. */
function dateRange(rawFrom: unknown, rawTo: unknown) {
  const from = dateParam(rawFrom, 'filter[from]');
  const to = dateParam(rawTo, 'filter[to]');
  const span = DateTime.fromISO(to, { zone: 'UTC' }).diff(
    DateTime.fromISO(from, { zone: 'UTC' }),
    'days',
  ).days;
  if (span < 0) {
    throw new ApiError(400, 'filter[to] must not be before filter[from]', {
      source: { parameter: 'filter[to]' },
    });
  }
  if (span >= MAX_PASS_THROUGH_DAYS) {
    throw new ApiError(400, `The range may span at most ${MAX_PASS_THROUGH_DAYS} days`, {
      source: { parameter: 'filter[to]' },
    });
  }
  return { from, to };
}

/**
 * The party's pass-through statement: each of its containers (at most
 * MAX_PASS_THROUGH_CONTAINERS) with its charged days in the range. A bad range is a 400, a party
 * that is not the account's a 404.
 */
export async function partyCharges(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  range: { from: unknown; to: unknown },
) {
  const { from, to } = dateRange(range.from, range.to);
  const party = isUuid(id) ? await ctx.stores.parties.owned(accountId, id) : undefined;
  if (!party) throw notFound();
  const keys = await ctx.stores.parties.containerKeys(
    accountId,
    party.id,
    MAX_PASS_THROUGH_CONTAINERS,
  );
  const containers = await ctx.render.containersByKey(keys, undefined);
  const items = [];
  for (const container of containers) {
    items.push({
      containerId: container.id,
      statement: await statementOf(ctx, accountId, container),
    });
  }
  return {
    partyId: party.id,
    statement: passThroughStatement(party.company_name, from, to, items),
  };
}
