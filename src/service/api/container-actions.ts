/**
 * Container actions beside the reads in containers.ts: editing ref numbers (one or many
 * containers), an immediate refresh from every relevant source, and the route as port calls.
 */
import { Type } from 'typebox';
import { ContainerResource } from '../../shared/api/resources';
import { ApiError, notFound } from '../jsonapi/errors';
import type { Resource } from '../jsonapi/include';
import { API_PREFIX, renderPort, renderVessel } from '../resources/render';
import { storedPortCalls } from '../routing';
import { CONTAINER_REFRESHES_PER_MINUTE } from '../rate-limit';
import { ROUTING_NOT_ENABLED } from './containers';
import { IdParams, accountOf, isUuid, sendDocument, sendJson, type ApiPlugin } from './http';
import { Nullable } from '../../shared/api/common';
import type { ContainerEdit } from '../store/record-edits';
import { checkedTrucker } from '../parties';

const MAX_BULK = 100;
const RefNumbers = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 });

/** `relationships.trucker` of a container edit (a Quayside extension). */
export const TruckerRelationship = Type.Object(
  { data: Nullable(Type.Object({ type: Type.Literal('party'), id: Type.String() })) },
  {
    'x-quayside-extension': true,
    description: "One of the account's parties with the `trucker` role; null clears it.",
  },
);

const ContainerEdit = Type.Object({
  type: Type.Literal('container'),
  id: Type.String(),
  attributes: Type.Optional(Type.Object({ ref_numbers: Type.Optional(RefNumbers) })),
  relationships: Type.Optional(Type.Object({ trucker: Type.Optional(TruckerRelationship) })),
});

const ContainersPatchBody = Type.Object({
  data: Type.Union([ContainerEdit, Type.Array(ContainerEdit, { minItems: 1, maxItems: MAX_BULK })]),
});
interface ContainerEditBody {
  id: string;
  attributes?: { ref_numbers?: string[] };
  relationships?: { trucker?: { data: { type: 'party'; id: string } | null } };
}
type ContainersPatchBody = { data: ContainerEditBody | ContainerEditBody[] };

const RouteDocument = Type.Object({
  data: Type.Object({
    id: Type.String(),
    type: Type.Literal('route'),
    attributes: Type.Object({ updated_at: Type.Union([Type.String(), Type.Null()]) }),
    relationships: Type.Object({}, { additionalProperties: true }),
  }),
  included: Type.Array(Type.Object({}, { additionalProperties: true })),
});

