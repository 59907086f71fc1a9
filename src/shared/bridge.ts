/**
 * The bridge contract between the renderer and the main process: request methods
 * (name -> argument schema -> result schema) and push events (name -> payload schema).
 *
 * Main registers one handler per method through a wrapper that validates every argument against
 * these schemas. Electron IPC (preload) and browser mode (HTTP + server-sent events) are two
 * transports of this same contract; the renderer cannot tell them apart. Methods are intent-level
 * (never SQL); later features add methods here and nowhere else.
 */
import { Type, type Static, type TSchema } from 'typebox';
import type { RouteFeatureCollection } from './api/resources';
import { ALERT_KINDS, type AlertKind } from './container';
import {
  ContainerQuery,
  type AlertList,
  type BoardFacets,
  type BoardRow,
  type BoardPage,
  type BoardView,
  type ContainerDetail,
  type ShipmentDetail,
  type ShipmentListRow,
  type TruckerRecord,
} from './desktop';
import type { BRIDGE_METHOD_LIST } from './bridge-names';
import { MAX_DOCUMENT_BYTES, type DocumentSummary } from './documents';
import { MAX_IDENTIFIER_LENGTH } from './find-link';
import { Settings, SettingsPatch } from './settings';
import type { WorklistGroup, WorklistSection } from './worklist';
import type { CostTotals } from './cost-clock';
import type { ContainerCharges, PassThroughStatement } from './charges/statement';
import { MAX_SPREADSHEET_BYTES, type SpreadsheetImport } from './spreadsheet-import';

const NoArgument = Type.Null();

export const AppInfo = Type.Object({
  name: Type.String(),
  version: Type.String(),
  /** How the UI is hosted: an Electron window, or a browser tab served on 127.0.0.1. */
  shell: Type.Union([Type.Literal('electron'), Type.Literal('browser')]),
  platform: Type.String(),
  dataDir: Type.String(),
});

export const SyncStatus = Type.Object({
  state: Type.Union([
    Type.Literal('idle'),
    Type.Literal('syncing'),
    Type.Literal('offline'),
    /** The service was not answering and the app is trying it again. */
    Type.Literal('reconnecting'),
    Type.Literal('error'),
  ]),
  /** 0..1 while syncing, else null. */
  progress: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
  /** Plain-words reason for `offline`, `reconnecting` and `error`. */
  message: Type.Union([Type.String(), Type.Null()]),
  /** Wall-clock time of the last complete sync (never the simulated clock). */
  lastSuccessAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Wall-clock time since when the service has not been answering; null while it answers. */
  offlineSince: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  /**
   * True while the shown source's first sync has not yet brought what the service has: the
   * views say "loading", never "nothing to act on" or "up to date".
   */
  firstSync: Type.Optional(Type.Boolean()),
});

/** A result main produces (never validated at runtime: only its static type matters). */
const result = <T>() => Type.Unsafe<T>({});

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Paging = {
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
};

export const REQUEST_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;

/** A custom field of a container or shipment as the detail views show and edit it. */
export interface CustomFieldEntry {
  apiSlug: string;
  displayName: string;
  /** short_text, number, date, datetime, boolean, enum, enum_multi, reference */
  dataType: string;
  /** The choices of enum fields, in their order. */
  options: { value: string; label: string }[];
  /** Null when not set. */
  value: unknown;
  displayValue: string | null;
}

export type CustomFieldsResult =
  { ok: true; fields: CustomFieldEntry[] } | { ok: false; message: string };

const CustomFieldTarget = {
  entityType: Type.Union([
    Type.Literal('container'),
    Type.Literal('shipment'),
    Type.Literal('tracking_request'),
  ]),
  id: Id,
};

/** A value to set: text, number, yes/no, a list of option values, or null to clear it. */
export const CustomFieldValueArgument = Type.Union([
  Type.String({ maxLength: 1000 }),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }),
  Type.Null(),
]);

/** What one tracking request may carry; the Track form and spreadsheet import check these first. */
export const TRACK_LIMITS = {
  numberLength: 64,
  referenceLength: 100,
  listItems: 20,
  customerLength: 100,
} as const;

const ListItem = Type.String({ maxLength: TRACK_LIMITS.referenceLength });

