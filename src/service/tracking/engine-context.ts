/** What the engine's parts (request lifecycle, refreshers) share. */
import type { Clock } from '../../shared/clock';
import type { TrackingStore } from '../store/tracking-store';
import type { ApplyEnv, ApplyScope } from './apply';
import type { FeedLookups } from './feed-lookups';

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
  lineIntervalMs: number;
  terminalIntervalMs: number;
  /** Runs `fn` in one store transaction; its changes and their events commit together. */
  scope<T>(fn: (scope: ApplyScope) => Promise<T>): Promise<T>;
}
