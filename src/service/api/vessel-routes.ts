/**
 * A vessel's expected positions on its way to a port (routing entitlement), from the previous
 * port or from given coordinates, along the sea lanes the route map uses.
 */
import { Type } from 'typebox';
import { ApiError } from '../jsonapi/errors';
import { renderVessel } from '../resources/render';
import { vesselFuturePositions } from '../routing/vessel-future';
import { ROUTING_NOT_ENABLED } from './containers';
import { accountOf, sendDocument, type ApiPlugin } from './http';

const VesselWithPositionsDocument = Type.Object({
  data: Type.Object({
    id: Type.String(),
    type: Type.Literal('vessel'),
    attributes: Type.Object({
      name: Type.String(),
      imo: Type.Union([Type.String(), Type.Null()]),
      positions: Type.Array(
        Type.Object({
          latitude: Type.Number(),
          longitude: Type.Number(),
          heading: Type.Union([Type.Number(), Type.Null()]),
          timestamp: Type.String({ format: 'date-time' }),
          estimated: Type.Boolean(),
        }),
      ),
    }),
  }),
  links: Type.Object({ self: Type.String() }),
});

const PortsQuery = {
  port_id: Type.String({ description: 'The destination port id' }),
  previous_port_id: Type.String({ description: 'The previous port id' }),
};

const DESCRIPTION =
  'Positions along the sea route to `port_id` at the vessel speed (its last AIS speed while under way, else 16 kn), ' +
  'timestamped from now. Positions are one minute apart, or evenly spaced in whole minutes when a voyage would take more than 720 positions.';

const CoordinatesQuery = {
  ...PortsQuery,
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
};

/** GET /vessels/:id/future_positions, or …_with_coordinates starting at given coordinates. */
const futurePositionsRoute =
  (withCoordinates: boolean): ApiPlugin =>
  async (app, { ctx }) => {
    app.get(
      withCoordinates
        ? '/vessels/:id/future_positions_with_coordinates'
        : '/vessels/:id/future_positions',
      {
        schema: {
          tags: ['Vessels', 'Routing'],
          summary: withCoordinates
            ? 'Expected positions of a vessel from given coordinates to a port (routing entitlement)'
            : 'Expected positions of a vessel between two ports (routing entitlement)',
          description: withCoordinates
            ? `${DESCRIPTION} The route starts at latitude/longitude.`
            : `${DESCRIPTION} The route starts at the previous port.`,
          params: Type.Object({ id: Type.String({ description: 'Vessel id or IMO number' }) }),
          querystring: Type.Object(withCoordinates ? CoordinatesQuery : PortsQuery),
          response: { 200: VesselWithPositionsDocument },
        },
      },
      async (request, reply) => {
        if (!accountOf(request).routingEnabled) throw new ApiError(403, ROUTING_NOT_ENABLED);
        const { id } = request.params;
        const found = await vesselFuturePositions(ctx, id, request.query, withCoordinates);
        const rendered = renderVessel(found.vessel);
        return sendDocument(reply, 200, {
          data: { ...rendered, attributes: { ...rendered.attributes, positions: found.positions } },
          links: { self: `${request.protocol}://${request.host}${request.url}` },
        });
      },
    );
  };

export const vesselRouteRoutes: ApiPlugin = async (app, options) => {
  await app.register(futurePositionsRoute(false), options);
  await app.register(futurePositionsRoute(true), options);
};
