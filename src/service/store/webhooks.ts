/**
 * Owner of webhooks, their notifications and delivery attempts. The `secret` and `headers`
 * columns are sealed by the Kysely plugin (sealed-columns.ts); this file is the one
 * place that reads and writes them.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { v4 as uuidv4 } from 'uuid';
import { storeKindOf } from './dialect';
import type { Database, WebhookNotificationsTable, WebhooksTable } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

export interface WebhookHeader {
  name: string;
  value: string;
}

export interface NewWebhook {
  url: string;
  active: boolean;
  events: string[];
  headers?: WebhookHeader[] | null;
  secret: string;
  now: string;
}

export interface WebhookChanges {
  url?: string;
  active?: boolean;
  events?: string[];
  headers?: WebhookHeader[] | null;
  now: string;
}

/** A pending notification due for delivery, with what the sender needs of its webhook. */
export interface DueDelivery {
  id: string;
  webhook_id: string;
  payload: string;
  attempt_count: number;
  url: string;
  secret: string;
  headers: string | null;
}

export interface DeliveryAttempt {
  notificationId: string;
  attemptNumber: number;
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  succeeded: boolean;
  attemptedAt: string;
  /** Where the notification stands after this attempt. */
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: string | null;
}

export interface NewNotification {
  id: string;
  accountId: string;
  webhookId: string;
  event: string;
  referenceObject?: { id: string; type: string } | null;
  payload: string;
  createdAt: string;
}

export interface Page {
  size: number;
  offset: number;
}

const headersColumn = (headers: WebhookHeader[] | null | undefined): string | null =>
  headers?.length ? JSON.stringify(headers) : null;

export class WebhookStore {
  constructor(private readonly db: Db) {}

  async create(accountId: string, input: NewWebhook): Promise<WebhooksTable> {
    const row: WebhooksTable = {
      id: uuidv4(),
      account_id: accountId,
      url: input.url,
      active: input.active ? 1 : 0,
      events: JSON.stringify([...new Set(input.events)]),
      secret: input.secret,
      headers: headersColumn(input.headers),
      created_at: input.now,
      updated_at: input.now,
    };
    await this.db.insertInto('webhooks').values(row).execute();
    return row;
  }

  async get(accountId: string, id: string): Promise<WebhooksTable | undefined> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** Webhooks by id, of any account (the caller checks ownership: see Renderer.load). */
  async byIds(ids: string[]): Promise<WebhooksTable[]> {
    return this.db.selectFrom('webhooks').selectAll().where('id', 'in', ids).execute();
  }

