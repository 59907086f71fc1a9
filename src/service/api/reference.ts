import { Type } from 'typebox';
import {
  MetroAreaDocument,
  PortDocument,
  ShippingLineDocument,
  ShippingLineListDocument,
  TerminalDocument,
  VesselDocument,
} from '../../shared/api/documents';
import { ApiError, notFound } from '../jsonapi/errors';
import {
  PositionsQueryError,
  parseShowPositions,
  parseVesselKey,
  vesselDocument,
  type PositionsWindow,
} from '../routing/vessel-positions';
import { ROUTING_NOT_ENABLED } from './containers';
import { unconfiguredLine } from '../tracking/requests';
import { accountOf, sendDocument, type ApiPlugin } from './http';
import {
  renderMetro,
  renderPort,
  renderRailTerminal,
  renderShippingLine,
  renderTerminal,
} from '../resources/render';

const params = (name: string, description: string) =>
  Type.Object({ [name]: Type.String({ description }) });

/** Ports and metro areas by id or UN/LOCODE. */
const placeRoutes: ApiPlugin = async (app, { ctx }) => {
  const { ref } = ctx;

  app.get(
    '/ports/:id',
    {
      schema: {
        tags: ['Ports'],
        summary: 'Get a port by id or UN/LOCODE',
        params: params('id', 'Port id or UN/LOCODE'),
        response: { 200: PortDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params;
      const port = ref.portsById.get(id) ?? ref.portsByLocode.get(id.toUpperCase());
      if (!port) throw notFound();
      return sendDocument(reply, 200, { data: renderPort(port, ref.terminalsOf(port.id)) });
    },
  );

  app.get(
    '/metro_areas/:id',
    {
      schema: {
        tags: ['Metro Areas'],
        summary: 'Get a metro area by id or UN/LOCODE',
        params: params('id', 'Metro area id or UN/LOCODE'),
        response: { 200: MetroAreaDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params;
      const metro = ref.metrosById.get(id) ?? ref.metrosByLocode.get(id.toUpperCase());
      if (!metro) throw notFound();
      return sendDocument(reply, 200, { data: renderMetro(metro) });
    },
  );
};

/** Marine or rail terminals by id or FIRMS code. */
const terminalRoutes: ApiPlugin = async (app, { ctx }) => {
  const { ref } = ctx;
  app.get(
    '/terminals/:id',
    {
      schema: {
        tags: ['Terminals'],
        summary: 'Get a terminal (marine or rail) by id or FIRMS code',
        params: params('id', 'Terminal id or FIRMS code'),
        response: { 200: TerminalDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params;
      const marine = ref.terminalsById.get(id) ?? ref.terminalsByFirms.get(id.toUpperCase());
      if (marine) return sendDocument(reply, 200, { data: renderTerminal(marine) });
      const rail = ref.railTerminalsById.get(id) ?? ref.railTerminalsByFirms.get(id.toUpperCase());
      if (rail) return sendDocument(reply, 200, { data: renderRailTerminal(rail) });
      throw notFound();
    },
  );
};

/** A vessel by id or IMO number, with its recorded positions on request (routing entitlement). */
const vesselRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/vessels/:id',
    {
      schema: {
        tags: ['Vessels'],
        summary: 'Get a vessel by id or IMO number, with its position history on request',
        description:
          '`show_positions` (the routing entitlement) adds the recorded positions between ' +
          '`show_positions[from_timestamp]` (default: 7 days before the end) and ' +
          '`show_positions[to_timestamp]` (default: now); one request spans at most 31 days.',
        params: params('id', 'Vessel id or 7-digit IMO number'),
        querystring: Type.Object({
          show_positions: Type.Optional(
            Type.String({ description: '`true` for the last 7 days of positions' }),
          ),
          'show_positions[from_timestamp]': Type.Optional(
            Type.String({ description: 'ISO 8601 date-time; positions from this instant' }),
          ),
          'show_positions[to_timestamp]': Type.Optional(
            Type.String({ description: 'ISO 8601 date-time; positions up to this instant' }),
          ),
        }),
        response: { 200: VesselDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const key = parseVesselKey(request.params.id);
      if (!key) throw notFound();
      let window: PositionsWindow | null;
      try {
        window = parseShowPositions(request.query, ctx.clock.now());
      } catch (err) {
        if (!(err instanceof PositionsQueryError)) throw err;
        throw new ApiError(400, err.message, { source: { parameter: err.parameter } });
      }
      // The position history is a paid feature; the vessel itself is not.
      if (window && !account.routingEnabled) throw new ApiError(403, ROUTING_NOT_ENABLED);
      const vessel = await ctx.stores.vessels.find(key);
      if (!vessel) throw notFound();
      return sendDocument(reply, 200, await vesselDocument(vessel, ctx.positions, window));
    },
  );
};

/** Shipping lines, each saying whether this service can track it. */
const shippingLineRoutes: ApiPlugin = async (app, { ctx }) => {
  const { ref } = ctx;

  app.get(
    '/shipping_lines',
    {
      schema: {
        tags: ['Shipping Lines'],
        summary:
          'List the shipping lines (not paginated); the *_tracking_support flags are false for a line this service has no carrier source for',
        response: { 200: ShippingLineListDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      // Every known line; the tracking-support flags say which this service can track.
      const trackable = (scac: string) => !unconfiguredLine(ctx.config.supportedScacs, scac);
      return sendDocument(reply, 200, {
        data: ref.lines.map((l) => renderShippingLine(l, trackable(l.scac))),
        links: { self: `${request.protocol}://${request.host}${request.url}` },
      });
    },
  );

  app.get(
    '/shipping_lines/:id',
    {
      schema: {
        tags: ['Shipping Lines'],
        summary: 'Get a shipping line by id or SCAC',
        params: params('id', 'Shipping line id or SCAC'),
        response: { 200: ShippingLineDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params;
      const line = ref.lines.find((l) => l.id === id) ?? ref.linesByAnyScac.get(id.toUpperCase());
      if (!line) throw notFound();
      const trackable = !unconfiguredLine(ctx.config.supportedScacs, line.scac);
      return sendDocument(reply, 200, { data: renderShippingLine(line, trackable) });
    },
  );
};

/** Reference data: looked up by id or by natural key (UN/LOCODE, IMO, SCAC). */
export const referenceRoutes: ApiPlugin = async (app, options) => {
  await app.register(placeRoutes, options);
  await app.register(terminalRoutes, options);
  await app.register(vesselRoutes, options);
  await app.register(shippingLineRoutes, options);
};
