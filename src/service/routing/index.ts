/**
 * Seam for the route map (`GET /containers/{id}/map_geojson`). The route builder (ports, vessel
 * positions, sea-route legs) plugs in here; until it does, every container has no route data
 * yet, which the API answers with an empty FeatureCollection.
 */
import type { RouteFeatureCollection } from '../../shared/api/resources';
import type { ContainersTable, ShipmentsTable } from '../store/schema';

export interface RouteBuilder {
  /** The container's route, or null when there is no route data yet. */
  build(input: {
    container: ContainersTable;
    shipment: ShipmentsTable;
  }): Promise<RouteFeatureCollection | null>;
}

export const noRouteBuilder: RouteBuilder = {
  build: async () => null,
};

export const emptyFeatureCollection = (): RouteFeatureCollection => ({
  type: 'FeatureCollection',
  features: [],
});
