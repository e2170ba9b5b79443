// The usage chart's data: uPlot wants aligned columns (x, then one array per series). Bars are
// stacked by drawing running sums, tallest first, so each kind's visible slice is its own figure;
// the raw per-kind figures stay beside them for the legend and the text alternative.
import { TOKEN_USAGE_KINDS, type TokenUsageKind, type UsageHistoryResponse } from '@shared/schemas/admin';

type Daily = UsageHistoryResponse['daily'];

export interface ChartColumns {
  /** Unix seconds at 00:00 UTC of each day. */
  x: number[];
  raw: Record<TokenUsageKind, number[]>;
  /** Running sums in TOKEN_USAGE_KINDS order: stacked[i] is the top of kind i's slice. */
  stacked: number[][];
  cost: number[];
}

export function dayToUnixSeconds(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

export function toChartColumns(daily: Daily): ChartColumns {
  const raw = Object.fromEntries(TOKEN_USAGE_KINDS.map((kind) => [kind, daily.map((d) => d[kind])])) as Record<
    TokenUsageKind,
    number[]
  >;
  const stacked: number[][] = [];
  TOKEN_USAGE_KINDS.forEach((kind, i) => {
    stacked.push(raw[kind].map((value, day) => value + (i > 0 ? stacked[i - 1][day] : 0)));
  });
  return { x: daily.map((d) => dayToUnixSeconds(d.day)), raw, stacked, cost: daily.map((d) => d.cost) };
}

/** True when the period has no tokens and no cost at all: the chart would be a flat line. */
export function isHistoryEmpty(daily: Daily): boolean {
  return daily.every((d) => d.cost === 0 && TOKEN_USAGE_KINDS.every((kind) => d[kind] === 0));
}

/** Decimals that tell a cost axis's ticks apart (at least the spec's 2): a $0.0025 step needs 4. */
export function costAxisDecimals(step: number): number {
  if (!(step > 0)) return 2;
  // uPlot's steps are 1, 2, 2.5 or 5 times a power of ten; toPrecision drops float noise first.
  const decimals = Number(step.toPrecision(6)).toFixed(10).replace(/0+$/, '').split('.')[1]?.length ?? 0;
  return Math.min(6, Math.max(2, decimals));
}
