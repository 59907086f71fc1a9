/**
 * The service's storage: one owner per aggregate behind intent-level methods. Routes, the
 * tracking engine, routing, webhooks, documents, search and seed scripts call these owners, never
 * the query builder. `transaction(fn)` is the one unit of work: it hands `fn` the same owners
 * bound to one transaction, so a change and the events it records (the webhook outbox) commit or
 * roll back together. This is where another database engine plugs in.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../../shared/clock';
import { AccountReads } from './account-reads';
import { CallbackReceipts } from './callback-receipts';
import { CustomFieldStore } from './custom-fields';
import { PartyStore } from './parties';
import { RateLimitWindows } from './rate-limit-windows';
import { retryOnConflict, storeKindOf } from './dialect';
import { DocumentStore } from './documents';
import { RecordEdits } from './record-edits';
import type { ReferenceData } from './reference';
import { ResourceRows } from './resource-rows';
import type { Database } from './schema';
import { LineSubscriptionStore } from './line-subscriptions';
import { TrackingStore } from './tracking-store';
import { sqlRouteMapCopies } from './route-map-copies';
import { VesselStore } from './vessels';
import { WebhookStore } from './webhooks';
import { newInstanceId, WorkLeases } from './work-leases';

/**
 * Owners are made on first use: a unit of work builds only those it touches (the account reads
 * compile their hot queries when made).
 */
export class ServiceStorage {
  private readonly made = new Map<string, unknown>();

  constructor(
    private readonly db: Kysely<Database> | Transaction<Database>,
    private readonly ref: ReferenceData,
    private readonly clock: Clock,
    /** This instance's name in lease rows (a new one per storage opened). */
    private readonly instanceId: string = newInstanceId(),
  ) {}

  private owner<T>(name: string, make: () => T): T {
    if (!this.made.has(name)) this.made.set(name, make());
    return this.made.get(name) as T;
  }

  get tracking(): TrackingStore {
    return this.owner('tracking', () => new TrackingStore(this.db, this.ref, this.clock));
  }
  get webhooks(): WebhookStore {
    return this.owner('webhooks', () => new WebhookStore(this.db));
  }
  get vessels(): VesselStore {
    return this.owner('vessels', () => new VesselStore(this.db));
  }
  /** DCSA subscriptions held with carriers and the event snapshots pushes merge into. */
  get lineSubscriptions(): LineSubscriptionStore {
    return this.owner('lineSubscriptions', () => new LineSubscriptionStore(this.db));
  }
  /** The API's account-scoped reads: own rows by id, filtered lists, search. */
  get reads(): AccountReads {
    return this.owner('reads', () => new AccountReads(this.db));
  }
  /** Batch reads behind rendering resources and `include`. */
  get resources(): ResourceRows {
    return this.owner('resources', () => new ResourceRows(this.db));
  }
  /** Stored copies of completed journeys' route maps. */
  get routeMapCopies(): ReturnType<typeof sqlRouteMapCopies> {
    return this.owner('routeMapCopies', () => sqlRouteMapCopies(this.db as Kysely<Database>));
  }
  /** Custom field definitions, options and the values set on records. */
  get customFields(): CustomFieldStore {
    return this.owner('customFields', () => new CustomFieldStore(this.db, this.clock));
  }
  /** Parties (customers) and the shipments that name them. */
  get parties(): PartyStore {
    return this.owner('parties', () => new PartyStore(this.db, this.clock));
  }
  /** Documents, email submissions and each account's document settings. */
  get documents(): DocumentStore {
    return this.owner('documents', () => new DocumentStore(this.db, this.clock));
  }
  /** Edits account holders make to shipments and containers (ref numbers, tags, customer). */
  get edits(): RecordEdits {
    return this.owner('edits', () => new RecordEdits(this.db, this.clock));
  }
  /** Leases on work shared with other instances (granted at once on SQLite). */
  get leases(): WorkLeases {
    return this.owner('leases', () => new WorkLeases(this.db, this.instanceId));
  }
  /** Signed DCSA callback bodies already accepted (replays are acknowledged, not applied). */
  get callbackReceipts(): CallbackReceipts {
    return this.owner('callbackReceipts', () => new CallbackReceipts(this.db));
  }
  /**
   * Request budgets shared by the instances on one PostgreSQL database; undefined on SQLite,
   * where the one process keeps them in memory.
   */
  get sharedRateLimits(): RateLimitWindows | undefined {
    return this.owner('sharedRateLimits', () =>
      storeKindOf(this.db) === 'postgres' ? new RateLimitWindows(this.db) : undefined,
    );
  }

  /**
   * Runs `work` in one transaction with owners bound to it: all of its writes commit, or none
   * do. Nested calls join the outer one. Two instances (or a line and a terminal check of one
   * shipment) may lock the same rows in different orders; PostgreSQL then undoes one
   * transaction, and `work` runs again from the start, so it does storage work only.
   */
  async transaction<T>(work: (stores: ServiceStorage) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    const db = this.db as Kysely<Database>;
    return retryOnConflict(() =>
      db
        .transaction()
        .execute((trx) => work(new ServiceStorage(trx, this.ref, this.clock, this.instanceId))),
    );
  }
}
