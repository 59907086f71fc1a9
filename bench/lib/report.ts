/**
 * How a benchmark reports a figure: one machine-readable line per result, which `npm run bench`
 * (bench/run.ts) collects into one table and bench/results/latest.json. Every figure is a ratio
 * to a baseline measured in the same run on the same machine.
 */
export interface BenchResult {
  name: string;
  /** The measured value, in `unit`. */
  value: number;
  /** The baseline measured in the same run, in `unit`. */
  baseline: number;
  unit: string;
  /** value / baseline. */
  ratio: number;
  /** The target for the ratio, and which side of it passes. */
  target: { max?: number; min?: number } | null;
  note?: string;
}

export const RESULT_PREFIX = '::bench-result::';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function passes(result: BenchResult): boolean | null {
  if (!result.target) return null;
  if (result.target.max !== undefined && result.ratio > result.target.max) return false;
  if (result.target.min !== undefined && result.ratio < result.target.min) return false;
  return true;
}

export function reportResult(result: Omit<BenchResult, 'ratio'> & { ratio?: number }): void {
  const full: BenchResult = { ...result, ratio: result.ratio ?? result.value / result.baseline };
  const verdict = passes(full);
  console.log(
    `${full.name}: ${full.value.toPrecision(4)} ${full.unit} vs baseline ${full.baseline.toPrecision(4)} ${full.unit}, ratio ${full.ratio.toFixed(3)}${verdict === null ? '' : verdict ? ' (meets target)' : ' (MISSES target)'}`,
  );
  console.log(`${RESULT_PREFIX}${JSON.stringify(full)}`);
}
