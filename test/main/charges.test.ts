/**
 * The desktop's D&D statement from a real cache: hold and LFD history from the alerts the sync
 * raised as it saw each change, the received invoice kept in the cache, and the dispute reminder.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter } from '../../src/main/alerts/alert-center';
import { Cache } from '../../src/main/cache/cache';
import { HISTORY_ALERT_KINDS, chargesInput } from '../../src/main/cache/charges-input';
import { passThroughCsv } from '../../src/shared/charges/export';
import { MIGRATIONS } from '../../src/main/cache/migrations';
import type { ContainerResource } from '../../src/shared/api/resources';
import { chargesStatement, passThroughStatement } from '../../src/shared/charges/statement';
import { ManualClock } from '../../src/shared/clock';
import { DEFAULT_COST_TABLES } from '../../src/shared/cost-clock';
import { RecordingNotifier } from '../support/recording-notifier';
import { container, shipment, tempDir } from '../support/cache-fixtures';

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let clock: ManualClock;
let notifier: RecordingNotifier;
let center: AlertCenter;

beforeEach(() => {
  tmp = tempDir('quayside-charges-');
  cache = Cache.open(tmp.dir);
  clock = new ManualClock(Date.parse('2026-03-02T20:00:00.000Z'));
  notifier = new RecordingNotifier();
  center = new AlertCenter(cache, notifier, clock);
});
afterEach(() => {
  center.stop();
  cache.close();
  tmp.remove();
});

const s = shipment({
  bill_of_lading_number: 'MAEU900000077',
  shipping_line_scac: 'MAEU',
  customer_name: 'Acme Imports',
});
let version = 0;
const ID = '7d1f3c52-4f0e-4b7a-9a43-2d6a1c0e9b11';

function write(attrs: Partial<ContainerResource['attributes']>, base?: ContainerResource) {
  version++;
  const c = container(
    { ...base?.attributes, ...attrs, updated_at: new Date(clock.now() + version).toISOString() },
    { id: base?.id ?? ID, shipmentId: s.id },
  );
  const outcome = cache.applyPage(
    { shipments: [s], containers: [c] },
    new Date(clock.now()).toISOString(),
    center.detect,
  );
  center.deliver(outcome.alerts);
  return c;
}

function statement() {
  const detail = cache.board.containerDetail(ID)!;
  const alerts = cache.listAlerts({ containerId: ID, kinds: [...HISTORY_ALERT_KINDS] });
  const stored = cache.receivedInvoice(ID);
  return chargesStatement(
    chargesInput(detail, alerts.alerts, stored, DEFAULT_COST_TABLES, clock.now()),
  );
}

describe('D&D statement from the desktop cache', () => {
  it('flags the days of a hold and of an LFD moved earlier, as the sync saw them', () => {
    // Discharged Mon 2 Mar 08:00 PST, available, terminal LFD Fri 6 Mar.
    const base = write({
      current_status: 'available',
      pod_discharged_at: '2026-03-02T16:00:00.000Z',
      availability_known: true,
      available_for_pickup: true,
      import_deadlines: {
        pickup_lfd_terminal: '2026-03-06T08:00:00.000Z',
        pickup_lfd_line: null,
        pickup_lfd_rail: null,
      },
    });
    // The line holds it for freight, seen Tue 3 Mar 10:00 PST.
    clock.advanceTo(Date.parse('2026-03-03T18:00:00.000Z'));
    const held = write(
      { holds_at_pod_terminal: [{ name: 'freight', status: 'hold', description: null }] },
      base,
    );
    // Thu 5 Mar 10:00 PST: released, and the terminal LFD moved back to Wed 4 Mar.
    clock.advanceTo(Date.parse('2026-03-05T18:00:00.000Z'));
    write(
      {
        holds_at_pod_terminal: [],
        import_deadlines: {
          pickup_lfd_terminal: '2026-03-04T08:00:00.000Z',
          pickup_lfd_line: null,
          pickup_lfd_rail: null,
        },
      },
      held,
    );
    clock.advanceTo(Date.parse('2026-03-08T20:00:00.000Z'));
    const d = statement().demurrage!;
    expect(d.freeTimeEnd).toBe('2026-03-04');
    expect(d.days.map((x) => [x.date, x.dispute?.reasons ?? []])).toEqual([
      ['2026-03-05', ['Freight hold by the line', 'Last free day moved earlier']],
      ['2026-03-06', ['Last free day moved earlier']],
      ['2026-03-07', []],
      ['2026-03-08', []],
    ]);
    expect(d.days[0]!.dispute!.evidence).toEqual([
      'Freight hold placed 3 Mar 10:00 PST, released 5 Mar 10:00 PST',
      'Terminal LFD moved from 6 Mar to 4 Mar on 5 Mar 10:00 PST',
    ]);
  });

  it('keeps the received invoice and reminds 5 days before the dispute window closes', () => {
    write({ current_status: 'available', pod_full_out_at: null });
    cache.setReceivedInvoice(
      ID,
      { amount: 1000, currency: 'USD', date: '2026-03-10' },
      new Date(clock.now()).toISOString(),
    );
    cache.close();
    cache = Cache.open(tmp.dir);
    center = new AlertCenter(cache, notifier, clock);
    expect(cache.schemaVersion()).toBe(MIGRATIONS.length);
    expect(statement().invoice).toMatchObject({ disputeBy: '2026-04-09', remindOn: '2026-04-04' });

    clock.advanceTo(Date.parse('2026-04-03T23:00:00.000Z'));
    expect(center.checkDeadlines().filter((a) => a.kind === 'invoice_dispute_due')).toEqual([]);
    clock.advanceTo(Date.parse('2026-04-04T01:00:00.000Z'));
    const [reminder] = center.checkDeadlines().filter((a) => a.kind === 'invoice_dispute_due');
    expect(reminder).toMatchObject({
      containerId: ID,
      title: 'Dispute window closing for MSCU1234565',
    });
    expect(reminder!.body).toContain('can be disputed until 2026-04-09');
    expect(notifier.notifications.map((n) => n.kind)).toContain('invoice_dispute_due');
    // Once only.
    clock.advanceTo(Date.parse('2026-04-06T01:00:00.000Z'));
    expect(center.checkDeadlines().filter((a) => a.kind === 'invoice_dispute_due')).toEqual([]);

    cache.setReceivedInvoice(ID, null, new Date(clock.now()).toISOString());
    expect(cache.receivedInvoice(ID)).toBeNull();
  });

  it("passes a customer's charged days of a range through, container by container", () => {
    write({
      current_status: 'available',
      pod_discharged_at: '2026-03-02T16:00:00.000Z',
      availability_known: true,
      available_for_pickup: true,
      import_deadlines: {
        pickup_lfd_terminal: '2026-03-04T08:00:00.000Z',
        pickup_lfd_line: null,
        pickup_lfd_rail: null,
      },
    });
    clock.advanceTo(Date.parse('2026-03-08T20:00:00.000Z'));
    const customer = 'Acme Imports';
    expect(cache.customerContainerIds(customer, 10)).toEqual([ID]);
    expect(cache.customerContainerIds('Someone else', 10)).toEqual([]);
    const pass = passThroughStatement(customer, '2026-03-06', '2026-03-31', [
      { containerId: ID, statement: statement() },
    ]);
    // Charged 5-8 Mar at the default tariff (150 a day for days 1-4): 6-8 Mar in the range.
    expect(pass.lines.map((l) => [l.containerNumber, l.days, l.total])).toEqual([
      ['MSCU1234565', 3, 450],
    ]);
    const csv = passThroughCsv(pass).trimEnd().split('\r\n');
    expect(csv[0]).toBe(
      'customer,container,bill_of_lading,currency,days,demurrage,detention,disputed,total',
    );
    expect(csv[1]).toBe(`${customer},MSCU1234565,MAEU900000077,USD,3,450.00,0.00,0.00,450.00`);
  });
});
