import type { Clock } from '../shared/clock';
import type { Renderer } from './resources/batch-render';
import type { CustomFields } from './custom-fields';
import type { Documents } from './documents';
import type { DocumentBudget } from './documents/budget';
import type { VesselPositionHistory } from './routing/positions';
import type { RouteMapService } from './routing/route-map-service';
import type { AccountStore } from './store/accounts';
import type { ReferenceData } from './store/reference';
import type { ServiceStorage } from './store';
import type { Webhooks } from './webhooks';
import type { OutgoingMail } from './email/outgoing-mail';

export interface ServiceConfig {
  /** Requests per account per rolling minute of real time (all endpoints). */
  requestsPerMinute: number;
  /** Tracking requests created per account per rolling minute of real time. */
  trackingRequestsPerMinute: number;
  /** Failed authentications per client address per rolling minute of real time. */
  failedAuthPerMinute: number;
  /** Largest accepted request body in bytes. */
  bodyLimitBytes: number;
  /** SCACs the service can track; undefined means every line in the reference data. */
  supportedScacs?: string[];
  /** Let webhooks target loopback and private addresses over http (local use and tests). */
  allowPrivateWebhooks: boolean;
  /** Timeout of one webhook delivery request in ms. */
  webhookTimeoutMs: number;
  /** The addresses `GET /webhooks/ips` lists; undefined: this host's external IPv4 addresses. */
  webhookSourceIps?: string[];
  /** Host part of the accounts' inbox addresses (track+<token>@host): the domain whose mail reaches the SMTP listener. */
  mailDomain: string;
  /** The operator's outgoing mail server (`--smtp-url`); without one nothing is sent by mail. */
  outgoingMail?: OutgoingMail;
  /** What reading one document may cost, and how many are read at once (documents/budget.ts). */
  documentBudget?: Partial<DocumentBudget>;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  requestsPerMinute: 100,
  trackingRequestsPerMinute: 100,
  failedAuthPerMinute: 20,
  bodyLimitBytes: 1024 * 1024,
  allowPrivateWebhooks: false,
  webhookTimeoutMs: 10_000,
  mailDomain: 'localhost',
};

/**
 * Everything the route handlers need, created once per service instance: store owners and use
 * cases, never the database (a change that must commit whole runs in `stores.transaction`).
 */
export interface ServiceContext {
  /** Owners of the stored aggregates; everything outside src/service/store goes through these. */
  stores: ServiceStorage;
  ref: ReferenceData;
  accounts: AccountStore;
  render: Renderer;
  clock: Clock;
  /**
   * Real time, whatever `clock` is (a `--sim` service's clock runs fast): request limits and
   * the lifetime of signed links are promises to people and run on it.
   */
  wallClock: Clock;
  config: ServiceConfig;
  /** The route map behind map_geojson (ETag, stored copies of completed journeys). */
  routeMaps: RouteMapService;
  /** Recorded vessel positions (AIS), for the vessel endpoints' `show_positions`. */
  positions: VesselPositionHistory;
  /** Webhook outbox (the engine's EventSink), sender and delivery worker. */
  webhooks: Webhooks;
  /** Document files, metadata, extraction and email submissions. */
  documents: Documents;
  /** Custom field definitions and values as the API renders and checks them. */
  customFields: CustomFields;
  /** Told when a tracking request is created, so the engine looks it up now, not at its next tick. */
  trackingRequestCreated?: () => void;
}