export const TrackingRequestDraft = Type.Object(
  {
    requestType: Type.Unsafe<(typeof REQUEST_TYPES)[number]>(
      Type.Union(REQUEST_TYPES.map((type) => Type.Literal(type))),
    ),
    number: Type.String({ minLength: 1, maxLength: TRACK_LIMITS.numberLength }),
    scac: Type.String({ pattern: '^[A-Za-z]{4}$' }),
    refNumbers: Type.Optional(Type.Array(ListItem, { maxItems: TRACK_LIMITS.listItems })),
    tags: Type.Optional(Type.Array(ListItem, { maxItems: TRACK_LIMITS.listItems })),
    /**
     * The customer's company name: the request names the account's party of that name as its
     * customer (created when there is none yet), as the reference API's `customer` relationship.
     */
    customer: Type.Optional(
      Type.String({ minLength: 1, maxLength: TRACK_LIMITS.customerLength, pattern: '\\S' }),
    ),
  },
  { additionalProperties: false },
);
export type TrackingRequestDraft = Static<typeof TrackingRequestDraft>;

/** A tracking request as the Track and Requests views show it. */
export interface TrackingRequestRow {
  id: string;
  requestType: string;
  number: string;
  scac: string;
  status: string;
  failedReason: string | null;
  /** The failed reason in plain words. */
  failedReasonText: string | null;
  isRetrying: boolean;
  createdAt: string;
  updatedAt: string | null;
  refNumbers: string[];
  tags: string[];
}

export type CreateTrackingRequestResult =
  | { ok: true; request: TrackingRequestRow }
  | {
      ok: false;
      message: string;
      field: 'number' | 'scac' | 'requestType' | null;
      /** Refused because the number is already tracked. */
      duplicate?: boolean;
    };

export interface ShippingLineOption {
  scac: string;
  name: string;
  shortName: string;
}

export interface ConnectionCheck {
  ok: boolean;
  message: string;
  incrementalSync: boolean | null;
}

export interface CacheInfo {
  path: string;
  sizeBytes: number;
  shipments: number;
  containers: number;
  events: number;
}

export interface RouteMapResult {
  geojson: RouteFeatureCollection;
  fetchedAt: string;
  completed: boolean;
}

/** The morning worklist: sections by urgency with their places (terminals, ramps), and counts. */
export interface Worklist {
  sections: WorklistGroup<BoardRow>[];
  counts: Record<WorklistSection, number>;
  /** What the listed boxes cost, with the tariffs in the settings. */
  cost: CostTotals;
}

/** A number's kind and line as the service infers them (null: it cannot tell). */
export interface InferredNumber {
  number: string;
  requestType: (typeof REQUEST_TYPES)[number] | null;
  scac: string | null;
  lineName: string | null;
}

export interface TrackNumberOutcome {
  number: string;
  ok: boolean;
  message: string;
}

/**
 * How a cached document opens: Electron hands the file to the OS viewer; browser mode gives the
 * tab an address that serves it.
 */
/** The app's time as main reports it; the renderer extrapolates with `timeAt`. */
export interface AppClock {
  now: string;
  /** Clock milliseconds per real millisecond (600 in the demo world, 1 for real time). */
  speed: number;
  /** True while the clock follows the built-in simulated world (the demo). */
  simulated: boolean;
  /** False while the simulated world is not running (its service is down): time stands still. */
  running: boolean;
}

export type OpenDocumentResult = { opened: true } | { opened: false; url: string };

const DocumentId = Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' });

/** Where a find link leads (src/main/cache/find-resolver.ts decides). */
export type FindTarget =
  | { kind: 'container'; id: string; number: string }
  | { kind: 'shipment'; id: string; number: string }
  | { kind: 'board'; search: string };

