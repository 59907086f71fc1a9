/**
 * Fees a terminal reports, added up per currency.
 */

export interface FeeLike {
  type: string;
  amount: number;
  currency_code: string;
}

/** Sum of the itemised fees; `total` would double count. Mixed currencies leave the sum unset. */
export function feesSum(fees: readonly FeeLike[]): {
  amount: number | null;
  currency: string | null;
} {
  const items = fees.filter((f) => f.type !== 'total');
  if (items.length === 0) return { amount: null, currency: null };
  const currencies = new Set(items.map((f) => f.currency_code));
  if (currencies.size > 1) return { amount: null, currency: null };
  const amount = items.reduce((sum, f) => sum + f.amount, 0);
  return { amount: Math.round(amount * 100) / 100, currency: items[0]!.currency_code };
}
