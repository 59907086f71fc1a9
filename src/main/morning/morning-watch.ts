/**
 * Time-based alerts of the dispatcher's morning, on the app's clock: the daily digest (one
 * notification at the configured local time: "3 to move today, 2 LFD tomorrow, $2,350
 * accruing", opening the worklist) and the empty-return reminder a day before per diem starts.
 * Both are stored like every alert, with a dedupe key per day (digest) or per container and
 * deadline (per diem), so a restart or a second check never notifies twice.
 */
import { DateTime } from 'luxon';
import { isoString, type Clock } from '../../shared/clock';
import { hasLeftTerminal, lfdDaysAway, nextDeadline } from '../../shared/container';
import {
  NO_COST,
  addCost,
  containerCost,
  perDiemClock,
  type CostTables,
  type CostTotals,
} from '../../shared/cost-clock';
import { formatLocalDate } from '../../shared/date-style';
import type { AlertDraft, BoardRow } from '../../shared/desktop';
import type { Settings } from '../../shared/settings';
import { buildWorklist, worklistCounts } from '../../shared/worklist';
import { countOf, formatCount } from '../../shared/words';
import type { AlertCenter } from '../alerts/alert-center';
import type { CacheStore } from '../cache/interface';
import type { PickedUpBox } from '../cache/board-query';

const HOUR = 3_600_000;
/** A digest missed by more than this (the app was closed at its time) is skipped for the day. */
export const DIGEST_GRACE_MS = 2 * HOUR;
/** The empty-return reminder comes this long before per diem starts. */
export const PER_DIEM_NOTICE_MS = 24 * HOUR;
/** Checks run at least this often on the app clock (deadlines and tariffs change). */
const MAX_CHECK_INTERVAL = 15 * 60_000;

/** The instant of `time` (HH:mm) on the local day of `now` in `zone`. */
export function digestTimeOn(now: number, time: string, zone: string): number {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return DateTime.fromMillis(now, { zone })
    .set({ hour, minute, second: 0, millisecond: 0 })
    .toMillis();
}

/** The digest due at `now`, or null: at its time, within the grace, once per day and time. */
export function dueDigest(
  now: number,
  digest: Settings['digest'],
  zone: string,
): { key: string; date: string } | null {
  if (!digest.enabled) return null;
  const at = digestTimeOn(now, digest.time, zone);
  if (now < at || now >= at + DIGEST_GRACE_MS) return null;
  const date = DateTime.fromMillis(at, { zone }).toISODate() ?? '';
  return { key: `daily_digest:${date}T${digest.time}`, date };
}

export interface DigestFacts {
  moveToday: number;
  lfdTomorrow: number;
  /** Boxes whose driving last free day is within the next 7 calendar days (today included). */
  lfdThisWeek: number;
  overdue: number;
  blocked: number;
  cost: CostTotals;
}

/** What the digest and a source's summary count: boxes by worklist section, deadlines, money. */
export function digestFacts(
  rows: readonly BoardRow[],
  tables: CostTables,
  now: number,
): DigestFacts {
  const counts = worklistCounts(buildWorklist(rows, now));
  let cost = NO_COST;
  let lfdTomorrow = 0;
  let lfdThisWeek = 0;
  for (const row of rows) {
    cost = addCost(cost, containerCost(row, tables, now));
    const deadline = hasLeftTerminal(row.status)
      ? null
      : nextDeadline(row.deadlines, now, row.location.kind);
    if (!deadline) continue;
    const days = lfdDaysAway(deadline.date, deadline.zone, now);
    if (days === 1) lfdTomorrow += 1;
    if (days < 7) lfdThisWeek += 1;
  }
  return {
    moveToday: counts.move_today,
    lfdTomorrow,
    lfdThisWeek,
    overdue: counts.overdue_accruing,
    blocked: counts.blocked_lfd_soon,
    cost,
  };
}

/** The one summary a source gets when its first sync ends (what is already true, summed up). */
export const SOURCE_SUMMARY_KEY = 'source_summary';

