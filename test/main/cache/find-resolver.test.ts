/** Find links resolved over a real cache file, one test per step of the order. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { resolveFind } from '../../../src/main/cache/find-resolver';
import { container, shipment, tempDir } from '../../support/cache-fixtures';

const NOW = Date.UTC(2026, 2, 1, 12);

describe('resolveFind', () => {
  let tmp: ReturnType<typeof tempDir>;
  let cache: Cache;
  const s1 = shipment({
    bill_of_lading_number: 'MEDU5550001',
    ref_numbers: ['PO-88812', 'ACME 7'],
  });
  const s2 = shipment({ bill_of_lading_number: 'MAEU9990002', ref_numbers: [] });
  const c1 = container({ number: 'MSCU1234565' }, { shipmentId: s1.id });
  const c2 = container({ number: 'MSCU7654321', ref_numbers: ['CUST-42'] }, { shipmentId: s1.id });
  const c3 = container({ number: 'TGHU2222220' }, { shipmentId: s2.id });
  // A container whose number is another record's reference: the number wins.
  const c4 = container({ number: 'ACME0000007' }, { shipmentId: s2.id });
  const resolve = (q: string) => resolveFind(q, cache.board, NOW);

  beforeEach(() => {
    tmp = tempDir('quayside-find-');
    cache = Cache.open(tmp.dir);
    cache.applyPage(
      { shipments: [s1, s2], containers: [c1, c2, c3, c4] },
      new Date(NOW).toISOString(),
    );
  });
  afterEach(() => {
    cache.close();
    tmp.remove();
  });

  it('1. an exact container number, written with spaces, dashes or in lower case', () => {
    for (const q of ['MSCU1234565', 'mscu 123456-5', ' MSCU 123 4565 '])
      expect(resolve(q), q).toEqual({ kind: 'container', id: c1.id, number: 'MSCU1234565' });
  });

  it('2. an exact shipment number (B/L) or reference number opens the shipment', () => {
    expect(resolve('MEDU-5550001')).toEqual({ kind: 'shipment', id: s1.id, number: 'MEDU5550001' });
    expect(resolve('po 88812')).toEqual({ kind: 'shipment', id: s1.id, number: 'MEDU5550001' });
    expect(resolve('PO-88812')).toEqual({ kind: 'shipment', id: s1.id, number: 'MEDU5550001' });
    // A container's own reference opens that container.
    expect(resolve('CUST-42')).toEqual({ kind: 'container', id: c2.id, number: 'MSCU7654321' });
  });

  it('3. a partial number that names one container opens it', () => {
    expect(resolve('TGHU222')).toEqual({ kind: 'container', id: c3.id, number: 'TGHU2222220' });
  });

  it('4. otherwise the board, filtered by the query', () => {
    // Two containers start with MSCU: neither is picked.
    expect(resolve('MSCU')).toEqual({ kind: 'board', search: 'MSCU' });
    expect(resolve('NOTHING-HERE')).toEqual({ kind: 'board', search: 'NOTHING-HERE' });
  });
});
