/**
 * Whether a box is ready for pickup, and if not, why, in words.
 */
import { hasLeftTerminal, statusLabel } from './statuses';

/** What decides whether a container can be picked up. */
export interface ReadinessFacts {
  status: string;
  activeHoldCount: number;
  /** When the box (or its vessel) arrived at the port of discharge. */
  arrivedAt: string | null;
  dischargedAt: string | null;
  /** Set once the full box went out of the terminal gate. */
  fullOutAt: string | null;
  availabilityKnown: boolean;
  availableForPickup: boolean | null;
}

export const NOT_READY_REASONS = [
  'left_terminal',
  'on_hold',
  'not_arrived',
  'not_discharged',
  'availability_unknown',
  'not_available',
] as const;
export type NotReadyReason = (typeof NOT_READY_REASONS)[number];

export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason };

/**
 * Ready for pickup means: still at the terminal, no active hold, and the terminal says available.
 * Otherwise the first reason that applies, in the order a planner would clear them.
 */
export function readiness(f: ReadinessFacts): Readiness {
  if (hasLeftTerminal(f.status) || f.fullOutAt) return { ready: false, reason: 'left_terminal' };
  if (f.activeHoldCount > 0) return { ready: false, reason: 'on_hold' };
  if (f.availabilityKnown && f.availableForPickup === true) return { ready: true };
  if (!f.arrivedAt) return { ready: false, reason: 'not_arrived' };
  if (!f.dischargedAt) return { ready: false, reason: 'not_discharged' };
  if (!f.availabilityKnown) return { ready: false, reason: 'availability_unknown' };
  return { ready: false, reason: 'not_available' };
}

/** A not-ready reason in a few words, e.g. "on hold", "2 holds", "picked up". */
export function describeNotReady(
  reason: NotReadyReason,
  f: Pick<ReadinessFacts, 'status' | 'activeHoldCount'>,
): string {
  switch (reason) {
    case 'left_terminal':
      return hasLeftTerminal(f.status) ? statusLabel(f.status).toLowerCase() : 'picked up';
    case 'on_hold':
      return f.activeHoldCount === 1 ? 'on hold' : `${f.activeHoldCount} holds`;
    case 'not_arrived':
      return 'not arrived';
    case 'not_discharged':
      return 'not discharged';
    case 'availability_unknown':
      return 'availability unknown';
    case 'not_available':
      return 'not available';
  }
}

/** A board row's readiness facts, as the cache projects them. */
export interface ReadinessRow {
  ready: boolean;
  status: string;
  holdsCount: number;
  ataAt: string | null;
  dischargedAt: string | null;
  availabilityKnown: boolean;
  availableForPickup: boolean | null;
}

/** "Ready", or "Not ready: 2 holds": a board row's readiness in words. */
export function readinessText(row: ReadinessRow): string {
  if (row.ready) return 'Ready';
  const facts = {
    status: row.status,
    activeHoldCount: row.holdsCount,
    arrivedAt: row.ataAt,
    dischargedAt: row.dischargedAt,
    fullOutAt: null,
    availabilityKnown: row.availabilityKnown,
    availableForPickup: row.availableForPickup,
  };
  const state = readiness(facts);
  // The cache's verdict stands; a row it holds back for a reason the row does not show is unreleased.
  return `Not ready: ${state.ready ? 'not released' : describeNotReady(state.reason, facts)}`;
}
