/**
 * The resource shapes the cache stores: the shared /v2 types, loosened to what the spec and the
 * reference actually require, because a compatible service (the reference service above all)
 * sends sparse records. The sync validates tolerantly (src/main/sync/tolerant-schemas.ts) and
 * then names every known attribute the service left out as null, so readers see
 * one shape; values the service sent, nulls included, are kept as sent, and so are attributes
 * Quayside does not know.
 *
 * Beyond the reference's nullable attributes, these may be null here: attributes the spec does
 * not require but the shared types hold as always present. `updated_at` is a Quayside extension.
 */
import type {
  ContainerResource,
  RailTerminalResource,
  ShipmentResource,
  TerminalResource,
  TransportEventResource,
} from './api/resources';

/** `A` with the members `K` also allowed to be null. */
type OrNull<A, K extends keyof A> = Omit<A, K> & { [P in K]: A[P] | null };

type ShipmentAttributes = OrNull<
  Omit<ShipmentResource['attributes'], 'updated_at'>,
  | 'normalized_number'
  | 'created_at'
  | 'shipping_line_scac'
  | 'shipping_line_name'
  | 'shipping_line_short_name'
  | 'tags'
> & { updated_at?: string };

type ContainerAttributes = OrNull<
  Omit<ContainerResource['attributes'], 'updated_at'>,
  | 'number'
  | 'ref_numbers'
  | 'created_at'
  | 'availability_known'
  | 'current_status'
  | 'holds_at_pod_terminal'
  | 'fees_at_pod_terminal'
> & { updated_at?: string };

type EventAttributes = OrNull<
  TransportEventResource['attributes'],
  'event' | 'created_at' | 'data_source'
>;

export interface CachedShipment {
  id: string;
  type: 'shipment';
  attributes: ShipmentAttributes;
  relationships: Partial<ShipmentResource['relationships']>;
  links?: { self: string };
}

export interface CachedContainer {
  id: string;
  type: 'container';
  attributes: ContainerAttributes;
  relationships?: Partial<ContainerResource['relationships']>;
  links?: { self: string };
}

export interface CachedEvent {
  id: string;
  type: 'transport_event';
  attributes: EventAttributes;
  relationships?: Partial<TransportEventResource['relationships']>;
}

/** Terminal attributes other than `name` may be absent or null. */
type OptionalStrings<A> = { [K in keyof A]: K extends 'name' ? A[K] : A[K] | null | undefined };

export type CachedTerminal =
  | {
      id: string;
      type: 'terminal';
      attributes: OptionalStrings<TerminalResource['attributes']>;
      relationships: Partial<TerminalResource['relationships']>;
    }
  | {
      id: string;
      type: 'rail_terminal';
      attributes: OptionalStrings<RailTerminalResource['attributes']>;
      relationships?: Partial<RailTerminalResource['relationships']>;
    };

/** The id of the container's assigned trucker (a Quayside extension relationship), if any. */
export function truckerIdOf(container: CachedContainer): string | null {
  const id: unknown = container.relationships?.trucker?.data?.id;
  return typeof id === 'string' ? id : null;
}
