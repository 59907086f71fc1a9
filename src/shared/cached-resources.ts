/**
 * The resource shapes the cache stores: the shared /v2 schemas, loosened where a compatible
 * service may legitimately differ. `updated_at` is a Quayside extension, so services without it
 * (the reference service) are still accepted.
 */
import { Type, type Static, type TSchema } from 'typebox';
import type { RailTerminalResource } from './api/resources';
import {
  ContainerResource,
  ShipmentResource,
  TerminalResource,
  TransportEventResource,
} from './api/resources';
import { DateTime } from './api/common';

function withOptionalUpdatedAt<T extends TSchema>(resource: T) {
  const r = resource as unknown as {
    properties: { attributes: { properties: Record<string, TSchema> } } & Record<string, TSchema>;
  };
  return Type.Object({
    ...r.properties,
    attributes: Type.Object({
      ...r.properties.attributes.properties,
      updated_at: Type.Optional(DateTime),
    }),
  });
}

export const CachedShipment = withOptionalUpdatedAt(ShipmentResource);
export const CachedContainer = withOptionalUpdatedAt(ContainerResource);

/** Static types keep the shared attribute types, with `updated_at` possibly absent. */
type WithOptionalUpdatedAt<R extends { attributes: { updated_at: string } }> = Omit<
  R,
  'attributes'
> & { attributes: Omit<R['attributes'], 'updated_at'> & { updated_at?: string } };

export type CachedShipment = WithOptionalUpdatedAt<ShipmentResource>;
export type CachedContainer = WithOptionalUpdatedAt<ContainerResource>;
export type CachedEvent = Static<typeof TransportEventResource>;
export type CachedTerminal = Static<typeof TerminalResource> | Static<typeof RailTerminalResource>;

export { TransportEventResource as CachedEventSchema, TerminalResource as CachedTerminalSchema };
