/**
 * Webhooks of one service instance: the outbox (EventSink), the guarded sender and the delivery
 * worker, started and stopped with the service.
 */
import type { Clock } from '../../shared/clock';
import type { ReferenceData } from '../store/reference';
import type { WebhookStore } from '../store/webhooks';
import type { WorkLeases } from '../store/work-leases';
import { WebhookOutbox } from './outbox';
import { WebhookSender } from './sender';
import {
  DEFAULT_DELIVERY_POLICY,
  DeliveryWorker,
  type DeliveryPolicy,
  type WorkerLogger,
} from './worker';

export { WebhookOutbox } from './outbox';
export { WebhookSender } from './sender';
export { DeliveryWorker, DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from './worker';

export interface WebhookOptions {
  /** Allow loopback and private targets and plain http (local use and tests). */
  allowPrivate: boolean;
  /** Per-request timeout in ms. */
  timeoutMs: number;
  policy?: Partial<DeliveryPolicy>;
  logger?: WorkerLogger;
  /** Jitter source (tests may fix it). */
  random?: () => number;
  /** Delivery leases shared with other instances on the same database. */
  leases?: WorkLeases;
}

export class Webhooks {
  readonly sender: WebhookSender;
  readonly worker: DeliveryWorker;
  readonly outbox: WebhookOutbox;

  constructor(store: WebhookStore, ref: ReferenceData, clock: Clock, options: WebhookOptions) {
    this.sender = new WebhookSender({
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
    });
    this.worker = new DeliveryWorker(
      store,
      clock,
      this.sender,
      { ...DEFAULT_DELIVERY_POLICY, ...options.policy },
      options.logger,
      options.random,
      options.leases,
    );
    this.outbox = new WebhookOutbox(ref, clock, (transaction) =>
      transaction ? this.worker.kickAfterCommit(transaction) : this.worker.kick(),
    );
  }

  start(): void {
    this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
    await this.sender.close();
  }
}
