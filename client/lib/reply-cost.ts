// How a player's costs read: a reply's, for the story's quiet 'i' and the context viewer,
// and their month on the account page, so all say the same. A turn costs a fraction of a cent, which
// the admin dashboard's 2 decimals would show as '$0.00' or '$0.01': under a cent it keeps 4.
// Every dollar figure is the server's (priced at its LLM_PRICE_* settings); nothing is priced here.
import { formatCost } from '@shared/cost';

const fineCost = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 4,
  maximumFractionDigits: 4,
});

/** '$0.0058' under a cent, '<$0.0001' for less, '$0.42' and '$1,234.50' from a cent up, '$0.00' for nothing. */
export function formatSmallCost(dollars: number): string {
  if (dollars === 0) return formatCost(0);
  // Rounded first, so 0.009996 reads '$0.01' rather than '$0.0100'.
  const rounded = Math.round(dollars * 10_000) / 10_000;
  if (rounded === 0) return `<${fineCost.format(0.0001)}`;
  return rounded >= 0.01 ? formatCost(dollars) : fineCost.format(dollars);
}

/** The share of the tokens sent that the provider read from its prompt cache, in whole percent; null when it did not say. */
export function cachedPercent(usage: { inputTokens: number; cachedInputTokens?: number }): number | null {
  if (usage.cachedInputTokens === undefined) return null;
  return usage.inputTokens > 0 ? Math.round((usage.cachedInputTokens / usage.inputTokens) * 100) : 0;
}
