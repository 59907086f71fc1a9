/**
 * The route map (`GET /containers/{id}/map_geojson`): the builder seam, the empty answer for a
 * container without route data, and the port calls the tracking engine stores on the shipment.
 * The service wires the map in src/service/index.ts (createRouteMapService in route-map-service.ts).
 */
import type { RouteFeatureCollection } from '../../shared/api/resources';
import type { PortCall } from '../feeds/normalize/shipment-facts';
import type { ContainersTable, ShipmentsTable } from '../store/schema';

export interface RouteBuilder {
  /** The container's route, or null when there is no route data yet. */
  build(input: {
    container: ContainersTable;
    shipment: ShipmentsTable;
  }): Promise<RouteFeatureCollection | null>;
}

export const emptyFeatureCollection = (): RouteFeatureCollection => ({
  type: 'FeatureCollection',
  features: [],
});

/** The shipment's stored port calls; none when the line has not been read yet. */
export function storedPortCalls(shipment: Pick<ShipmentsTable, 'port_calls'>): PortCall[] {
  if (!shipment.port_calls) return [];
  try {
    const parsed = JSON.parse(shipment.port_calls) as unknown;
    return Array.isArray(parsed) ? (parsed as PortCall[]) : [];
  } catch {
    return [];
  }
}
