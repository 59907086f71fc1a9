/**
 * Ties the alert rules to the cache and the notifier, one way: a page write reports its changes,
 * `detect` turns them into alerts that the write stores with them (so an alert is stored exactly
 * when its change is), and `deliver` notifies the new ones once, after the commit. Time-based
 * "LFD approaching" alerts are checked on the injected clock.
 */
import type { Clock } from '../../shared/clock';
import { isoString } from '../../shared/clock';
import type { AlertDraft, AlertRecord } from '../../shared/desktop';
import type { CacheStore, PageChanges } from '../cache/interface';
import { DEFAULT_SETTINGS, type AlertSettings } from '../../shared/settings';
import type { Notifier } from './notifier';
import {
  approachingAlerts,
  containerAlerts,
  invoiceReminderDrafts,
  nextCrossing,
  outdatedOrderDrafts,
  shipmentAlerts,
} from './rules';
import { DISPUTE_WINDOW_DAYS } from '../../shared/charges/statement';
import { findLink } from '../../shared/find-link';

/** The alert part of the settings: thresholds, the master switch and the per-kind switches. */
export type AlertPreferences = AlertSettings;

/** Where a source's cache keeps its baseline: when the app first looked at that source. */
const BASELINE_STATE = 'source_baseline_at';

/** Deadline checks run at least this often even when no crossing is due (LFDs change). */
const MAX_CHECK_INTERVAL = 15 * 60_000;

export class AlertCenter {
  private cancelTimer: (() => void) | null = null;

  constructor(
    private readonly cache: CacheStore,
    private readonly notifier: Notifier,
    private readonly clock: Clock,
    private readonly preferences: () => AlertPreferences = () => DEFAULT_SETTINGS.alerts,
    /** True while the source's first sync loads: what it brings is the baseline, not news. */
    private readonly loading: () => boolean = () => false,
  ) {}

  /**
   * The source's baseline (epoch ms on the source's clock), set the first time the app looks at
   * the source: what was already true then is shown and summed up once, never alerted.
   */
  baseline(): number {
    const saved = this.cache.getState<number>(BASELINE_STATE);
    if (saved !== null) return saved;
    const now = this.clock.now();
    this.cache.setState(BASELINE_STATE, now);
    return now;
  }

  /** The alerts a page write's changes raise; handed to `Cache.applyPage`. */
  readonly detect = (changes: PageChanges): AlertDraft[] => {
    if (this.loading()) return [];
    const preferences = { ...this.preferences(), since: this.baseline() };
    return [
      ...changes.shipments.flatMap(({ before, after, containerIds }) =>
        shipmentAlerts(before, after, containerIds, preferences),
      ),
      ...changes.containers.flatMap(({ before, after }) =>
        containerAlerts(before, after, preferences),
      ),
    ];
  };

  /** Hands newly stored alerts to the notifier (respecting the switches) and marks them done. */
  deliver(alerts: readonly AlertRecord[]): void {
    if (alerts.length === 0) return;
    const prefs = this.preferences();
    for (const alert of alerts) {
      if (!prefs.desktopNotifications || prefs.kinds?.[alert.kind] === false) continue;
      this.notifier.notify({
        alertId: alert.id,
        kind: alert.kind,
        title: alert.title,
        body: alert.body,
        containerId: alert.containerId,
        link: this.linkOf(alert.containerId),
      });
    }
    this.cache.markNotified(
      alerts.map((a) => a.id),
      isoString(this.clock.now()),
    );
  }

  /** The find link of a cached container, by its number. */
  private linkOf(containerId: string | null): string | null {
    const number = containerId ? this.cache.board.containerDetail(containerId)?.row.number : null;
    return number ? findLink(number) : null;
  }

  /** Alerts stored by a run that stopped before notifying (crash, quit). */
  deliverPending(): void {
    this.deliver(this.cache.unnotifiedAlerts());
  }

  /**
   * Raises the "LFD approaching" and invoice dispute reminders due now, and the alerts of
   * delivery orders that a synced change made wrong (this runs after each sync); returns the
   * new ones.
   */
  checkDeadlines(): AlertRecord[] {
    const now = this.clock.now();
    // Invoices whose dispute window may still be open (dated within the window, a day spare).
    const oldest = new Date(now - (DISPUTE_WINDOW_DAYS + 1) * 86_400_000).toISOString();
    const drafts = [
      ...approachingAlerts(
        this.cache.upcomingDeadlines(isoString(now)),
        now,
        this.preferences().lfdThresholdsHours,
        (keys) => this.cache.storedAlertKeys(keys),
      ),
      ...invoiceReminderDrafts(this.cache.receivedInvoicesSince(oldest.slice(0, 10)), now),
      ...outdatedOrderDrafts(this.cache.deliveryOrders(), (id) =>
        this.cache.board.containerDetail(id),
      ),
    ];
    const inserted = this.cache.insertAlerts(drafts, isoString(now));
    this.deliver(inserted);
    return inserted;
  }

  /** Checks deadlines now and then whenever the next threshold falls due. */
  start(): void {
    this.stop();
    this.checkDeadlines();
    const now = this.clock.now();
    const next = nextCrossing(
      this.cache.upcomingDeadlines(isoString(now)),
      now,
      this.preferences().lfdThresholdsHours,
    );
    const delay = Math.min(next === null ? MAX_CHECK_INTERVAL : next - now, MAX_CHECK_INTERVAL);
    this.cancelTimer = this.clock.setTimer(Math.max(delay, 1_000), () => this.start());
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }
}
