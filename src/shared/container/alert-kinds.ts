/**
 * Alert kinds, their labels, and the thresholds a user can set.
 */

export const ALERT_KINDS = [
  'lfd_changed',
  'lfd_approaching',
  'ready_for_pickup',
  'hold_placed',
  'hold_cleared',
  'appointment_changed',
  'eta_changed',
  'picked_up',
  'empty_returned',
  'empty_return_due',
  'invoice_dispute_due',
  'delivery_order_outdated',
  'daily_digest',
  'source_summary',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Alerts about the whole day (the digest, a source's summary) open the worklist, not a box. */
export const opensWorklist = (kind: string | undefined): boolean =>
  kind === 'daily_digest' || kind === 'source_summary';

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  lfd_changed: 'LFD changed',
  lfd_approaching: 'LFD approaching',
  ready_for_pickup: 'Ready for pickup',
  hold_placed: 'Hold placed',
  hold_cleared: 'Hold cleared',
  appointment_changed: 'Appointment changed',
  eta_changed: 'ETA changed',
  picked_up: 'Picked up',
  empty_returned: 'Empty returned',
  empty_return_due: 'Empty return due (per diem)',
  invoice_dispute_due: 'D&D invoice dispute window closing',
  delivery_order_outdated: 'Delivery order outdated',
  daily_digest: 'Daily digest',
  source_summary: 'Summary on connecting',
};

/** Bounds of the alert thresholds a user can set, in hours. */
export const ALERT_THRESHOLD_LIMITS = { minHours: 1, maxHours: 720, maxLfdThresholds: 5 } as const;

export interface AlertThresholds {
  /** Hours before the LFD at which "LFD approaching" alerts fire. */
  lfdThresholdsHours: readonly number[];
  /** An ETA moving by more than this many hours raises an alert. */
  etaChangeThresholdHours: number;
}

export const DEFAULT_ALERT_THRESHOLDS = {
  lfdThresholdsHours: [48, 24],
  etaChangeThresholdHours: 12,
} as const satisfies AlertThresholds;
