// The benchmarks' one statistics module: every p50/p90/p95/p99 and median in scripts/bench comes
// from here, so that figures compare across benchmarks (found two formulas in nine copies).
//
// The formula is the nearest-rank percentile: the value at 1-based rank ceil(p/100 · n) of the
// sorted samples (rank 1 at least), i.e. the smallest sample that at least p % of the samples do not
// exceed. It is always a measured value (never interpolated between two), p99 of 100 samples is the
// 99th and not the slowest, and the median of an even count is the lower middle one. The other
// formula the benchmarks used before (index floor(p/100 · n), bench:login, :narrator, :images,
// :story-ui, :bundle, :versions, :export) reads one rank higher: p99 of 100 samples was the maximum.
//
// Our own few lines rather than a package: the nearest-rank rule is three lines, the counting
// histogram of bench:reads needs the rank alone (nearestRank), and the packages that do quantiles
// (simple-statistics, d3-array) interpolate by default, which is not what these reports print.
// Percentiles of an empty list are NaN (the reports print '-' or NaN for them).

/** The 1-based rank of the p-th percentile among `count` sorted samples (nearest rank). */
export function nearestRank(p: number, count: number): number {
  return Math.min(count, Math.max(1, Math.ceil((p / 100) * count)));
}

/** The p-th percentile (0-100) of `values`, nearest rank; `values` is left as it is. NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[nearestRank(p, sorted.length) - 1];
}

/** The median: the 50th percentile above (the lower middle value of an even count). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** The largest value, without spreading a long list into Math.max's arguments. NaN when empty. */
export function maxOf(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => Math.max(a, b), -Infinity) : Number.NaN;
}
