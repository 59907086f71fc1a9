/**
 * A vessel's expected positions on its way to a port (routing entitlement), from the previous
 * port or from given coordinates, along the sea lanes the route map uses.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { isValidLonLat } from '../../shared/geo/antimeridian';
import { NoSeaRoute } from '../../shared/geo/sea-routes';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { renderVessel } from '../resources/render';
import { futurePositions } from '../routing/future-positions';
import { marineSeaRoutes } from '../routing/sea-routes-client';
import { parseVesselKey } from '../routing/vessel-positions';
import { ROUTING_NOT_ENABLED } from './containers';
import { accountOf, isUuid, sendDocument } from './http';

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

export function registerVesselRouteRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const portPosition = (id: string, parameter: string): [number, number] => {
    const port = isUuid(id) ? ctx.ref.portsById.get(id) : undefined;
    if (!port) throw new ApiError(404, `No port with id ${id}`, { source: { parameter } });
    if (port.latitude == null || port.longitude == null) {
      throw new ApiError(422, `The position of ${port.name} is not known`, {
        source: { parameter },
      });
    }
    return [port.longitude, port.latitude];
  };

  for (const withCoordinates of [false, true]) {
    const path = withCoordinates
      ? '/vessels/:id/future_positions_with_coordinates'
      : '/vessels/:id/future_positions';
    app.get(
      path,
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
          querystring: Type.Object(
            withCoordinates
              ? {
                  ...PortsQuery,
                  latitude: Type.Number({ minimum: -90, maximum: 90 }),
                  longitude: Type.Number({ minimum: -180, maximum: 180 }),
                }
              : PortsQuery,
          ),
          response: { 200: VesselWithPositionsDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        if (!account.routingEnabled) throw new ApiError(403, ROUTING_NOT_ENABLED);
        const key = parseVesselKey((request.params as { id: string }).id);
        const vessel = key ? await ctx.stores.vessels.find(key) : undefined;
        if (!vessel) throw notFound();
        const query = request.query as Record<string, string | number>;
        const to = portPosition(String(query.port_id), 'port_id');
        const previous = portPosition(String(query.previous_port_id), 'previous_port_id');
        let from: [number, number] = previous;
        if (withCoordinates) {
          const lat = Number(query.latitude);
          const lon = Number(query.longitude);
          if (!isValidLonLat(lon, lat)) {
            throw new ApiError(400, 'latitude and longitude must be a valid position', {
              source: { parameter: 'latitude' },
            });
          }
          from = [lon, lat];
        }
        let positions;
        try {
          positions = await marineSeaRoutes().withRoutes((router) =>
            futurePositions({
              router,
              from,
              to,
              startMs: ctx.clock.now(),
              speedKnots: vessel.nautical_speed_knots,
            }),
          );
        } catch (error) {
          if (error instanceof NoSeaRoute)
            throw new ApiError(422, 'No sea route connects these places');
          throw error;
        }
        const rendered = renderVessel(vessel);
        return sendDocument(reply, 200, {
          data: { ...rendered, attributes: { ...rendered.attributes, positions } },
          links: { self: `${request.protocol}://${request.host}${request.url}` },
        });
      },
    );
  }
}
