/**
 * A vessel's expected positions on its way to a port, callable without HTTP: from the previous
 * port or from given coordinates, along the sea lanes the route map uses, at the vessel's speed.
 */
import { isValidLonLat } from '../../shared/geo/antimeridian';
import { NoSeaRoute } from '../../shared/geo/sea-routes';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import { futurePositions } from './future-positions';
import { marineSeaRoutes } from './sea-routes-client';
import { parseVesselKey } from './vessel-positions';

/** Where a port is; an unknown port is a 404 and one without a position a 422, at `parameter`. */
function portPosition(ctx: ServiceContext, id: string, parameter: string): [number, number] {
  const port = isUuid(id) ? ctx.ref.portsById.get(id) : undefined;
  if (!port) throw new ApiError(404, `No port with id ${id}`, { source: { parameter } });
  if (port.latitude == null || port.longitude == null) {
    throw new ApiError(422, `The position of ${port.name} is not known`, {
      source: { parameter },
    });
  }
  return [port.longitude, port.latitude];
}

/**
 * The vessel (by id or IMO number) and its positions to `port_id`, starting at the previous port
 * or, when given, at `latitude`/`longitude`; an unknown vessel is a 404, no sea route a 422.
 */
export async function vesselFuturePositions(
  ctx: ServiceContext,
  vesselId: string,
  query: { port_id: string; previous_port_id: string; latitude?: number; longitude?: number },
  withCoordinates: boolean,
) {
  const key = parseVesselKey(vesselId);
  const vessel = key ? await ctx.stores.vessels.find(key) : undefined;
  if (!vessel) throw notFound();
  const to = portPosition(ctx, String(query.port_id), 'port_id');
  const previous = portPosition(ctx, String(query.previous_port_id), 'previous_port_id');
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
  try {
    const positions = await marineSeaRoutes().withRoutes((router) =>
      futurePositions({
        router,
        from,
        to,
        startMs: ctx.clock.now(),
        speedKnots: vessel.nautical_speed_knots,
      }),
    );
    return { vessel, positions };
  } catch (error) {
    if (error instanceof NoSeaRoute) throw new ApiError(422, 'No sea route connects these places');
    throw error;
  }
}
