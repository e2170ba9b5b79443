// How a player's costs read (issue 27): a reply's, for the story's quiet 'i' and the context viewer,
// and their month on the account page, so all say the same. A turn costs a fraction of a cent, which
// the admin dashboard's 2 decimals would show as '$0.00' or '$0.01': under a dollar it keeps 4.
// Every dollar figure is the server's (priced at its LLM_PRICE_* settings); nothing is priced here.
import { formatCost } from '@shared/cost';

const fineCost = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 4,
  maximumFractionDigits: 4,
});

/** '$0.0058' under a dollar, '$1.23' from one up, and '$0.00' for nothing at all. */
export function formatSmallCost(dollars: number): string {
  // Rounded first, so 0.99996 reads '$1.00' rather than '$1.0000'.
  const rounded = Math.round(dollars * 10_000) / 10_000;
  return dollars === 0 || rounded >= 1 ? formatCost(dollars) : fineCost.format(dollars);
}

/** The share of the tokens sent that the provider read from its prompt cache, in whole percent; null when it did not say. */
export function cachedPercent(usage: { inputTokens: number; cachedInputTokens?: number }): number | null {
  if (usage.cachedInputTokens === undefined) return null;
  return usage.inputTokens > 0 ? Math.round((usage.cachedInputTokens / usage.inputTokens) * 100) : 0;
}