export function sourceSummaryDraft(sourceName: string, facts: DigestFacts): AlertDraft {
  const accruing = facts.cost.currency ? money(facts.cost.accrued, facts.cost.currency) : '$0';
  const verb = facts.lfdThisWeek === 1 ? 'has' : 'have';
  return {
    kind: 'source_summary',
    dedupeKey: SOURCE_SUMMARY_KEY,
    containerId: null,
    shipmentId: null,
    title: `Now showing ${sourceName}`,
    body:
      `${countOf(facts.lfdThisWeek, 'container')} ${verb} a last free day this week; ` +
      `${formatCount(facts.overdue)} overdue, ${formatCount(facts.blocked)} blocked by a hold, ` +
      `${accruing} accruing.`,
  };
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(
    amount,
  );

export function digestDraft(
  key: string,
  date: string,
  zone: string,
  facts: DigestFacts,
): AlertDraft {
  const accruing = facts.cost.currency ? money(facts.cost.accrued, facts.cost.currency) : '$0';
  const body = [
    `${facts.moveToday.toLocaleString('en-US')} to move today`,
    `${facts.lfdTomorrow.toLocaleString('en-US')} LFD tomorrow`,
    `${accruing} accruing`,
  ].join(', ');
  return {
    kind: 'daily_digest',
    dedupeKey: key,
    containerId: null,
    shipmentId: null,
    title: `Your morning: ${formatLocalDate(date, zone)}`,
    body: `${body}.`,
  };
}

/** Reminders for boxes whose empty-return free time ends within a day. */
export function perDiemDrafts(
  rows: readonly PickedUpBox[],
  tables: CostTables,
  now: number,
  /** The source's baseline: a reminder whose notice began before it is not news. */
  since: number | null = null,
): AlertDraft[] {
  const drafts: AlertDraft[] = [];
  for (const row of rows) {
    const clock = perDiemClock(
      {
        status: row.status,
        lineScac: row.lineScac,
        pickedUpAt: row.pickedUpAt,
        zone: row.podTimezone,
      },
      tables,
      now,
    );
    if (!clock || now >= clock.endsAt || now < clock.endsAt - PER_DIEM_NOTICE_MS) continue;
    if (since !== null && clock.endsAt - PER_DIEM_NOTICE_MS < since) continue;
    const day = lfdDaysAway(clock.date, clock.zone, now) === 0 ? 'today' : 'tomorrow';
    drafts.push({
      kind: 'empty_return_due',
      dedupeKey: `empty_return_due:${row.id}:${clock.date}`,
      containerId: row.id,
      shipmentId: row.shipmentId,
      title: `Empty return due ${day} for ${row.number}`,
      body:
        `Free time to return the empty ends ${formatLocalDate(clock.date, clock.zone, true)}` +
        ` (${clock.countdown}); then ${money(clock.perDay, clock.currency)} a day per diem` +
        `${row.lineScac ? ` to ${row.lineScac}` : ''}.`,
    });
  }
  return drafts;
}

/** When the next digest or reminder falls due after `now`, for the timer. */
function nextDue(
  rows: readonly PickedUpBox[],
  settings: Settings,
  now: number,
  zone: string,
): number {
  let next = now + MAX_CHECK_INTERVAL;
  if (settings.digest.enabled) {
    let at = digestTimeOn(now, settings.digest.time, zone);
    if (at <= now) at = digestTimeOn(now + 24 * HOUR, settings.digest.time, zone);
    next = Math.min(next, at);
  }
  for (const row of rows) {
    const clock = perDiemClock(
      {
        status: row.status,
        lineScac: row.lineScac,
        pickedUpAt: row.pickedUpAt,
        zone: row.podTimezone,
      },
      settings.costs,
      now,
    );
    const at = clock ? clock.endsAt - PER_DIEM_NOTICE_MS : 0;
    if (at > now) next = Math.min(next, at);
  }
  return next;
}

export class MorningWatch {
  private cancelTimer: (() => void) | null = null;

  constructor(
    private readonly cache: CacheStore,
    private readonly alerts: AlertCenter,
    private readonly clock: Clock,
    private readonly settings: () => Settings,
    /** The computer's zone: the digest time is a local time of day. */
    private readonly zone: string = DateTime.local().zoneName ?? 'UTC',
  ) {}

  /** Raises what is due now; returns how many alerts were new. */
  check(): number {
    const now = this.clock.now();
    const settings = this.settings();
    const drafts: AlertDraft[] = [];
    const since = this.alerts.baseline();
    const digest = dueDigest(now, settings.digest, this.zone);
    // A source first shown after today's digest time has its summary instead. A digest already
    // raised is not summed up again at each check of its grace period.
    if (
      digest &&
      digestTimeOn(now, settings.digest.time, this.zone) >= since &&
      this.cache.storedAlertKeys([digest.key]).size === 0
    ) {
      const facts = digestFacts(this.cache.board.worklistRows(), settings.costs, now);
      drafts.push(digestDraft(digest.key, digest.date, this.zone, facts));
    }
    drafts.push(...perDiemDrafts(this.pickedUp(now), settings.costs, now, since));
    const inserted = this.cache.insertAlerts(drafts, isoString(now));
    this.alerts.deliver(inserted);
    return inserted.length;
  }

  /**
   * After the source's first complete sync: one alert that sums up what is already true, instead
   * of replaying it (stored once per source; returns whether it was new).
   */
  summarizeSource(sourceName: string): boolean {
    if (this.cache.storedAlertKeys([SOURCE_SUMMARY_KEY]).size > 0) return false;
    const now = this.clock.now();
    const facts = digestFacts(this.cache.board.worklistRows(), this.settings().costs, now);
    const inserted = this.cache.insertAlerts(
      [sourceSummaryDraft(sourceName, facts)],
      isoString(now),
    );
    this.alerts.deliver(inserted);
    return inserted.length > 0;
  }

  private pickedUp(now: number): PickedUpBox[] {
    return this.cache.board.pickedUpBoxes(now);
  }

  /** Checks now, then again when the next digest or reminder is due. */
  start(): void {
    this.stop();
    this.check();
    const now = this.clock.now();
    const delay = nextDue(this.pickedUp(now), this.settings(), now, this.zone) - now;
    this.cancelTimer = this.clock.setTimer(Math.max(delay, 1_000), () => this.start());
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }
}
