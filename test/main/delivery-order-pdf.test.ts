import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { lfdEndsAt } from '../../src/shared/container';
import type { ContainerDetail } from '../../src/shared/desktop';
import {
  changedFacts,
  deliveryOrder,
  deliveryOrderFileName,
  orderFacts,
  outdatedOrderSentence,
} from '../../src/shared/delivery-order';
import { deliveryOrderPdf } from '../../src/main/delivery-order/pdf';

const ZONE = 'America/Los_Angeles';

/** The parts of a cached container detail an order reads. */
function detailWith(over: { lfd?: string; holds?: string[] } = {}): ContainerDetail {
  const lfd = over.lfd ?? '2026-12-03';
  return {
    row: {
      id: 'c1',
      number: 'MSCU1234565',
      billOfLading: 'MEDUA1234567',
      lineScac: 'MSCU',
      vessel: 'MSC GULSUN',
      voyage: '123E',
      terminalName: 'Fenix Marine Services',
      pickupAppointmentAt: '2026-12-02T17:00:00Z',
      customer: 'Acme Imports',
      deadlines: [
        { source: 'terminal', zone: ZONE, date: lfd, endsAt: lfdEndsAt(lfd, ZONE), binding: true },
      ],
      location: { kind: 'terminal', name: 'Fenix Marine Services' },
    },
    container: {
      attributes: {
        equipment_length: 40,
        equipment_type: 'dry',
        equipment_height: 'high_cube',
        seal_number: 'SL998877',
        weight_in_lbs: 41250,
        ref_numbers: ['PO-7781'],
      },
    },
    shipment: {
      attributes: { customer_name: 'Acme Imports, 12 Dock Rd, Carson CA', ref_numbers: ['JOB-55'] },
    },
    holds: (over.holds ?? []).map((name) => ({ name, status: 'hold', description: null })),
  } as unknown as ContainerDetail;
}

const trucker = {
  id: 't1',
  companyName: 'Harbor Drayage',
  scac: 'HBDR',
  contacts: [{ name: 'Dana', email: 'dispatch@harbor.test', phone: null }],
};

describe('delivery order PDF', () => {
  it("states the container's facts, read back from the PDF's text", async () => {
    const order = deliveryOrder(detailWith(), trucker, 'Y258', '2026-12-01T15:00:00.000Z');
    const bytes = await deliveryOrderPdf(order);
    const text = (
      await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })
    ).text;
    for (const part of [
      'DELIVERY ORDER',
      'MSCU1234565',
      'MEDUA1234567',
      "40' dry high_cube",
      'SL998877',
      '41250 lbs',
      'Fenix Marine Services',
      'Y258',
      'not given by the terminal',
      '3 Dec (Terminal LFD)',
      'Acme Imports, 12 Dock Rd, Carson CA',
      'JOB-55, PO-7781',
      'Harbor Drayage (HBDR)',
      'dispatch@harbor.test',
      'no holds',
    ]) {
      expect(text).toContain(part);
    }
    expect(deliveryOrderFileName(order)).toBe('delivery-order-MSCU1234565-2026-12-01.pdf');
  });

  it('a moved LFD is one changed fact, worded as the terminal now says it', () => {
    const said = orderFacts(detailWith());
    const now = orderFacts(detailWith({ lfd: '2026-12-02' }));
    expect(changedFacts(said, said)).toEqual([]);
    expect(changedFacts(said, now)).toEqual(['lfd']);
    expect(
      outdatedOrderSentence('Harbor Drayage', '2026-12-01T15:00:00Z', 'lfd', said, now),
    ).toMatch(
      /^The delivery order sent to Harbor Drayage on 1 Dec 2026 15:00 .* says 3 Dec \(Terminal LFD\); the terminal now says 2 Dec \(Terminal LFD\)\.$/,
    );
    expect(changedFacts(said, orderFacts(detailWith({ holds: ['customs'] })))).toEqual(['holds']);
  });
});
