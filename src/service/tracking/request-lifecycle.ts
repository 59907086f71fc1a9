/**
 * A tracking request's way from `pending` to `created`, `awaiting_manifest` or `failed` (the
 * states and reasons are drawn in the header comment of engine.ts): validation, the line lookup,
 * retries with backoff, and the shipment with its containers created in one transaction with
 * the request's outcome and its events.
 */
import type { TrackingRequestFailedReason } from '../../shared/api/resources';
import type { StagedCustomFieldValue } from '../store/custom-fields';
import type { TrackingRequestsTable } from '../store/schema';
import { applyShipmentFacts, interpretLine, type ApplyScope, type LineView } from './apply';
import type { EngineContext } from './engine-context';
import { isValidContainerNumber } from '../../shared/iso6346';
import type { ShipmentRefreshers } from './refreshers';
import {
  ARRIVAL_WINDOW_MS,
  AWAITING_LIMIT_MS,
  AWAITING_RECHECK_MS,
  MAX_RETRIES,
  RETRY_BASE_MS,
  TEST_SCAC,
} from './windows';

export class RequestLifecycle {
  constructor(
    private readonly ctx: EngineContext,
    private readonly refreshers: ShipmentRefreshers,
  ) {}

  /** Looks a pending (or awaiting-manifest) request up and records what came of it. */
  async process(id: string): Promise<void> {
    try {
      await this.lookUp(id);
    } catch (err) {
      // Another instance recorded this request's outcome first: ours was rolled back.
      if (!(err instanceof RequestSuperseded)) throw err;
    }
  }

  private async lookUp(id: string): Promise<void> {
    const { tracking, feeds, clock, log, env } = this.ctx;
    const request = await tracking.trackingRequest(id);
    if (!request || (request.status !== 'pending' && request.status !== 'awaiting_manifest'))
      return;
    // Another instance may have just run it and scheduled the next attempt: keep that schedule.
    if (request.next_attempt_at && request.next_attempt_at > new Date(clock.now()).toISOString())
      return;
    const number = request.request_number;

    if (request.scac === TEST_SCAC) {
      if (number === 'TEST-TR-SUCCEEDED') return this.succeedTestRequest(request);
      return this.failRequest(request, 'not_found');
    }
    if (
      !/^[A-Z0-9]{4,30}$/.test(number) ||
      (request.request_type === 'container' && !isValidContainerNumber(number))
    ) {
      return this.failRequest(request, 'invalid_number');
    }
    if (await tracking.isTrackedElsewhere(request)) return this.failRequest(request, 'duplicate');

    const result = await feeds.lineEvents(request.scac, feeds.queryFor(request));
    feeds.count(result.outcome);
    switch (result.outcome) {
      case 'unsupported':
        return this.failRequest(request, 'data_unavailable');
      case 'not_found':
        if (request.request_type === 'container') return this.failRequest(request, 'not_found');
        return this.awaitManifest(request);
      case 'found':
        break;
      default:
        log.warn(
          { request: request.id, scac: request.scac, outcome: result.outcome, error: result.error },
          'line lookup failed; will retry',
        );
        return this.retryRequest(
          request,
          result.outcome === 'unreachable' || result.outcome === 'server_error'
            ? 'shipping_line_unreachable'
            : 'unrecognized_response',
        );
    }

    const view = interpretLine(env, request.scac, result.events, clock.now());
    if (view.cancelledAt) return this.failRequest(request, 'booking_cancelled');
    const numbers =
      request.request_type === 'container' ? [number] : view.containerNumbers.slice(0, 200);
    // The line knows the number but lists no containers yet: same as an unknown manifest.
    if (numbers.length === 0) return this.awaitManifest(request);
    if (this.journeyEndedLongAgo(view)) return this.failRequest(request, 'expired');

    const deadlines = await feeds.deadlines(request.scac, numbers);
    const terminal = await feeds.terminalStatus(numbers);
    const billOfLading =
      request.request_type === 'bill_of_lading'
        ? number
        : (result.events
            .flatMap((e) => e.documentReferences ?? [])
            .find((d) => d.documentReferenceType === 'TRD')?.documentReferenceValue ?? number);

    const shipment = await this.ctx.scope(async (scope) => {
      const shipment = await scope.stores.tracking.createShipment(request.account_id, {
        billOfLadingNumber: billOfLading,
        normalizedNumber: number,
        scac: request.scac,
        refNumbers: JSON.parse(request.ref_numbers) as string[],
        tags: JSON.parse(request.shipment_tags) as string[],
      });
      await scope.stores.tracking.setShipmentSchedule(shipment.id, {
        next_line_check_at: new Date(scope.now + this.ctx.lineIntervalMs).toISOString(),
        line_changed_at: new Date(scope.now).toISOString(),
      });
      await applyShipmentFacts(env, scope, shipment, view, { announce: false });
      await this.refreshers.applyContainers(scope, shipment.id, view, numbers, deadlines, terminal);
      await this.refreshers.saveEventSnapshot(scope, shipment.id, result.events);
      await this.setRequestedCustomFields(scope, request, shipment.id);
      await this.finishRequest(scope, request, 'created', null, shipment.id);
      return shipment;
    });
    await this.ctx.subscriptions.ensure(shipment, feeds.queryFor(request));
  }

