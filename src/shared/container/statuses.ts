/**
 * Container statuses: which exist, their labels, and which mean the box has left the terminal or finished its journey.
 */

/** Every `current_status` the /v2 API can report (the service derives a subset of them). */
export const CONTAINER_STATUSES = [
  'new',
  'on_ship',
  'available',
  'not_available',
  'grounded',
  'on_rail',
  'picked_up',
  'off_dock',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
  'awaiting_inland_transfer',
] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

/** Readable name of each status. */
export const CONTAINER_STATUS_LABELS: Record<ContainerStatus, string> = {
  new: 'Booked',
  on_ship: 'On vessel',
  available: 'Available',
  not_available: 'Not available',
  grounded: 'Grounded',
  on_rail: 'On rail',
  picked_up: 'Picked up',
  off_dock: 'Off dock',
  delivered: 'Delivered',
  dropped: 'Dropped',
  loaded: 'Loaded',
  empty_returned: 'Empty returned',
  awaiting_inland_transfer: 'Awaiting inland transfer',
};

/**
 * Statuses after which the container has left the port terminal: no pickup left to plan, its
 * last free day no longer matters. `loaded` counts: a Terminal49-style service reports it for a
 * box loaded onto the trucker's chassis or the outbound rail.
 */
export const LEFT_TERMINAL_STATUSES = [
  'picked_up',
  'off_dock',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
] as const satisfies readonly ContainerStatus[];

const LEFT_TERMINAL = new Set<string>(LEFT_TERMINAL_STATUSES);

/**
 * Statuses after which nothing is left to do for the box: the empty is back. A picked-up box is
 * not complete yet: its empty return (per diem) still runs.
 */
export const COMPLETED_STATUSES = ['empty_returned'] as const satisfies readonly ContainerStatus[];

const COMPLETED = new Set<string>(COMPLETED_STATUSES);

/** Whether a container's work is done (views hide these unless "Show completed" is on). */
export const isCompleted = (status: string): boolean => COMPLETED.has(status);

/** Whether a status (any string, as a remote service may report new ones) means "left the terminal". */
export const hasLeftTerminal = (status: string): boolean => LEFT_TERMINAL.has(status);

/**
 * The readable name of a status; an unknown one is spelled out from its code, and a missing one
 * (a sparse record from a compatible service) is a dash.
 */
export function statusLabel(status: string): string {
  if (!status) return '—';
  return (CONTAINER_STATUS_LABELS as Record<string, string>)[status] ?? spellOut(status);
}

/** A code in words: `freight_hold` → "Freight hold". */
export const spellOut = (code: string): string => {
  const words = code.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
