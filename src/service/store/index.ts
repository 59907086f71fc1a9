/**
 * The service's storage: one owner per aggregate behind intent-level methods. Routes, the
 * tracking engine, routing, webhooks, search and seed scripts call these owners, never the query
 * builder; a change that must commit together with its events runs inside `transaction(fn)`,
 * which hands out the same owners bound to one transaction. This is where another database
 * engine plugs in.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../../shared/clock';
import { AccountReads } from './account-reads';
import { CallbackReceipts } from './callback-receipts';
import { CustomFieldStore } from './custom-fields';
import { PartyStore } from './parties';
import { RateLimitWindows } from './rate-limit-windows';
import { storeKindOf } from './dialect';
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

export class ServiceStorage {
  readonly tracking: TrackingStore;
  readonly webhooks: WebhookStore;
  readonly vessels: VesselStore;
  /** DCSA subscriptions held with carriers and the event snapshots pushes merge into. */
  readonly lineSubscriptions: LineSubscriptionStore;
  /** The API's account-scoped reads: own rows by id, filtered lists, search. */
  readonly reads: AccountReads;
  /** Batch reads behind rendering resources and `include`. */
  readonly resources: ResourceRows;
  /** Stored copies of completed journeys' route maps. */
  readonly routeMapCopies: ReturnType<typeof sqlRouteMapCopies>;
  /** Custom field definitions, options and the values set on records. */
  readonly customFields: CustomFieldStore;
  /** Parties (customers) and the shipments that name them. */
  readonly parties: PartyStore;
  /** Edits account holders make to shipments and containers (ref numbers, tags, customer). */
  readonly edits: RecordEdits;
  /** Leases on work shared with other instances (granted at once on SQLite). */
  readonly leases: WorkLeases;
  /** Signed DCSA callback bodies already accepted (replays are acknowledged, not applied). */
  readonly callbackReceipts: CallbackReceipts;
  /**
   * Request budgets shared by the instances on one PostgreSQL database; undefined on SQLite,
   * where the one process keeps them in memory.
   */
  readonly sharedRateLimits: RateLimitWindows | undefined;

  constructor(
    private readonly db: Kysely<Database> | Transaction<Database>,
    private readonly ref: ReferenceData,
    private readonly clock: Clock,
    /** This instance's name in lease rows (a new one per storage opened). */
    instanceId: string = newInstanceId(),
  ) {
    this.leases = new WorkLeases(db, instanceId);
    this.tracking = new TrackingStore(db, ref, clock);
    this.webhooks = new WebhookStore(db);
    this.vessels = new VesselStore(db);
    this.lineSubscriptions = new LineSubscriptionStore(db);
    this.reads = new AccountReads(db);
    this.resources = new ResourceRows(db);
    this.routeMapCopies = sqlRouteMapCopies(db as Kysely<Database>);
    this.customFields = new CustomFieldStore(db, clock);
    this.parties = new PartyStore(db, clock);
    this.edits = new RecordEdits(db, clock);
    this.callbackReceipts = new CallbackReceipts(db);
    this.sharedRateLimits = storeKindOf(db) === 'postgres' ? new RateLimitWindows(db) : undefined;
  }

  /** Runs `work` in one transaction with owners bound to it; nested calls join the outer one. */
  async transaction<T>(work: (stores: ServiceStorage) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return (this.db as Kysely<Database>)
      .transaction()
      .execute((trx) => work(new ServiceStorage(trx, this.ref, this.clock, this.leases.owner)));
  }
}