  private journeyEndedLongAgo(view: LineView): boolean {
    const last = view.raw.filter((e) => !e.estimated).map((e) => Date.parse(e.timestamp));
    if (last.length === 0) return false;
    const ended = view.raw.some(
      (e) => !e.estimated && e.event_code === 'GTIN' && e.empty_indicator === 'EMPTY',
    );
    return ended && this.ctx.clock.now() - Math.max(...last) > ARRIVAL_WINDOW_MS;
  }

  private async succeedTestRequest(request: TrackingRequestsTable): Promise<void> {
    await this.ctx.scope(async (scope) => {
      const shipment = await scope.stores.tracking.createShipment(request.account_id, {
        billOfLadingNumber: request.request_number,
        scac: request.scac,
        refNumbers: JSON.parse(request.ref_numbers) as string[],
        tags: JSON.parse(request.shipment_tags) as string[],
      });
      await this.setRequestedCustomFields(scope, request, shipment.id);
      await this.finishRequest(scope, request, 'created', null, shipment.id);
    });
  }

  /**
   * The custom field values the client asked for, on the shipment the request created and its
   * containers: what was set on the request itself (a PO number on the Track form) and then
   * what `initial_custom_fields` staged, which wins where both name the same field.
   */
  private async setRequestedCustomFields(
    scope: ApplyScope,
    request: TrackingRequestsTable,
    shipmentId: string,
  ): Promise<void> {
    const fields = scope.stores.customFields;
    await fields.carryOverToShipment(request.account_id, request.id, shipmentId);
    if (request.initial_custom_fields) {
      const staged = JSON.parse(request.initial_custom_fields) as StagedCustomFieldValue[];
      await fields.applyStaged(request.account_id, staged, shipmentId);
    }
  }

  private async finishRequest(
    scope: ApplyScope,
    request: TrackingRequestsTable,
    status: 'created' | 'failed' | 'awaiting_manifest',
    failedReason: TrackingRequestFailedReason | null,
    shipmentId: string | null,
    nextAttemptAt: string | null = null,
    retryCount?: number,
  ): Promise<void> {
    const recorded = await scope.stores.tracking.finishTrackingRequest(
      request.id,
      {
        status,
        failedReason,
        shipmentId,
        nextAttemptAt,
        retryCount,
        updatedAt: new Date(scope.now).toISOString(),
      },
      request.updated_at,
    );
    if (!recorded) throw new RequestSuperseded();
    const event =
      status === 'created'
        ? 'tracking_request.succeeded'
        : status === 'failed'
          ? 'tracking_request.failed'
          : request.status !== 'awaiting_manifest'
            ? 'tracking_request.awaiting_manifest'
            : null;
    if (event) {
      await this.ctx.env.events.record(scope.stores, {
        accountId: request.account_id,
        event,
        reference: { type: 'tracking_request', id: request.id },
        occurredAt: new Date(scope.now).toISOString(),
      });
    }
  }

  private failRequest(
    request: TrackingRequestsTable,
    reason: TrackingRequestFailedReason,
  ): Promise<void> {
    return this.ctx.scope((scope) => this.finishRequest(scope, request, 'failed', reason, null));
  }

  private awaitManifest(request: TrackingRequestsTable): Promise<void> {
    const now = this.ctx.clock.now();
    if (now - Date.parse(request.created_at) >= AWAITING_LIMIT_MS) {
      return this.failRequest(request, 'not_found');
    }
    const next = new Date(now + AWAITING_RECHECK_MS).toISOString();
    return this.ctx.scope((scope) =>
      this.finishRequest(scope, request, 'awaiting_manifest', null, null, next),
    );
  }

  private async retryRequest(
    request: TrackingRequestsTable,
    reason: TrackingRequestFailedReason,
  ): Promise<void> {
    const retries = (request.retry_count ?? 0) + 1;
    if (retries > MAX_RETRIES) {
      await this.ctx.scope((scope) =>
        this.finishRequest(scope, request, 'failed', 'retries_exhausted', null, null, MAX_RETRIES),
      );
      return;
    }
    const delay = RETRY_BASE_MS * 2 ** (retries - 1);
    await this.ctx.tracking.scheduleRetry(request.id, {
      retryCount: retries,
      reason,
      nextAttemptAt: new Date(this.ctx.clock.now() + delay).toISOString(),
    });
  }
}

/** The request changed since it was read (another instance ran it): undo this outcome. */
class RequestSuperseded extends Error {}
