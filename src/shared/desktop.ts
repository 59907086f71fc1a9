/**
 * Shapes the desktop app's views work with: board queries and rows, container and shipment
 * detail, alerts. The cache (src/main/cache) produces them; the bridge carries them; the renderer
 * shows them. Query arguments are TypeBox schemas because they arrive from the renderer and are
 * validated; results are plain types produced by main.
 */
import { Type, type Static } from 'typebox';
import type { CachedContainer, CachedEvent, CachedShipment } from './cached-resources';
import type { AlertKind, ContainerLocation, LfdDeadline, LfdSource } from './container';

export const BOARD_VIEWS = [
  'needs_action_today',
  'lfd_next_3_days',
  'on_hold',
  'ready_for_pickup',
  'arriving_this_week',
  'at_sea',
] as const;
export type BoardView = (typeof BOARD_VIEWS)[number];

export const BOARD_COLUMNS = [
  'number',
  'billOfLading',
  'lineScac',
  'status',
  'podLocode',
  'terminalName',
  'vessel',
  'voyage',
  'etaAt',
  'ataAt',
  'dischargedAt',
  'availableForPickup',
  'ready',
  'holdsCount',
  'feesAmount',
  'lfd',
  'pickupAppointmentAt',
  'terminalCheckedAt',
  'updatedAt',
  'customer',
  'trucker',
] as const;
export type BoardColumn = (typeof BOARD_COLUMNS)[number];

/**
 * The board's LFD filters, by calendar day of each deadline's zone: a deadline already past, or
 * one still to meet that falls today, by tomorrow, within 3 or within 7 days.
 */
export const LFD_DUE_FILTERS = [
  'overdue',
  'today',
  'by_tomorrow',
  'next_3_days',
  'next_7_days',
] as const;
export type LfdDueFilter = (typeof LFD_DUE_FILTERS)[number];

/** One of a list of strings, keeping the literal union as the static type. */
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((value) => Type.Literal(value))));
const FilterValues = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 });
const Instant = Type.String({ format: 'date-time' });

/** A custom field's api_slug, as the service allows it. */
const CustomFieldSlug = Type.String({ pattern: '^[a-z][a-z0-9_]{0,62}$' });

/** Board columns of custom fields are keyed `cf:<api_slug>`. */
export const CUSTOM_FIELD_COLUMN_PREFIX = 'cf:';
export type CustomFieldColumnKey = `cf:${string}`;
export const customFieldColumnKey = (slug: string): CustomFieldColumnKey => `cf:${slug}`;

/** What the board sorts on: a built-in column, or a custom field by its slug (a bound value). */
export type BoardSortColumn = BoardColumn | CustomFieldColumnKey;
export const BoardSortColumn = Type.Union([
  literals(BOARD_COLUMNS),
  Type.Unsafe<CustomFieldColumnKey>(Type.String({ pattern: '^cf:[a-z][a-z0-9_]{0,62}$' })),
]);

/**
 * A filter on one custom field (a container's own value, else its shipment's). Each member
 * given must hold: `anyOf` option values (enum, multi-select: holds one of them; yes/no fields:
 * "true" / "false"), `contains` text (any case, in the shown value), `min` / `max` inclusive
 * bounds (numbers; dates as YYYY-MM-DD; date-times as ISO instants).
 */
