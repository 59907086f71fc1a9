/**
 * A container's D&D statement input from the desktop cache: the record, its shipment and events,
 * and the history the cache keeps that the service does not: when each hold was seen placed and
 * cleared, and each last-free-day change with its dates (from the stored alerts, which the sync
 * raises as it sees each change; times are when Quayside saw them).
 */
import { DateTime } from 'luxon';
import type {
  ChargesInput,
  HoldPeriod,
  LfdChange,
  ReceivedInvoice,
} from '../../shared/charges/statement';
import { isActiveHold, type LfdSource } from '../../shared/container';
import type { CostTables } from '../../shared/cost-clock';
import type { AlertRecord, ContainerDetail } from '../../shared/desktop';

/** The alert kinds that make a container's history. */
export const HISTORY_ALERT_KINDS = ['hold_placed', 'hold_cleared', 'lfd_changed'] as const;

/** The hold an alert is about: the last part of its dedupe key (`kind:id:version:name`). */
const holdName = (alert: AlertRecord) =>
  alert.dedupeKey.slice(alert.dedupeKey.lastIndexOf(':') + 1);

/**
 * Holds over time: each placed alert opens a period, the matching cleared alert closes it. A hold
 * still on without a placed alert (on before Quayside looked) stands from the last check.
 */
export function holdHistory(
  alerts: readonly AlertRecord[],
  detail: ContainerDetail,
  now: number,
): HoldPeriod[] {
  const periods: HoldPeriod[] = [];
  const open = new Map<string, HoldPeriod>();
  const ordered = [...alerts].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const alert of ordered) {
    const name = holdName(alert);
    if (alert.kind === 'hold_placed' && !open.has(name)) {
      const period = { name, from: alert.createdAt, to: null };
      open.set(name, period);
      periods.push(period);
    } else if (alert.kind === 'hold_cleared') {
      const period = open.get(name);
      if (period) period.to = alert.createdAt;
      open.delete(name);
    }
  }
  const checked = detail.container.attributes.terminal_checked_at ?? new Date(now).toISOString();
  for (const hold of detail.holds.filter(isActiveHold)) {
    if (!open.has(hold.name)) periods.push({ name: hold.name, from: checked, to: null });
  }
  return periods;
}

const LFD_LINE = /^(Last free day|Line LFD|Terminal LFD|Rail LFD): (.+) -> (.+)$/;
const SOURCES: Record<string, LfdSource | null> = {
  'Last free day': null,
  'Line LFD': 'line',
  'Terminal LFD': 'terminal',
  'Rail LFD': 'rail',
};

/** "Mon 7 Dec 2026 PST" (the alert's words for a day) as `2026-12-07`; "none" as null. */
function alertDay(text: string): string | null {
  const words = text.trim().split(/\s+/).slice(0, 4).join(' ');
  const day = DateTime.fromFormat(words, 'ccc d LLL yyyy', { locale: 'en-US' });
  return day.isValid ? day.toISODate() : null;
}

/** Each LFD change the alerts recorded, with the dates before and after. */
export function lfdChanges(alerts: readonly AlertRecord[]): LfdChange[] {
  return alerts
    .filter((a) => a.kind === 'lfd_changed')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .flatMap((alert) =>
      alert.body.split('\n').flatMap((line) => {
        const match = LFD_LINE.exec(line.trim());
        if (!match) return [];
        return [
          {
            at: alert.createdAt,
            source: SOURCES[match[1]!] ?? null,
            from: alertDay(match[2]!),
            to: alertDay(match[3]!),
          },
        ];
      }),
    );
}

export function chargesInput(
  detail: ContainerDetail,
  alerts: readonly AlertRecord[],
  invoice: ReceivedInvoice | null,
  tables: CostTables,
  now: number,
): ChargesInput {
  return {
    container: detail.container.attributes,
    shipment: detail.shipment?.attributes ?? null,
    terminalName: detail.row.terminalName,
    events: detail.events.map((e) => e.attributes),
    holdHistory: holdHistory(alerts, detail, now),
    lfdChanges: lfdChanges(alerts),
    invoice,
    tables,
    now,
  };
}