export const containerActionRoutes: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;

  async function findOwned(accountId: string, id: string) {
    if (!isUuid(id)) return undefined;
    return ctx.stores.reads.ownedContainer(accountId, id);
  }

  /** The checked trucker id (null clears); `seen` keeps the answers of one request. */
  async function truckerOf(
    accountId: string,
    id: string | null,
    pointer: string,
    seen: Map<string, string | null>,
  ): Promise<string | null> {
    if (id === null) return null;
    if (!seen.has(id)) seen.set(id, await checkedTrucker(ctx, accountId, id, pointer));
    return seen.get(id)!;
  }

  app.patch(
    '/containers',
    {
      schema: {
        tags: ['Containers'],
        summary: 'Edit the ref numbers (or trucker) of one container or of up to 100 at once',
        description:
          '`data` is one container (`{type, id, attributes: {ref_numbers}}`) or a list of them; the answer has the same form. All or nothing: when one id is not found, nothing changes (404 pointing at it). Quayside extension: `relationships.trucker` assigns a party with the `trucker` role (null clears it); an item may carry it instead of `attributes`.',
        body: ContainersPatchBody,
        response: {
          200: Type.Object({
            data: Type.Union([ContainerResource, Type.Array(ContainerResource)]),
          }),
        },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const body = request.body;
      const list = Array.isArray(body.data) ? body.data : [body.data];
      const at = (index: number) => (Array.isArray(body.data) ? `/data/${index}` : '/data');
      const truckers = new Map<string, string | null>();
      const edits: ContainerEdit[] = [];
      for (const [index, item] of list.entries()) {
        const refs = item.attributes?.ref_numbers;
        const trucker = item.relationships?.trucker;
        if (!refs && !trucker) {
          throw new ApiError(
            422,
            'Nothing to change: send attributes.ref_numbers or relationships.trucker',
            {
              source: { pointer: `${at(index)}/attributes` },
            },
          );
        }
        const edit: ContainerEdit = { id: item.id };
        if (refs) edit.refNumbers = [...new Set(refs.map((r) => r.trim()).filter(Boolean))];
        if (trucker) {
          edit.truckerId = await truckerOf(
            account.id,
            trucker.data?.id ?? null,
            `${at(index)}/relationships/trucker/data/id`,
            truckers,
          );
        }
        edits.push(edit);
      }
      const badId = list.findIndex((item) => !isUuid(item.id));
      const { missing } =
        badId >= 0
          ? { missing: [list[badId]!.id] }
          : await ctx.stores.edits.editContainers(account.id, edits);
      if (missing.length) {
        const index = list.findIndex((item) => item.id === missing[0]);
        throw new ApiError(404, `No container with id ${missing[0]}`, {
          source: { pointer: Array.isArray(body.data) ? `/data/${index}/id` : '/data/id' },
        });
      }
      const rows = await ctx.stores.resources.containers(edits.map((e) => e.id));
      const rendered = await render.containers(rows);
      const byId = new Map(rendered.map((r) => [r.id, r]));
      const data = edits.map((e) => byId.get(e.id)!);
      return sendDocument(reply, 200, { data: Array.isArray(body.data) ? data : data[0] });
    },
  );

  app.patch(
    '/containers/:id/refresh',
    {
      schema: {
        tags: ['Containers'],
        summary: 'Check every relevant source for this container now',
        description: `Schedules the shipping line (and, when the box has a POD terminal, the terminal) to be asked now instead of at the next scheduled check. Limited to ${CONTAINER_REFRESHES_PER_MINUTE} requests per minute per account (429 with Retry-After).`,
        params: IdParams,
        response: { 200: Type.Object({ message: Type.String() }) },
      },
      config: { containerRefresh: true },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const container = await findOwned(account.id, request.params.id);
      if (!container) throw notFound();
      const shipment = await ctx.stores.tracking.shipment(container.shipment_id);
      if (!shipment) throw notFound();
      if (shipment.line_tracking_stopped_at) {
        throw new ApiError(
          422,
          'Tracking is stopped for this shipment; resume tracking to refresh it',
          { code: 'tracking_stopped' },
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
      return sendJson(reply, 200, { message: `Started refresh for ${sources.join(', ')}` });
    },
  );

  app.get(
    '/containers/:id/route',
    {
      schema: {
        tags: ['Containers', 'Routing'],
        summary: "A container's route as port calls (routing entitlement)",
        description:
          'Not described by the reference API: the shape follows what its SDK reads (a `route` resource whose `route_locations` relationship lists the port calls, POL first, POD last) and is derived from the same port calls as `map_geojson`. Each included `route_location` carries inbound/outbound ETA, ATA, ETD, ATD, voyage numbers and vessels, with `location` (port), `inbound_vessel` and `outbound_vessel` relationships; ports and vessels are included.',
        params: IdParams,
        response: { 200: RouteDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      if (!account.routingEnabled) throw new ApiError(403, ROUTING_NOT_ENABLED);
      const container = await findOwned(account.id, request.params.id);
      if (!container) throw notFound();
      const shipment = await ctx.stores.tracking.shipment(container.shipment_id);
      if (!shipment) throw notFound();
      const calls = storedPortCalls(shipment);
      const included = new Map<string, Resource>();
      const vesselId = async (imo: string | null | undefined) => {
        if (!imo) return null;
        const vessel = await ctx.stores.vessels.find({ by: 'imo', imo });
        if (!vessel) return null;
        included.set(`vessel:${vessel.id}`, renderVessel(vessel));
        return vessel.id;
      };
      const locations: Resource[] = [];
      for (const call of calls) {
        const port = ctx.ref.portsByLocode.get(call.locode);
        if (port) included.set(`port:${port.id}`, renderPort(port, ctx.ref.terminalsOf(port.id)));
        const inbound = await vesselId(call.inbound_vessel?.imo);
        const outbound = await vesselId(call.outbound_vessel?.imo);
        const id = `${container.id}-${call.sequence}`;
        locations.push({
          id,
          type: 'route_location',
          attributes: {
            sequence: call.sequence,
            label: call.label,
            locode: call.locode,
            inbound_eta_at: call.inbound_eta_at,
            inbound_ata_at: call.inbound_ata_at,
            inbound_voyage_number: call.inbound_vessel?.voyage_number ?? null,
            inbound_vessel_name: call.inbound_vessel?.name ?? null,
            outbound_etd_at: call.outbound_etd_at,
            outbound_atd_at: call.outbound_atd_at,
            outbound_voyage_number: call.outbound_vessel?.voyage_number ?? null,
            outbound_vessel_name: call.outbound_vessel?.name ?? null,
            updated_at: call.updated_at,
          },
          relationships: {
            location: { data: port ? { id: port.id, type: 'port' } : null },
            inbound_vessel: { data: inbound ? { id: inbound, type: 'vessel' } : null },
            outbound_vessel: { data: outbound ? { id: outbound, type: 'vessel' } : null },
          },
        });
      }
      const updatedAt = calls.reduce<string | null>(
        (latest, c) => (c.updated_at && (!latest || c.updated_at > latest) ? c.updated_at : latest),
        null,
      );
      return sendDocument(reply, 200, {
        data: {
          id: container.id,
          type: 'route',
          attributes: { updated_at: updatedAt },
          relationships: {
            cargo: { data: { id: container.id, type: 'container' } },
            shipment: { data: { id: shipment.id, type: 'shipment' } },
            route_locations: { data: locations.map((l) => ({ id: l.id, type: l.type })) },
          },
          links: { self: `${API_PREFIX}/containers/${container.id}/route` },
        },
        included: [...locations, ...included.values()],
      });
    },
  );
};
