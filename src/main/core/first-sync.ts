/**
 * A source is loading until its first sync has brought what the service has: its first complete
 * run, and then until the service has no tracking request still being looked up (a fresh demo
 * world, or an account whose numbers were just submitted, answers its first sync before most
 * shipments exist). Lookups can stay pending for days on a real service: once some containers
 * are shown, loading ends after `LOOKUP_PATIENCE_MS` whatever is still pending. Until then the views say "loading", never "nothing
 * to act on" or "up to date". The end is kept in the source's cache: it is the first sync once.
 */
import { countOf } from '../../shared/words';
import type { CacheStore } from '../cache/interface';

const LOADED_STATE = 'source_loaded_at';

/** While loading, a source with lookups under way is synced again this often (real time). */
export const LOADING_RESYNC_MS = 2_000;
/** How long (real time) the first complete run waits for lookups once it shows containers. */
const LOOKUP_PATIENCE_MS = 60_000;

export type FirstSyncOutcome = 'loaded' | 'waiting' | 'loaded-before';

export class FirstSync {
  /** Tracking requests the service was still looking up at the last check; null when unknown. */
  private pending: number | null = null;
  /** Wall-clock time of the first complete run while loading. */
  private firstRunAt: number | null = null;
  /** Read once: status pushes ask on every change, also while the cache closes. */
  private loaded: boolean;

  constructor(
    private readonly cache: CacheStore,
    /** How many tracking requests the service is still looking up; null when it cannot say. */
    private readonly pendingLookups: () => Promise<number | null>,
  ) {
    this.loaded = cache.getState<string>(LOADED_STATE) !== null;
  }

  loading(): boolean {
    return !this.loaded;
  }

  /** What the header adds while loading between runs. */
  waitingMessage(): string | null {
    return this.loading() && this.pending
      ? `The service is still looking up ${countOf(this.pending, 'tracking request')}.`
      : null;
  }

  /** After a complete run: whether the source has now loaded, or still waits for lookups. */
  async runEnded(at: string): Promise<FirstSyncOutcome> {
    if (!this.loading()) return 'loaded-before';
    this.firstRunAt ??= Date.now();
    const patient =
      this.cache.counts().containers === 0 || Date.now() - this.firstRunAt < LOOKUP_PATIENCE_MS;
    this.pending = patient ? await this.pendingLookups() : 0;
    if (this.pending) return 'waiting';
    this.cache.setState(LOADED_STATE, at);
    this.loaded = true;
    return 'loaded';
  }
}
