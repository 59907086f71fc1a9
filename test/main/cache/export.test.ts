import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import { Cache } from '../../../src/main/cache/cache';
import { containersCsv } from '../../../src/main/cache/csv';
import { containersXlsx } from '../../../src/main/cache/xlsx';
import { container, shipment, tempDir, terminal } from '../../support/cache-fixtures';

// 05:30 PST on 23 Nov 2026.
const NOW = Date.parse('2026-11-23T13:30:00Z');

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;

beforeEach(() => {
  tmp = tempDir('quayside-export-');
  cache = Cache.open(tmp.dir);
});
afterEach(() => {
  cache.close();
  tmp.remove();
});

/** A Seattle -> St. Louis rail box and a Long Beach box with holds and fees. */
function seed() {
  const lbct = terminal('Long Beach Container Terminal');
  const s = shipment({
    bill_of_lading_number: 'MAEU777000001',
    port_of_discharge_locode: 'USLGB',
    pod_eta_at: '2026-11-20T16:00:00Z',
    destination_name: 'St. Louis rail ramp',
  });
  const rail = container(
    {
      number: 'RAIL0000001',
      current_status: 'on_rail',
      pod_timezone: 'America/Los_Angeles',
      final_destination_timezone: 'America/Chicago',
      pod_rail_departed_at: '2026-11-17T10:00:00Z',
      // Midnight at the St. Louis ramp on 19 Nov (22:00 on the 18th at the port).
      import_deadlines: {
        pickup_lfd_line: null,
        pickup_lfd_terminal: null,
        pickup_lfd_rail: '2026-11-19T06:00:00.000Z',
      },
    },
    { shipmentId: s.id },
  );
  const held = container(
    {
      number: 'HELD0000001',
      current_status: 'available',
      availability_known: true,
      available_for_pickup: true,
      pod_timezone: 'America/Los_Angeles',
      pickup_appointment_at: '2026-11-25T17:00:00Z',
      import_deadlines: {
        pickup_lfd_line: '2026-11-24T08:00:00.000Z',
        pickup_lfd_terminal: '2026-11-23T08:00:00.000Z',
        pickup_lfd_rail: null,
      },
      holds_at_pod_terminal: [
        { name: 'customs', status: 'hold', description: null },
        { name: 'vacis', status: 'hold', description: 'Selected for VACIS exam' },
      ],
      fees_at_pod_terminal: [
        { type: 'demurrage', amount: 900, currency_code: 'USD' },
        { type: 'extended_dwell_time', amount: 375, currency_code: 'USD' },
        { type: 'total', amount: 1275, currency_code: 'USD' },
      ],
    },
    { shipmentId: s.id, terminalId: lbct.id },
  );
  cache.applyPage(
    { shipments: [s], containers: [rail, held], terminals: [lbct] },
    new Date(NOW).toISOString(),
  );
}

/** CSV rows as header -> value records (the test data has no quoted commas). */
function csvRecords(): Record<string, string>[] {
  const [header, ...lines] = [...containersCsv(cache.board, {}, NOW)].map((l) =>
    l.trimEnd().split(','),
  );
  return lines.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])));
}

describe('container export', () => {
  it('writes CSV dates as local dates of each deadline zone, statuses and holds in words, fees itemised', () => {
    seed();
    const byNumber = Object.fromEntries(csvRecords().map((r) => [r['Container'], r]));
    const rail = byNumber['RAIL0000001']!;
    expect(rail['Status']).toBe('On rail');
    expect(rail['Location']).toBe('Rail to St. Louis rail ramp');
    // The ramp's date, not the port's 18 Nov 22:00.
    expect(rail['Rail LFD']).toBe('2026-11-19');
    expect(rail['Rail LFD time zone']).toBe('America/Chicago');

    const held = byNumber['HELD0000001']!;
    expect(held['Readiness']).toBe('Not ready: 2 holds');
    expect(held['Holds']).toBe('Customs; VACIS exam');
    // The terminal LFD is today and comes first, though the wire's pickup_lfd is the line's.
    expect(held['First LFD']).toBe('2026-11-23');
    expect(held['First LFD source']).toBe('terminal');
    expect(held['Free time']).toBe('18h 30m left');
    expect(held['Terminal LFD']).toBe('2026-11-23');
    expect(held['Line LFD']).toBe('2026-11-24');
    // The wire's line-first pickup_lfd is not called binding: no such column.
    expect(held['Binding LFD source']).toBeUndefined();
    expect(held['Appointment']).toBe('2026-11-25 09:00');
    expect(held['Appointment after LFD']).toBe('Yes');
    expect(held['Demurrage']).toBe('900.00');
    expect(held['Extended dwell fee']).toBe('375.00');
    expect(held['Exam fee']).toBe('');
    expect(held['Fees total']).toBe('1275.00');
    expect(held['ETA']).toBe('2026-11-20 08:00');
    // A find link opens the app on the box from the spreadsheet.
    expect(held['Link']).toBe('quayside://find?q=HELD0000001');
    // Nothing in raw UTC.
    expect(Object.values(held).some((v) => /T\d{2}:\d{2}/.test(v))).toBe(false);
  });

  it('writes an .xlsx workbook whose dates are real date cells', async () => {
    seed();
    const { bytes, rows } = await containersXlsx(cache.board, { search: 'HELD0000001' }, NOW);
    expect(rows).toBe(1);
    const files = unzipSync(new Uint8Array(bytes));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    const styles = strFromU8(files['xl/styles.xml']!);
    expect(styles).toContain('yyyy-mm-dd');
    // 2026-11-23 is Excel serial day 46349: a number cell with a date style, not text.
    expect(sheet).toMatch(/<c r="[A-Z]+2" s="\d+"><v>46349<\/v><\/c>/);
    // The appointment at 09:00 local on 25 Nov: serial 46351.375.
    expect(sheet).toMatch(/<v>46351\.375<\/v>/);
  });
});