export const bridgeMethods = {
  getAppInfo: { argument: NoArgument, result: AppInfo },
  getSettings: { argument: NoArgument, result: Settings },
  updateSettings: { argument: SettingsPatch, result: Settings },
  getSyncStatus: { argument: NoArgument, result: SyncStatus },
  /**
   * The app's time: real time with a remote service; the simulated world's time (running
   * `speed` times faster) with the embedded one. Countdowns and "stale" marks use it.
   */
  getClock: { argument: NoArgument, result: result<AppClock>() },
  syncNow: { argument: NoArgument, result: SyncStatus },

  listContainers: { argument: ContainerQuery, result: result<BoardPage>() },
  getBoardFacets: { argument: NoArgument, result: result<BoardFacets>() },
  getViewCounts: { argument: NoArgument, result: result<Record<BoardView, number>>() },
  /** What to act on today, by terminal, read in each terminal's calendar day. */
  getWorklist: { argument: NoArgument, result: result<Worklist>() },
  /** What the containers of a board query cost: demurrage accrued, tomorrow's increase, per diem. */
  getViewCost: { argument: ContainerQuery, result: result<CostTotals>() },
  getContainerDetail: {
    argument: Type.Object({ id: Id }, { additionalProperties: false }),
    result: result<ContainerDetail | null>(),
  },
  /** A container's D&D statement from the cache, with the invoice entered for it. */
  getContainerCharges: {
    argument: Type.Object({ id: Id }, { additionalProperties: false }),
    result: result<ContainerCharges | null>(),
  },
  /** A customer's pass-through D&D statement over a date range, from the cache. */
  getCustomerCharges: {
    argument: Type.Object(
      {
        customer: Type.String({ minLength: 1, maxLength: 200 }),
        from: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
        to: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
      },
      { additionalProperties: false },
    ),
    result: result<PassThroughStatement>(),
  },
  /** Enters (or, with null, removes) the D&D invoice received for a container. */
  setReceivedInvoice: {
    argument: Type.Object(
      {
        containerId: Id,
        invoice: Type.Union([
          Type.Object(
            {
              amount: Type.Number({ minimum: 0, maximum: 10_000_000 }),
              currency: Type.String({ pattern: '^[A-Z]{3}$' }),
              date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ]),
      },
      { additionalProperties: false },
    ),
    result: result<ContainerCharges | null>(),
  },
  /** What a find link opens: a container, a shipment, or the board filtered by the text. */
  findRecord: {
    argument: Type.Object(
      { q: Type.String({ minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH }) },
      { additionalProperties: false },
    ),
    result: result<FindTarget>(),
  },
  exportContainersCsv: {
    argument: ContainerQuery,
    result: result<{ csv: string; rows: number }>(),
  },
  /** The same export as an .xlsx workbook with real date cells, its bytes in base64. */
  exportContainersXlsx: {
    argument: ContainerQuery,
    result: result<{ base64: string; rows: number }>(),
  },
  getRouteMap: {
    argument: Type.Object({ containerId: Id }, { additionalProperties: false }),
    result: result<RouteMapResult | null>(),
  },

  /** The account's custom fields for a container or shipment, read from the service. */
  listCustomFields: {
    argument: Type.Object(CustomFieldTarget, { additionalProperties: false }),
    result: result<CustomFieldsResult>(),
  },
  /** The custom fields a new tracking request can carry (the Track form's), from the service. */
  listTrackingRequestFields: { argument: NoArgument, result: result<CustomFieldsResult>() },
  /** Sets (or, with null, clears) one custom field on the service; refused while offline. */
  setCustomField: {
    argument: Type.Object(
      {
        ...CustomFieldTarget,
        apiSlug: Type.String({ pattern: '^[a-z][a-z0-9_]{0,62}$' }),
        value: CustomFieldValueArgument,
      },
      { additionalProperties: false },
    ),
    result: result<{ ok: true; field: CustomFieldEntry | null } | { ok: false; message: string }>(),
  },
  /** The account's truckers as last synced (works offline). */
  listTruckers: { argument: NoArgument, result: result<TruckerRecord[]>() },
  /** Adds a trucker (a party with the trucker role) at the service; refused while offline. */
  createTrucker: {
    argument: Type.Object(
      {
        companyName: Type.String({ minLength: 1, maxLength: 200 }),
        scac: Type.Optional(Type.String({ maxLength: 10 })),
        contactName: Type.Optional(Type.String({ maxLength: 200 })),
        email: Type.Optional(Type.String({ maxLength: 254 })),
        phone: Type.Optional(Type.String({ maxLength: 50 })),
      },
      { additionalProperties: false },
    ),
    result: result<{ ok: true; trucker: TruckerRecord } | { ok: false; message: string }>(),
  },
  /**
   * Assigns a trucker (null: none) to containers, or to every container of a shipment, at the
   * service; resolves once the cache has the change. Refused while offline.
   */
  assignTrucker: {
    argument: Type.Object(
      {
        containerIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000 })),
        shipmentId: Type.Optional(Id),
        truckerId: Type.Union([Id, Type.Null()]),
      },
      { additionalProperties: false },
    ),
    result: result<{ ok: true; assigned: number } | { ok: false; message: string }>(),
  },
  /**
   * Makes the container's delivery order for its trucker: a PDF kept as a document of its
   * shipment at the service and saved in the data folder. When the service has an outgoing mail
   * server it emails the order to the trucker's contacts (`sent`); else the order is opened
   * (browser mode: `url` to download) for the user to send. Refused while offline.
   */
  makeDeliveryOrder: {
    argument: Type.Object({ containerId: Id }, { additionalProperties: false }),
    result: result<
      | {
          ok: true;
          documentId: string;
          fileName: string;
          open: OpenDocumentResult;
          message: string;
          /** Who the service emailed the order to, and when; null when it was not sent. */
          sent: { to: string[]; sentAt: string } | null;
        }
      | { ok: false; message: string }
    >(),
  },
  /** Asks the service to check the container's line and terminal now (10 a minute at most). */
  refreshContainer: {
    argument: Type.Object({ id: Id }, { additionalProperties: false }),
    result: result<{ ok: boolean; message: string }>(),
  },

  listShipments: {
    argument: Type.Object(
      { search: Type.Optional(Type.String({ maxLength: 200 })), ...Paging },
      { additionalProperties: false },
    ),
    result: result<{ total: number; offset: number; rows: ShipmentListRow[] }>(),
  },
  getShipmentDetail: {
    argument: Type.Object({ id: Id }, { additionalProperties: false }),
    result: result<ShipmentDetail | null>(),
  },

  listShippingLines: { argument: NoArgument, result: result<ShippingLineOption[]>() },
  createTrackingRequest: {
    argument: TrackingRequestDraft,
    result: result<CreateTrackingRequestResult>(),
  },
  /** The line and kind of each number, from the service's infer endpoint (mixed pasted lists). */
  inferNumbers: {
    argument: Type.Object(
      {
        numbers: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
          minItems: 1,
          maxItems: 50,
        }),
      },
      { additionalProperties: false },
    ),
    result: result<InferredNumber[]>(),
  },
  listTrackingRequests: {
    argument: Type.Object({ ...Paging }, { additionalProperties: false }),
    result: result<{ total: number; rows: TrackingRequestRow[] }>(),
  },

  listAlerts: {
    argument: Type.Object(
      {
        unreadOnly: Type.Optional(Type.Boolean()),
        containerId: Type.Optional(Id),
        kinds: Type.Optional(
          Type.Array(
            Type.Unsafe<AlertKind>(Type.Union(ALERT_KINDS.map((kind) => Type.Literal(kind)))),
            { maxItems: ALERT_KINDS.length },
          ),
        ),
        ...Paging,
      },
      { additionalProperties: false },
    ),
    result: result<AlertList>(),
  },
  markAlertsRead: {
    argument: Type.Object(
      { ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 })) },
      { additionalProperties: false },
    ),
    result: result<{ changed: number }>(),
  },

  testConnection: {
    argument: Type.Object(
      {
        baseUrl: Type.String({ minLength: 1, maxLength: 2048 }),
        /** Omitted: test with the stored key. */
        apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      },
      { additionalProperties: false },
    ),
    result: result<ConnectionCheck>(),
  },
  /** Stores (or, with null, forgets) the remote service's API key in the OS keychain. */
  setRemoteApiKey: {
    argument: Type.Object(
      { apiKey: Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()]) },
      { additionalProperties: false },
    ),
    result: result<{ stored: boolean; masked: string | null; storedIn: string }>(),
  },
  getRemoteApiKeyStatus: {
    argument: NoArgument,
    /** `storedIn`: where the key is kept, in plain words (keychain, or a private file). */
    result: result<{ masked: string | null; storedIn: string }>(),
  },
  /**
   * Uploads a PDF, PNG or JPEG (checked by its first bytes, not its name) to the service, which
   * extracts its numbers in the background; poll getDocument for the extraction.
   */
  uploadDocument: {
    argument: Type.Object(
      {
        fileName: Type.String({ minLength: 1, maxLength: 255 }),
        dataBase64: Type.String({
          minLength: 4,
          maxLength: Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4,
          pattern: '^[A-Za-z0-9+/]*={0,2}$',
        }),
      },
      { additionalProperties: false },
    ),
    result: result<DocumentSummary>(),
  },
  listDocuments: { argument: NoArgument, result: result<{ rows: DocumentSummary[] }>() },
  /** `refresh`: ask the service for the latest extraction (else the cached copy). */
  getDocument: {
    argument: Type.Object(
      { id: DocumentId, refresh: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    result: result<DocumentSummary | null>(),
  },
  listShipmentDocuments: {
    argument: Type.Object({ shipmentId: Id }, { additionalProperties: false }),
    result: result<DocumentSummary[]>(),
  },
  /** Tracks numbers a document names (wrong check digits are refused), one request each. */
  trackDocumentNumbers: {
    argument: Type.Object(
      {
        id: DocumentId,
        numbers: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
          minItems: 1,
          maxItems: 50,
        }),
        /** The shipping line, when the document does not name one. */
        scac: Type.Optional(Type.String({ pattern: '^[A-Za-z]{4}$' })),
      },
      { additionalProperties: false },
    ),
    result: result<{ results: TrackNumberOutcome[] }>(),
  },
  openDocument: {
    argument: Type.Object({ id: DocumentId }, { additionalProperties: false }),
    result: result<OpenDocumentResult>(),
  },
  /**
   * Reads a CSV or XLSX of numbers to track (checked by content, not name) into rows with their
   * line, customer, references and problems; nothing is sent until the user submits the rows.
   */
  readTrackingSpreadsheet: {
    argument: Type.Object(
      {
        fileName: Type.String({ minLength: 1, maxLength: 255 }),
        dataBase64: Type.String({
          minLength: 4,
          maxLength: Math.ceil(MAX_SPREADSHEET_BYTES / 3) * 4,
          pattern: '^[A-Za-z0-9+/]*={0,2}$',
        }),
      },
      { additionalProperties: false },
    ),
    result: result<SpreadsheetImport>(),
  },
  getCacheInfo: { argument: NoArgument, result: result<CacheInfo>() },
  clearCache: { argument: NoArgument, result: result<CacheInfo>() },
} as const satisfies Record<string, { argument: TSchema; result: TSchema }>;

