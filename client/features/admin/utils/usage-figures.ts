// The usage card's four figures (input, output, image, total), each all-time and this month, as
// tokens or as estimated costs. Text tokens (input and output) cost $0.000004 each and image tokens
// $0.00002 (spec section 9), so the input and output costs add up to the text cost.
import type { ApiUsageResponse, TokenTotals } from '@shared/schemas/admin';
import { ADMIN_STRINGS } from '../strings';
import { formatNumber, formatTokenCost } from './format';

export interface UsageFigure {
  key: 'input' | 'output' | 'image' | 'total';
  label: string;
  total: string;
  thisMonth: string;
}

function figure(totals: TokenTotals, key: UsageFigure['key'], showCosts: boolean): string {
  if (showCosts) {
    if (key === 'input') return formatTokenCost(totals.input, 0);
    if (key === 'output') return formatTokenCost(totals.output, 0);
    if (key === 'image') return formatTokenCost(0, totals.image);
    return formatTokenCost(totals.input + totals.output, totals.image);
  }
  if (key === 'total') return formatNumber(totals.input + totals.output + totals.image);
  return formatNumber(totals[key]);
}

const LABELS = {
  tokens: {
    input: ADMIN_STRINGS.inputTokens,
    output: ADMIN_STRINGS.outputTokens,
    image: ADMIN_STRINGS.imageTokens,
    total: ADMIN_STRINGS.totalTokens,
  },
  costs: {
    input: ADMIN_STRINGS.inputCost,
    output: ADMIN_STRINGS.outputCost,
    image: ADMIN_STRINGS.imageCost,
    total: ADMIN_STRINGS.totalCost,
  },
} as const;

export function usageFigures(usage: Pick<ApiUsageResponse, 'total' | 'thisMonth'>, showCosts: boolean): UsageFigure[] {
  const labels = showCosts ? LABELS.costs : LABELS.tokens;
  return (['input', 'output', 'image', 'total'] as const).map((key) => ({
    key,
    label: labels[key],
    total: figure(usage.total, key, showCosts),
    thisMonth: figure(usage.thisMonth, key, showCosts),
  }));
}
