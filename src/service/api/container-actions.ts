/**
 * Container actions beside the reads in containers.ts: editing ref numbers (one or many
 * containers), an immediate refresh from every relevant source, and the route as port calls.
 * The rules live in tracking/container-edits.ts; these routes type, call and render.
 */
import { Type } from 'typebox';
import { ContainerResource } from '../../shared/api/resources';
import { ApiError, notFound } from '../jsonapi/errors';
import type { Resource } from '../jsonapi/include';
import { API_PREFIX, renderPort, renderVessel } from '../resources/render';
import { storedPortCalls } from '../routing';
import { CONTAINER_REFRESHES_PER_MINUTE } from '../rate-limit';
import { ROUTING_NOT_ENABLED } from './containers';
import { IdParams, accountOf, sendDocument, sendJson, type ApiPlugin } from './http';
import { Nullable } from '../../shared/api/common';
import type { ServiceContext } from '../context';
import type { ContainersTable, ShipmentsTable } from '../store/schema';
import { editContainers, ownedContainer, refreshContainer } from '../tracking/container-edits';

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

const RouteDocument = Type.Object({
  data: Type.Object({
    id: Type.String(),
    type: Type.Literal('route'),
    attributes: Type.Object({ updated_at: Type.Union([Type.String(), Type.Null()]) }),
    relationships: Type.Object({}, { additionalProperties: true }),
  }),
  included: Type.Array(Type.Object({}, { additionalProperties: true })),
});

type PortCall = ReturnType<typeof storedPortCalls>[number];

/** One port call as a `route_location`, its port and vessels added to `included`. */
async function routeLocation(
  ctx: ServiceContext,
  containerId: string,
  call: PortCall,
  included: Map<string, Resource>,
): Promise<Resource> {
  const vesselId = async (imo: string | null | undefined) => {
    if (!imo) return null;
    const vessel = await ctx.stores.vessels.find({ by: 'imo', imo });
    if (!vessel) return null;
    included.set(`vessel:${vessel.id}`, renderVessel(vessel));
    return vessel.id;
  };
  const port = ctx.ref.portsByLocode.get(call.locode);
  if (port) included.set(`port:${port.id}`, renderPort(port, ctx.ref.terminalsOf(port.id)));
  const inbound = await vesselId(call.inbound_vessel?.imo);
  const outbound = await vesselId(call.outbound_vessel?.imo);
  return {
    id: `${containerId}-${call.sequence}`,
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
  };
}

/** The container's route as port calls: a `route` with its locations, ports and vessels. */
async function routeDocument(
  ctx: ServiceContext,
  container: ContainersTable,
  shipment: ShipmentsTable,
) {
  const calls = storedPortCalls(shipment);
  const included = new Map<string, Resource>();
  const locations: Resource[] = [];
  for (const call of calls) locations.push(await routeLocation(ctx, container.id, call, included));
  const updatedAt = calls.reduce<string | null>(
    (latest, c) => (c.updated_at && (!latest || c.updated_at > latest) ? c.updated_at : latest),
    null,
  );
  return {
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
  };
}

const bulkEditRoute: ApiPlugin = async (app, { ctx }) => {
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
      const { data: items } = request.body;
      const many = Array.isArray(items);
      const list = many ? items : [items];
      const { ids, rows } = await editContainers(ctx, accountOf(request).id, list, many);
      const byId = new Map((await ctx.render.containers(rows)).map((r) => [r.id, r]));
      const data = ids.map((id) => byId.get(id)!);
      return sendDocument(reply, 200, { data: many ? data : data[0] });
    },
  );
};

const refreshRoute: ApiPlugin = async (app, { ctx }) => {
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
      const sources = await refreshContainer(ctx, accountOf(request).id, request.params.id);
      return sendJson(reply, 200, { message: `Started refresh for ${sources.join(', ')}` });
    },
  );
};

const portCallRoute: ApiPlugin = async (app, { ctx }) => {
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
      const container = await ownedContainer(ctx, account.id, request.params.id);
      if (!container) throw notFound();
      const shipment = await ctx.stores.tracking.shipment(container.shipment_id);
      if (!shipment) throw notFound();
      return sendDocument(reply, 200, await routeDocument(ctx, container, shipment));
    },
  );
};

export const containerActionRoutes: ApiPlugin = async (app, options) => {
  await app.register(bulkEditRoute, options);
  await app.register(refreshRoute, options);
  await app.register(portCallRoute, options);
};
