/**
 * Keeping created shipments current: the line check (events and LFDs), events a carrier pushed
 * (applied the same way), the terminal check (availability, holds, fees, terminal LFD) and the
 * stop rules applied after each.
 */
import type { LineImportDeadlines } from '../../shared/feeds/line-deadlines';
import type { TerminalContainerStatus } from '../../shared/feeds/terminal';
import type { DcsaEvent, DcsaQuery } from '../feeds';
import type { ShipmentsTable } from '../store/schema';
import {
  applyContainer,
  applyShipmentFacts,
  interpretLine,
  type ApplyScope,
  type LineView,
} from './apply';
import type { EngineContext } from './engine-context';
import { mergeEvents } from './subscriptions';
import { ARRIVAL_WINDOW_MS, FULL_OUT_WINDOW_MS, NO_UPDATES_WINDOW_MS } from './windows';

export class ShipmentRefreshers {
  constructor(private readonly ctx: EngineContext) {}

  /** Creates the containers not stored yet and applies each one's feed answers. */
  async applyContainers(
    scope: ApplyScope,
    shipmentId: string,
    view: LineView | null,
    numbers: string[],
    deadlines: Map<string, LineImportDeadlines | null>,
    terminal: Map<string, TerminalContainerStatus> | null,
  ): Promise<void> {
    const { env } = this.ctx;
    await scope.stores.tracking.lockShipment(shipmentId);
    const shipment = await scope.stores.tracking.shipment(shipmentId);
    if (!shipment) throw new Error(`shipment ${shipmentId} vanished`);
    const existing = await scope.stores.tracking.containersOfShipment(shipmentId);
    const byNumber = new Map(existing.map((c) => [c.number, c]));
    const inlandMove =
      view !== null && view.route.destination !== null && view.route.destination !== view.route.pod;
    for (const number of numbers) {
      let container = byNumber.get(number);
      let created = false;
      if (!container) {
        container = await scope.stores.tracking.createContainer(shipment.account_id, shipment.id, {
          number,
        });
        created = true;
        await env.events.record(scope.stores, {
          accountId: shipment.account_id,
          event: 'container.created',
          reference: { type: 'container', id: container.id },
          occurredAt: new Date(scope.now).toISOString(),
        });
      }
      await applyContainer(env, scope, shipment, container, {
        line: view ? { raw: view.raw, route: view.route, inlandMove } : undefined,
        ...(deadlines.has(number) ? { deadlines: deadlines.get(number) ?? null } : {}),
        terminal: terminal?.get(number) ?? null,
        created,
      });
    }
  }

  async refreshLine(shipmentId: string): Promise<void> {
    const { tracking, feeds, clock, log, env } = this.ctx;
    const shipment = await this.loadActiveShipment(shipmentId);
    if (!shipment) return;
    const request = await tracking.trackingRequestOfShipment(shipmentId);
    const query: DcsaQuery = request
      ? feeds.queryFor(request)
      : { kind: 'transportDocumentReference', value: shipment.normalized_number };
    const result = await feeds.lineEvents(shipment.scac, query);
    feeds.count(result.outcome);
    const nowIso = new Date(clock.now()).toISOString();
    const nextCheck = () =>
      new Date(
        clock.now() + this.ctx.subscriptions.pollDelay(shipmentId, this.ctx.lineIntervalMs),
      ).toISOString();
    if (result.outcome !== 'found') {
      if (result.outcome !== 'not_found')
        log.warn({ shipment: shipmentId, outcome: result.outcome }, 'line refresh failed');
      await this.ctx.scope(async (scope) => {
        await scope.stores.tracking.lockShipment(shipmentId);
        await scope.stores.tracking.setShipmentSchedule(shipmentId, {
          line_tracking_last_attempted_at: nowIso,
          next_line_check_at: nextCheck(),
        });
        await this.applyStopRules(scope, shipmentId);
      });
      return;
    }
    const view = interpretLine(env, shipment.scac, result.events, clock.now());
    const deadlines = await feeds.deadlines(
      shipment.scac,
      await this.openContainerNumbers(shipmentId, view),
    );
    const applied = await this.ctx.scope((scope) =>
      this.applyLineEvents(scope, shipmentId, result.events, view, deadlines, nextCheck()),
    );
    if (applied) await this.ctx.subscriptions.ensure(shipment, query);
  }

  /**
   * Events a carrier pushed for a subscribed shipment: merged into the events of its last lookup
   * and applied exactly as a poll's answer (without the import deadlines, which only a poll
   * asks for). Before any lookup there is nothing to merge into, so the line is asked instead.
   */
  async applyPushedEvents(shipmentId: string, pushed: DcsaEvent[]): Promise<void> {
    const shipment = await this.loadActiveShipment(shipmentId);
    if (!shipment) return;
    const known = (await this.ctx.lineSubscriptions.eventSnapshot(shipmentId)) as
      DcsaEvent[] | null;
    if (!known) {
      this.ctx.checkLineSoon(shipmentId);
      return;
    }
    await this.ctx.scope(async (scope) => {
      await scope.stores.tracking.lockShipment(shipmentId);
      // Read again inside the transaction: a poll may have stored a newer answer meanwhile.
      const current = ((await scope.stores.lineSubscriptions.eventSnapshot(shipmentId)) ??
        known) as DcsaEvent[];
      const events = mergeEvents(current, pushed);
      const view = interpretLine(this.ctx.env, shipment.scac, events, scope.now);
      const nextCheck = new Date(
        scope.now + this.ctx.subscriptions.pollDelay(shipmentId, this.ctx.lineIntervalMs),
      ).toISOString();
      await this.applyLineEvents(scope, shipmentId, events, view, new Map(), nextCheck);
    });
  }

