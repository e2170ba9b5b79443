// The usage card's four figures (input, output, image, total), each all-time and this month, as
// tokens or as costs. The costs are the server's (priced at its LLM_PRICE_* settings, cached input
// at its own price, pictures at the spec's image rate): the client prices nothing itself.
import type { ApiUsageResponse, CostTotals, TokenTotals } from '@shared/schemas/admin';
import { ADMIN_STRINGS } from '../strings';
import { formatCost, formatNumber } from './format';

export interface UsageFigure {
  key: 'input' | 'output' | 'image' | 'total';
  label: string;
  total: string;
  thisMonth: string;
}

function tokens(totals: TokenTotals, key: UsageFigure['key']): string {
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

export function usageFigures(
  usage: Pick<ApiUsageResponse, 'total' | 'thisMonth' | 'costs'>,
  showCosts: boolean,
): UsageFigure[] {
  const labels = showCosts ? LABELS.costs : LABELS.tokens;
  const cost = (costs: CostTotals, key: UsageFigure['key']) => formatCost(costs[key]);
  return (['input', 'output', 'image', 'total'] as const).map((key) => ({
    key,
    label: labels[key],
    total: showCosts ? cost(usage.costs.total, key) : tokens(usage.total, key),
    thisMonth: showCosts ? cost(usage.costs.thisMonth, key) : tokens(usage.thisMonth, key),
  }));
}