/** Payload of the `alertRaised` push: what the renderer shows as a notification. */
export interface AlertPush {
  id: number;
  kind: AlertKind;
  title: string;
  body: string;
  containerId: string | null;
  /** The container's find link, to copy and pass on; null without a container. */
  link: string | null;
  /** The renderer raises the OS notification itself (browser mode: main has no OS surface). */
  osNotification: boolean;
}

export const bridgeEvents = {
  syncStatus: SyncStatus,
  settingsChanged: Settings,
  alertRaised: result<AlertPush>(),
  /** The cache changed (after a sync run wrote something): views reload what they show. */
  dataChanged: result<{ at: string }>(),
} as const satisfies Record<string, TSchema>;

export type AppInfo = Static<typeof AppInfo>;
export type SyncStatus = Static<typeof SyncStatus>;

export type BridgeMethod = keyof typeof bridgeMethods;
export type BridgeEvent = keyof typeof bridgeEvents;
export type BridgeArgument<M extends BridgeMethod> = Static<(typeof bridgeMethods)[M]['argument']>;
export type BridgeResult<M extends BridgeMethod> = Static<(typeof bridgeMethods)[M]['result']>;
export type BridgeEventPayload<E extends BridgeEvent> = Static<(typeof bridgeEvents)[E]>;

/** A method with no argument is called with none; transports send `null` on the wire. */
export type BridgeCall<M extends BridgeMethod> =
  BridgeArgument<M> extends null
    ? () => Promise<BridgeResult<M>>
    : (argument: BridgeArgument<M>) => Promise<BridgeResult<M>>;

/** `window.quayside`: every method, plus a subscription to push events. */
export type QuaysideBridge = { [M in BridgeMethod]: BridgeCall<M> } & {
  on<E extends BridgeEvent>(
    event: E,
    listener: (payload: BridgeEventPayload<E>) => void,
  ): () => void;
};

// The import-free name list used by the transports must match the contract exactly.
type ListedMethod = (typeof BRIDGE_METHOD_LIST)[number];
type Unlisted = Exclude<BridgeMethod, ListedMethod>;
type Unknown = Exclude<ListedMethod, BridgeMethod>;
export const bridgeMethodListIsComplete: [Unlisted, Unknown] extends [never, never] ? true : never =
  true;

export type { BridgeErrorCode, BridgeFailure, BridgeReply, BridgeRejection } from './bridge-errors';
export { isBridgeRejection } from './bridge-errors';
