/**
 * Display helpers shared by the views: readable labels, dates in the zone they happen in
 * (the shared date style), money. The last-free-day countdown and urgency are the shared LFD
 * rule's (src/shared/container/).
 */
import { DateTime } from 'luxon';
import { kept } from '../../shared/kept';

export { statusLabel } from '../../shared/container';

/** `snake_case` or dotted names as a sentence-case phrase. */
export function humanize(value: string): string {
  const words = value.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export {
  formatDate,
  formatDateTime,
  formatLocalDate,
  formatLocalDay,
  formatShortDateTime,
  localDateZoneName,
} from '../../shared/date-style';

/** "3 min ago", "in 2 days": relative to the given instant. */
export function formatRelative(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  // `now` ticks only every few seconds: anything within a minute of it is "just now".
  if (Math.abs(Date.parse(iso) - now) < 60_000) return 'just now';
  return DateTime.fromISO(iso).toRelative({ base: DateTime.fromMillis(now) }) ?? '—';
}

/** Money formatters by currency code (null: not a currency Intl knows), built once each. */
const moneyFormats = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(currency: string): Intl.NumberFormat | null {
  return kept(
    moneyFormats,
    currency,
    () => {
      try {
        return new Intl.NumberFormat(undefined, {
          style: 'currency',
          currency,
          maximumFractionDigits: 2,
        });
      } catch {
        return null;
      }
    },
    64,
  );
}

export function formatMoney(amount: number | null, currency: string | null): string {
  if (amount === null) return '—';
  const format = moneyFormat(currency ?? 'USD');
  return format ? format.format(amount) : `${amount.toFixed(2)} ${currency ?? ''}`.trim();
}

const HOUR = 3_600_000;

/** Terminal data older than this is shown as stale. */
export const STALE_AFTER_MS = 7 * 24 * HOUR;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
