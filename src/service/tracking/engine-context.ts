/** What the engine's parts (request lifecycle, refreshers) share. */
import type { Clock } from '../../shared/clock';
import type { LineSubscriptionStore } from '../store/line-subscriptions';
import type { TrackingStore } from '../store/tracking-store';
import type { ApplyEnv, ApplyScope } from './apply';
import type { FeedLookups } from './feed-lookups';
import type { LineSubscriptions } from './subscriptions';

export interface EngineLogger {
  warn(detail: Record<string, unknown>, message: string): void;
  error(detail: Record<string, unknown>, message: string): void;
}

export const silentLogger: EngineLogger = { warn: () => {}, error: () => {} };

export interface EngineContext {
  tracking: TrackingStore;
  env: ApplyEnv;
  clock: Clock;
  log: EngineLogger;
  feeds: FeedLookups;
  /** Carrier push: subscriptions held and the poll interval they allow. */
  subscriptions: LineSubscriptions;
  /** The events of each shipment's last line answer, which pushed events merge into. */
  lineSubscriptions: LineSubscriptionStore;
  /** Queues a line check of the shipment for the next free slot. */
  checkLineSoon(shipmentId: string): void;
  lineIntervalMs: number;
  terminalIntervalMs: number;
  /** Runs `fn` in one store transaction; its changes and their events commit together. */
  scope<T>(fn: (scope: ApplyScope) => Promise<T>): Promise<T>;
}