  async list(accountId: string, page: Page): Promise<{ total: number; rows: WebhooksTable[] }> {
    const base = this.db.selectFrom('webhooks').where('account_id', '=', accountId);
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  /** Applies the changes and returns the updated row. */
  async update(row: WebhooksTable, input: WebhookChanges): Promise<WebhooksTable> {
    const changes: Partial<WebhooksTable> = { updated_at: input.now };
    if (input.url !== undefined) changes.url = input.url;
    if (input.active !== undefined) changes.active = input.active ? 1 : 0;
    if (input.events !== undefined) changes.events = JSON.stringify([...new Set(input.events)]);
    if (input.headers !== undefined) changes.headers = headersColumn(input.headers);
    await this.db.updateTable('webhooks').set(changes).where('id', '=', row.id).execute();
    return { ...row, ...changes };
  }

  /** Deletes a webhook with its notifications and their delivery attempts, all or nothing. */
  async delete(id: string): Promise<void> {
    const work = async (trx: Transaction<Database>): Promise<void> => {
      const ids = trx.selectFrom('webhook_notifications').select('id').where('webhook_id', '=', id);
      await trx
        .deleteFrom('webhook_delivery_attempts')
        .where('notification_id', 'in', ids)
        .execute();
      await trx.deleteFrom('webhook_notifications').where('webhook_id', '=', id).execute();
      await trx.deleteFrom('webhooks').where('id', '=', id).execute();
    };
    if (this.db.isTransaction) await work(this.db as Transaction<Database>);
    else await (this.db as Kysely<Database>).transaction().execute(work);
  }

  /** Active webhooks of the account subscribed to `event`. */
  async subscribers(accountId: string, event: string): Promise<{ id: string }[]> {
    const hooks = await this.db
      .selectFrom('webhooks')
      .select(['id', 'events'])
      .where('account_id', '=', accountId)
      .where('active', '=', 1)
      .execute();
    return hooks
      .filter((h) => (JSON.parse(h.events) as string[]).includes(event))
      .map((h) => ({ id: h.id }));
  }

  /** Notifications of every account still waiting for delivery (a drained outbox has none). */
  async pendingNotificationCount(): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('delivery_status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async addNotifications(notifications: NewNotification[]): Promise<void> {
    if (notifications.length === 0) return;
    await this.db
      .insertInto('webhook_notifications')
      .values(
        notifications.map((n) => ({
          id: n.id,
          account_id: n.accountId,
          webhook_id: n.webhookId,
          event: n.event,
          delivery_status: 'pending',
          reference_object_id: n.referenceObject?.id ?? null,
          reference_object_type: n.referenceObject?.type ?? null,
          payload: n.payload,
          created_at: n.createdAt,
          attempt_count: 0,
          next_attempt_at: n.createdAt,
          last_attempt_at: null,
        })),
      )
      .execute();
  }

  async notification(
    accountId: string,
    id: string,
  ): Promise<WebhookNotificationsTable | undefined> {
    return this.db
      .selectFrom('webhook_notifications')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async listNotifications(
    accountId: string,
    page: Page,
  ): Promise<{ total: number; rows: WebhookNotificationsTable[] }> {
    const base = this.db.selectFrom('webhook_notifications').where('account_id', '=', accountId);
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  async deliveryAttempts(notificationId: string) {
    const attempts = await this.db
      .selectFrom('webhook_delivery_attempts')
      .select(['attempt_number', 'attempted_at', 'status_code', 'latency_ms', 'error', 'succeeded'])
      .where('notification_id', '=', notificationId)
      .orderBy('attempt_number')
      .execute();
    return attempts.map((a) => ({ ...a, succeeded: a.succeeded === 1 }));
  }

  /** Pending notifications of active webhooks due at `now`, earliest first. */
  async dueDeliveries(now: string, limit: number): Promise<DueDelivery[]> {
    return this.db
      .selectFrom('webhook_notifications as n')
      .innerJoin('webhooks as w', 'w.id', 'n.webhook_id')
      .select([
        'n.id',
        'n.webhook_id',
        'n.payload',
        'n.attempt_count',
        'w.url',
        'w.secret',
        'w.headers',
      ])
      .where('n.delivery_status', '=', 'pending')
      .where('w.active', '=', 1)
      .where('n.next_attempt_at', '<=', now)
      .orderBy('n.next_attempt_at')
      .limit(limit)
      .execute();
  }

  /** The earliest attempt time after `now` of a pending notification, if any. */
  async nextAttemptAfter(now: string): Promise<string | undefined> {
    const next = await this.db
      .selectFrom('webhook_notifications as n')
      .innerJoin('webhooks as w', 'w.id', 'n.webhook_id')
      .select((eb) => eb.fn.min('n.next_attempt_at').as('at'))
      .where('n.delivery_status', '=', 'pending')
      .where('w.active', '=', 1)
      .where('n.next_attempt_at', '>', now)
      .executeTakeFirst();
    return next?.at ? String(next.at) : undefined;
  }

  /**
   * Records one attempt and moves its notification on, atomically. Does nothing when the
   * notification is no longer pending (its webhook may have been deleted meanwhile).
   */
  async recordAttempt(attempt: DeliveryAttempt): Promise<void> {
    const work = async (trx: Transaction<Database>): Promise<void> => {
      const updated = await trx
        .updateTable('webhook_notifications')
        .set({
          delivery_status: attempt.status,
          attempt_count: attempt.attemptNumber,
          next_attempt_at: attempt.nextAttemptAt,
          last_attempt_at: attempt.attemptedAt,
        })
        .where('id', '=', attempt.notificationId)
        .where('delivery_status', '=', 'pending')
        // Another instance that took the delivery over already recorded this attempt.
        .where('attempt_count', '=', attempt.attemptNumber - 1)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return;
      await trx
        .insertInto('webhook_delivery_attempts')
        .values({
          id: uuidv4(),
          notification_id: attempt.notificationId,
          attempt_number: attempt.attemptNumber,
          url: attempt.url,
          status_code: attempt.statusCode,
          latency_ms: attempt.latencyMs,
          error: attempt.error,
          succeeded: attempt.succeeded ? 1 : 0,
          attempted_at: attempt.attemptedAt,
        })
        .execute();
    };
    if (this.db.isTransaction) await work(this.db as Transaction<Database>);
    else await (this.db as Kysely<Database>).transaction().execute(work);
  }

  /**
   * An id of the running transaction that other connections can ask about (PostgreSQL), or null
   * where a transaction commits before the event loop turns (SQLite's synchronous driver).
   */
  async transactionId(): Promise<string | null> {
    if (!this.db.isTransaction || storeKindOf(this.db) !== 'postgres') return null;
    const row = await sql<{ id: string }>`select txid_current()::text as id`.execute(this.db);
    return row.rows[0]?.id ?? null;
  }

  /** True once the transaction `id` committed or rolled back. */
  async transactionSettled(id: string): Promise<boolean> {
    const row = await sql<{
      state: string | null;
    }>`select txid_status(${id}::bigint) as state`.execute(this.db);
    return row.rows[0]?.state !== 'in progress';
  }
}
