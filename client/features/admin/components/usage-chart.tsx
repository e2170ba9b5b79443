// The daily usage chart: tokens stacked by kind as bars, the estimated cost as a dashed line on its
// own axis. Loaded only by the admin page (React.lazy) so uPlot and its stylesheet never weigh on
// Home; the canvas carries a name, and the card holds the figures as a table for screen readers.
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { TOKEN_USAGE_KINDS, type TokenUsageKind, type UsageHistoryResponse } from '@shared/schemas/admin';
import { useTheme, type ResolvedTheme } from '@client/components/theme-provider';
import { ADMIN_STRINGS } from '../strings';
import { costAxisDecimals, toChartColumns } from '../utils/chart-data';
import { formatCost, formatNumber } from '../utils/format';

// Saturated enough to read on parchment, lighter at night so bars keep their contrast with the sky.
const KIND_COLORS: Record<ResolvedTheme, Record<TokenUsageKind, string>> = {
  light: {
    turn: '#4f46e5',
    'retry-loop': '#a16207',
    summary: '#0f766e',
    title: '#0284c7',
    image: '#e11d48',
    style: '#b45309',
    embedding: '#7c3aed',
  },
  dark: {
    turn: '#818cf8',
    'retry-loop': '#facc15',
    summary: '#2dd4bf',
    title: '#38bdf8',
    image: '#fb7185',
    style: '#fbbf24',
    embedding: '#c4b5fd',
  },
};
const CHART_HEIGHT = 260;

/** A theme colour as the canvas can use it; the CSS variables hold oklch() strings. */
function cssColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || 'currentColor';
}

function buildOptions(columns: ReturnType<typeof toChartColumns>, theme: ResolvedTheme, width: number): uPlot.Options {
  const text = cssColor('--muted-foreground');
  const grid = cssColor('--border');
  const ink = cssColor('--foreground');
  const axisFont = '12px ui-sans-serif, system-ui, sans-serif';
  const bars = uPlot.paths.bars?.({ size: [0.7, 24], gap: 1 });
  // Drawn tallest running sum first so each shorter stack paints its slice on top.
  const kindsTopDown = [...TOKEN_USAGE_KINDS].reverse();
  const axisBase = {
    stroke: text,
    font: axisFont,
    labelFont: axisFont,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1 },
  };
  return {
    width,
    height: CHART_HEIGHT,
    // Days are UTC calendar days; without this uPlot would label them in the viewer's zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    cursor: { points: { show: false }, drag: { x: false, y: false } },
    legend: { live: true },
    scales: {
      x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
      tokens: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
      usd: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 0.01] },
    },
    axes: [
      { ...axisBase, grid: { show: false } },
      { ...axisBase, scale: 'tokens', size: 64, values: (_u, splits) => splits.map((v) => formatNumber(v)) },
      {
        ...axisBase,
        scale: 'usd',
        side: 1,
        size: 64,
        grid: { show: false },
        values: (_u, splits) => {
          const decimals = costAxisDecimals(splits.length > 1 ? splits[1] - splits[0] : 0);
          return splits.map((v) => `$${v.toFixed(decimals)}`);
        },
      },
    ],
    series: [
      {
        label: ADMIN_STRINGS.day,
        value: (_u, ts) =>
          ts == null
            ? '—'
            : new Date(ts * 1000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
      },
      ...kindsTopDown.map<uPlot.Series>((kind) => ({
        label: ADMIN_STRINGS.kinds[kind],
        scale: 'tokens',
        paths: bars,
        points: { show: false },
        fill: KIND_COLORS[theme][kind],
        stroke: KIND_COLORS[theme][kind],
        width: 0,
        value: (_u, _v, _s, idx) => (idx == null ? '—' : formatNumber(columns.raw[kind][idx])),
      })),
      {
        label: ADMIN_STRINGS.cost,
        scale: 'usd',
        stroke: ink,
        width: 2,
        dash: [6, 4],
        points: { show: false },
        value: (_u, v) => (v == null ? '—' : formatCost(v)),
      },
    ],
  };
}

export interface UsageChartProps {
  daily: UsageHistoryResponse['daily'];
  label: string;
}

export default function UsageChart({ daily, label }: UsageChartProps) {
  const { resolvedTheme } = useTheme();
  const holder = useRef<HTMLDivElement>(null);
  const columns = useMemo(() => toChartColumns(daily), [daily]);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const kindsTopDown = [...TOKEN_USAGE_KINDS].reverse();
    const data: uPlot.AlignedData = [
      columns.x,
      ...kindsTopDown.map((kind) => columns.stacked[TOKEN_USAGE_KINDS.indexOf(kind)]),
      columns.cost,
    ];
    const chart = new uPlot(buildOptions(columns, resolvedTheme, element.clientWidth || 600), data, element);
    // Follows the card's width (phone rotation, sidebar) without rebuilding the chart.
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      if (width > 0 && width !== chart.width) chart.setSize({ width, height: CHART_HEIGHT });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [columns, resolvedTheme]);

  return <div ref={holder} role="img" aria-label={label} className="admin-usage-chart w-full" />;
}
