import type { CostTotals } from '../../shared/cost-clock';
import { formatMoney } from '../lib/format';

/** "$2,350 accruing · +$750 tomorrow · $180 per diem": what a view costs. */
export function costSummaryText(cost: CostTotals): string {
  if (!cost.currency) return 'Nothing accruing';
  const parts = [`${formatMoney(cost.accrued, cost.currency)} accruing`];
  if (cost.tomorrow > 0) parts.push(`+${formatMoney(cost.tomorrow, cost.currency)} tomorrow`);
  if (cost.perDiem > 0) parts.push(`${formatMoney(cost.perDiem, cost.currency)} per diem`);
  if (cost.mixedCurrencies) parts.push('other currencies not added');
  return parts.join(' · ');
}

export function CostSummary({ cost }: { cost: CostTotals | null }) {
  if (!cost) return null;
  return (
    <span
      className={`chip ${cost.accrued > 0 || cost.perDiem > 0 ? 'chip--warn' : 'chip--muted'}`}
      data-testid="view-cost"
      title="Demurrage from the terminal fees or the tariff table in Settings; per diem after pickup"
    >
      {costSummaryText(cost)}
    </span>
  );
}
