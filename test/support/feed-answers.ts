/**
 * Changes a stored container the way production does: the tracking engine's apply step fed a
 * feed's answer (the line's import deadlines, a terminal's availability record), in one
 * transaction with the webhook events it records. Tests use this instead of writing columns.
 */
import type { LineImportDeadlines } from '../../src/shared/feeds/line-deadlines';
import type { TerminalContainerStatus } from '../../src/shared/feeds/terminal';
import type { ServiceStore } from '../../src/service/index';
import {
  applyContainer,
  emptyIssueCounters,
  type ApplyEnv,
  type ContainerInputs,
} from '../../src/service/tracking/apply';

export interface FeedAnswer {
  /** The line's last free day for the box (null: withdrawn). */
  lineLastFreeDay?: string | null;
  /** What the terminal (or rail terminal) says about the box; its number is filled in. */
  terminal?: Omit<TerminalContainerStatus, 'container_number'>;
}

/** Applies `answer` to the container as the engine applies a feed pass. */
export async function applyFeedAnswer(
  store: ServiceStore,
  containerId: string,
  answer: FeedAnswer,
): Promise<void> {
  const { stores, clock } = store.context;
  const [container] = await stores.resources.containers([containerId]);
  if (!container) throw new Error(`no container ${containerId}`);
  const shipment = await stores.tracking.shipment(container.shipment_id);
  if (!shipment) throw new Error(`no shipment ${container.shipment_id}`);
  const now = clock.now();
  const inputs: ContainerInputs = {};
  if (answer.lineLastFreeDay !== undefined) {
    const deadlines: LineImportDeadlines = {
      equipmentReference: container.number,
      lastFreeDay: answer.lineLastFreeDay,
      locode: answer.terminal?.facility.locode ?? 'USLAX',
      updatedDateTime: new Date(now).toISOString(),
    };
    inputs.deadlines = deadlines;
  }
  if (answer.terminal) inputs.terminal = { ...answer.terminal, container_number: container.number };
  const env: ApplyEnv = {
    ref: store.reference,
    events: store.events,
    counters: emptyIssueCounters(),
    knownVessel: () => false,
    firmsForSmdg: () => null,
    warn: () => {},
    skipped: () => {},
  };
  await stores.transaction((unit) =>
    applyContainer(env, { stores: unit, now }, shipment, container, inputs),
  );
}

/**
 * What a Los Angeles terminal says about a box that is there, available, without holds or fees,
 * checked now; `changes` replace any of it.
 */
export function harborTerminalAnswer(
  changes: Partial<NonNullable<FeedAnswer['terminal']>> = {},
): NonNullable<FeedAnswer['terminal']> {
  return {
    facility: {
      kind: 'terminal',
      firms_code: 'Y258',
      smdg_code: null,
      name: 'Harbor Terminal',
      locode: 'USLAX',
      time_zone: 'America/Los_Angeles',
    },
    checked_at: new Date().toISOString(),
    discharged_at: null,
    rail_unloaded_at: null,
    available_for_pickup: true,
    holds: [],
    fees: [],
    last_free_day: null,
    pickup_appointment_at: null,
    yard_location: null,
    full_out_at: null,
    full_out_chassis_number: null,
    empty_returned_at: null,
    ...changes,
  };
}
