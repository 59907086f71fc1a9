/** Money and counts as the board writes them (formatters are kept between calls). */
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/renderer/lib/format';
import { countOf, formatCount } from '../../src/shared/words';

describe('formatMoney', () => {
  it('writes each currency with its own symbol, call after call', () => {
    const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
    const eur = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' });
    for (let i = 0; i < 2; i++) {
      expect(formatMoney(1234.5, 'USD')).toBe(usd.format(1234.5));
      expect(formatMoney(1234.5, 'EUR')).toBe(eur.format(1234.5));
      expect(formatMoney(80, null)).toBe(usd.format(80));
    }
  });

  it('writes an amount in a code Intl does not know as number and code', () => {
    expect(formatMoney(12, 'not a code')).toBe('12.00 not a code');
    expect(formatMoney(12, 'not a code')).toBe('12.00 not a code');
    expect(formatMoney(null, 'USD')).toBe('—');
  });
});

describe('counts', () => {
  it('groups thousands and picks the noun by count', () => {
    expect(formatCount(2350)).toBe('2,350');
    expect(countOf(1, 'box', 'boxes')).toBe('1 box');
    expect(countOf(1_000_000, 'container')).toBe('1,000,000 containers');
  });
});
