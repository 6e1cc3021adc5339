/**
 * Order statistics for latency samples, and the "median of repeated rounds with its spread" every
 * figure of the bench is reported as (the machine is shared, so one round proves little).
 */
export interface Distribution {
  n: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export function distribution(samples: readonly number[]): Distribution {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A figure measured in several rounds: the median round and the range the rounds spanned. */
export interface Figure {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

export function figure(values: readonly number[]): Figure {
  const finite = values.filter(Number.isFinite);
  return {
    median: median(finite),
    min: finite.length ? Math.min(...finite) : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
    rounds: finite.length,
  };
}

/** Rounds to a sensible number of significant digits for reports. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const factor = 10 ** Math.max(0, digits - 1 - magnitude);
  return Math.round(value * factor) / factor;
}

export function roundFigure(f: Figure, digits = 3): Figure {
  return {
    median: round(f.median, digits),
    min: round(f.min, digits),
    max: round(f.max, digits),
    rounds: f.rounds,
  };
}

export function roundDistribution(d: Distribution, digits = 3): Distribution {
  return {
    n: d.n,
    min: round(d.min, digits),
    p50: round(d.p50, digits),
    p90: round(d.p90, digits),
    p99: round(d.p99, digits),
    max: round(d.max, digits),
    mean: round(d.mean, digits),
  };
}
