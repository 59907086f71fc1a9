/**
 * The outdated delivery order alert on a real cache file: an order recorded with what it said,
 * then a synced change to the LFD raises exactly one alert in the product's words.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter } from '../../../src/main/alerts/alert-center';
import { Cache } from '../../../src/main/cache/cache';
import type { ContainerResource } from '../../../src/shared/api/resources';
import { ManualClock } from '../../../src/shared/clock';
import { orderFacts } from '../../../src/shared/delivery-order';
import { RecordingNotifier } from '../../support/recording-notifier';
import { container, shipment, tempDir } from '../../support/cache-fixtures';

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let clock: ManualClock;
let notifier: RecordingNotifier;
let center: AlertCenter;

beforeEach(() => {
  tmp = tempDir('quayside-order-');
  cache = Cache.open(tmp.dir);
  clock = new ManualClock(Date.parse('2026-12-01T15:00:00.000Z'));
  notifier = new RecordingNotifier();
  center = new AlertCenter(cache, notifier, clock);
});
afterEach(() => {
  center.stop();
  cache.close();
  tmp.remove();
});

const s = shipment({ bill_of_lading_number: 'MAEU900000088', shipping_line_scac: 'MAEU' });
const ID = '0b3e4c52-4f0e-4b7a-9a43-2d6a1c0e9b22';
let version = 0;

function write(attrs: Partial<ContainerResource['attributes']>) {
  version++;
  const c = container(
    {
      pod_timezone: 'America/Los_Angeles',
      current_status: 'available',
      ...attrs,
      updated_at: new Date(clock.now() + version).toISOString(),
    },
    { id: ID, shipmentId: s.id },
  );
  cache.applyPage({ shipments: [s], containers: [c] }, new Date(clock.now()).toISOString());
}

const lfd = (terminal: string) => ({
  import_deadlines: { pickup_lfd_terminal: terminal, pickup_lfd_line: null, pickup_lfd_rail: null },
});

const orderAlerts = () => cache.listAlerts({ kinds: ['delivery_order_outdated'] }).alerts;

describe('outdated delivery order alert', () => {
  it('one alert when the LFD the order stated moves, none before, none again', () => {
    write(lfd('2026-12-03T08:00:00.000Z'));
    const detail = cache.board.containerDetail(ID)!;
    cache.recordDeliveryOrder({
      containerId: ID,
      documentId: 'doc-1',
      truckerId: 't1',
      truckerName: 'Harbor Drayage',
      facts: orderFacts(detail),
      madeAt: '2026-12-01T15:00:00.000Z',
    });
    center.checkDeadlines();
    expect(orderAlerts()).toEqual([]);

    write(lfd('2026-12-02T08:00:00.000Z'));
    center.checkDeadlines();
    center.checkDeadlines();
    const alerts = orderAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.body).toMatch(
      /^The delivery order sent to Harbor Drayage on 1 Dec 2026 15:00 .* says 3 Dec \(Terminal LFD\); the terminal now says 2 Dec \(Terminal LFD\)\.$/,
    );
    expect(notifier.notifications.map((n) => n.kind)).toContain('delivery_order_outdated');

    // The order survives a reopen of the cache file.
    cache.close();
    cache = Cache.open(tmp.dir);
    expect(cache.deliveryOrders().map((o) => o.facts.lfd?.date)).toEqual(['2026-12-03']);
  });
});