export const CustomFieldFilter = Type.Object(
  {
    slug: CustomFieldSlug,
    anyOf: Type.Optional(FilterValues),
    contains: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    min: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    max: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type CustomFieldFilter = Static<typeof CustomFieldFilter>;

export const ContainerQuery = Type.Object(
  {
    view: Type.Optional(literals(BOARD_VIEWS)),
    /** Free text: container number, BL, reference numbers, vessel or customer (prefix match). */
    search: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(FilterValues),
    line: Type.Optional(FilterValues),
    pod: Type.Optional(FilterValues),
    terminal: Type.Optional(FilterValues),
    /** The shipments' customer names, exactly as shown. */
    customer: Type.Optional(FilterValues),
    /** Binding LFD window, ISO instants, inclusive. */
    lfdFrom: Type.Optional(Instant),
    lfdTo: Type.Optional(Instant),
    lfdDue: Type.Optional(literals(LFD_DUE_FILTERS)),
    hasHolds: Type.Optional(Type.Boolean()),
    /** Completed containers (empty returned) are left out unless this is true. */
    showCompleted: Type.Optional(Type.Boolean()),
    ready: Type.Optional(Type.Boolean()),
    /** Trucker party ids; `none` (TRUCKER_NONE) matches boxes without a trucker. */
    trucker: Type.Optional(FilterValues),
    customFields: Type.Optional(Type.Array(CustomFieldFilter, { maxItems: 20 })),
    /** Custom field columns to export after the built-in ones (ignored by the board itself). */
    customFieldColumns: Type.Optional(Type.Array(CustomFieldSlug, { maxItems: 50 })),
    sort: Type.Optional(
      Type.Object(
        {
          column: BoardSortColumn,
          direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
        },
        { additionalProperties: false },
      ),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);
export type ContainerQuery = Static<typeof ContainerQuery>;

/** The trucker filter's value for "no trucker assigned". */
export const TRUCKER_NONE = 'none';

/** A trucker (a party of the account with the trucker role), as the cache keeps it. */
export interface TruckerRecord {
  id: string;
  companyName: string;
  scac: string | null;
  contacts: { name: string | null; email: string | null; phone: string | null }[];
}

export interface BoardRow {
  id: string;
  shipmentId: string | null;
  number: string;
  billOfLading: string | null;
  lineScac: string | null;
  status: string;
  podLocode: string | null;
  podName: string | null;
  terminalName: string | null;
  vessel: string | null;
  voyage: string | null;
  etaAt: string | null;
  ataAt: string | null;
  dischargedAt: string | null;
  availabilityKnown: boolean;
  availableForPickup: boolean | null;
  ready: boolean;
  holdsCount: number;
  /** Names of the active holds (status `hold`), e.g. `customs`, `freight`. */
  holdNames: string[];
  feesAmount: number | null;
  feesCurrency: string | null;
  lfd: string | null;
  lfdSource: LfdSource | null;
  /** Every deadline, earliest first, each a calendar day of its own zone (shared LFD rule). */
  deadlines: LfdDeadline[];
  /** Where the box is: the port terminal, or the destination ramp for a rail move. */
  location: ContainerLocation;
  pickupAppointmentAt: string | null;
  /** When the full box left the terminal (the per diem clock starts). */
  pickedUpAt: string | null;
  terminalCheckedAt: string | null;
  updatedAt: string | null;
  podTimezone: string | null;
  destinationTimezone: string | null;
  customer: string | null;
  /** The assigned trucker's party id, and its name when the cache knows the party. */
  truckerId: string | null;
  trucker: string | null;
  /** Custom field values by api_slug: the container's own, else its shipment's. */
  customFields: Record<string, BoardCustomValue>;
}

export interface BoardCustomValue {
  /** The value as shown (option labels, Yes/No, a party's name). */
  text: string;
  /** The value as the service stores it. */
  value: unknown;
  /** The container has no value of its own; this one is its shipment's. */
  fromShipment: boolean;
}

/** A custom field as a board column: the definitions of one api_slug on containers and shipments. */
export interface CustomFieldColumn {
  slug: string;
  label: string;
  dataType: string;
  /** The records it is defined on. */
  on: ('Container' | 'Shipment')[];
  options: { value: string; label: string }[];
}

export interface BoardPage {
  total: number;
  offset: number;
  rows: BoardRow[];
}

export interface FacetValue {
  value: string;
  count: number;
}

export interface BoardFacets {
  status: FacetValue[];
  line: FacetValue[];
  pod: FacetValue[];
  terminal: FacetValue[];
  /** The shipments' customers (a party's name or the customer name the service shows). */
  customer: FacetValue[];
  /** The account's custom fields on containers and shipments (the optional board columns). */
  customFields: CustomFieldColumn[];
  /** The account's truckers (the trucker filter's choices, besides "no trucker"). */
  truckers: TruckerRecord[];
}

export interface ShipmentListRow {
  id: string;
  billOfLading: string;
  lineScac: string | null;
  customer: string | null;
  polLocode: string | null;
  podLocode: string | null;
  vessel: string | null;
  voyage: string | null;
  etaAt: string | null;
  ataAt: string | null;
  containers: number;
}

export interface ContainerDetail {
  row: BoardRow;
  container: CachedContainer;
  shipment: CachedShipment | null;
  holds: NonNullable<CachedContainer['attributes']['holds_at_pod_terminal']>;
  fees: NonNullable<CachedContainer['attributes']['fees_at_pod_terminal']>;
  deadlines: {
    pickupLfd: string | null;
    line: string | null;
    terminal: string | null;
    rail: string | null;
    binding: string | null;
    bindingSource: LfdSource | null;
  };
  /** Newest first. */
  events: CachedEvent[];
  routeMap: { fetchedAt: string; completed: boolean } | null;
}

export interface ShipmentDetail {
  shipment: CachedShipment;
  containers: BoardRow[];
}

/** An alert worked out from a change, before it is stored. */
export interface AlertDraft {
  kind: AlertKind;
  /** Stable for the same change, so re-applying it never stores a second alert. */
  dedupeKey: string;
  containerId: string | null;
  shipmentId: string | null;
  title: string;
  body: string;
}

export interface AlertRecord extends AlertDraft {
  id: number;
  createdAt: string;
  readAt: string | null;
  notifiedAt: string | null;
}

export interface AlertList {
  total: number;
  unread: number;
  alerts: AlertRecord[];
}