  /** Container numbers of the shipment and the line's answer whose empty is not back yet. */
  private async openContainerNumbers(shipmentId: string, view: LineView): Promise<string[]> {
    const containers = await this.ctx.tracking.containersOfShipment(shipmentId);
    const numbers = [...new Set([...containers.map((c) => c.number), ...view.containerNumbers])];
    return numbers.filter((n) => !containers.find((c) => c.number === n && c.empty_terminated_at));
  }

  /** Applies the line's events to a shipment still tracked; false when it was stopped. */
  private async applyLineEvents(
    scope: ApplyScope,
    shipmentId: string,
    events: readonly DcsaEvent[],
    view: LineView,
    deadlines: Map<string, LineImportDeadlines | null>,
    nextCheck: string,
  ): Promise<boolean> {
    await scope.stores.tracking.lockShipment(shipmentId);
    const current = await scope.stores.tracking.shipment(shipmentId);
    if (!current) throw new Error(`shipment ${shipmentId} vanished`);
    if (current.line_tracking_stopped_at) return false;
    const containers = await scope.stores.tracking.containersOfShipment(shipmentId);
    const numbers = [...new Set([...containers.map((c) => c.number), ...view.containerNumbers])];
    await applyShipmentFacts(this.ctx.env, scope, current, view, { announce: true });
    await this.applyContainers(scope, shipmentId, view, numbers, deadlines, null);
    await this.saveEventSnapshot(scope, shipmentId, events);
    await scope.stores.tracking.setShipmentSchedule(shipmentId, { next_line_check_at: nextCheck });
    await this.applyStopRules(scope, shipmentId);
    return true;
  }

  /** Keeps the line's last answer, which events a carrier pushes later merge into. */
  async saveEventSnapshot(
    scope: ApplyScope,
    shipmentId: string,
    events: readonly DcsaEvent[],
  ): Promise<void> {
    await scope.stores.lineSubscriptions.saveEventSnapshot(
      shipmentId,
      events,
      new Date(scope.now).toISOString(),
    );
  }

  async refreshTerminal(shipmentId: string): Promise<void> {
    const shipment = await this.loadActiveShipment(shipmentId);
    if (!shipment) return;
    const containers = await this.ctx.tracking.containersOfShipment(shipmentId);
    const open = containers
      .filter((c) => c.current_status !== 'empty_returned' && c.current_status !== 'delivered')
      .map((c) => c.number);
    const terminal = await this.ctx.feeds.terminalStatus(open);
    await this.ctx.scope(async (scope) => {
      await scope.stores.tracking.lockShipment(shipmentId);
      if (terminal.size > 0)
        await this.applyContainers(
          scope,
          shipmentId,
          null,
          [...terminal.keys()],
          new Map(),
          terminal,
        );
      await scope.stores.tracking.setShipmentSchedule(shipmentId, {
        next_terminal_check_at: new Date(scope.now + this.ctx.terminalIntervalMs).toISOString(),
      });
      await this.applyStopRules(scope, shipmentId);
    });
  }

  private async loadActiveShipment(id: string): Promise<ShipmentsTable | undefined> {
    const s = await this.ctx.tracking.shipment(id);
    return s && !s.line_tracking_stopped_at ? s : undefined;
  }

  /** Stops line tracking when a stop rule holds (see the header comment of engine.ts). */
  private async applyStopRules(scope: ApplyScope, shipmentId: string): Promise<void> {
    const s = await scope.stores.tracking.shipment(shipmentId);
    if (!s) throw new Error(`shipment ${shipmentId} vanished`);
    if (s.line_tracking_stopped_at) return;
    const containers = await scope.stores.tracking.containersOfShipment(shipmentId);
    const now = scope.now;
    const olderThan = (t: string | null | undefined, ms: number) =>
      t != null && now - Date.parse(t) > ms;
    let reason:
      | 'booking_cancelled'
      | 'all_containers_terminated'
      | 'past_full_out_window'
      | 'past_arrival_window'
      | 'no_updates_at_line'
      | null = null;
    if (s.cancelled_at) reason = 'booking_cancelled';
    else if (containers.length > 0 && containers.every((c) => c.empty_terminated_at))
      reason = 'all_containers_terminated';
    else if (
      containers.length > 0 &&
      containers.every((c) =>
        olderThan(c.final_destination_full_out_at ?? c.pod_full_out_at, FULL_OUT_WINDOW_MS),
      )
    )
      reason = 'past_full_out_window';
    else if (olderThan(s.pod_ata_at, ARRIVAL_WINDOW_MS)) reason = 'past_arrival_window';
    else if (olderThan(s.line_changed_at ?? s.created_at, NO_UPDATES_WINDOW_MS))
      reason = 'no_updates_at_line';
    if (!reason) return;
    const nowIso = new Date(now).toISOString();
    await scope.stores.tracking.stopLineTracking(shipmentId, reason, nowIso);
  }
}
