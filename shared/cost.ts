// Estimated cost of tokens (spec section 9): text $0.000004 and image $0.00002 a token, shown to 2
// decimals. One function on both sides so the card, the chart and the per-user figures agree.
import { COST_PER_IMAGE_TOKEN, COST_PER_TEXT_TOKEN } from './constants';

/** Estimated US dollars for text (input + output) and image tokens, unrounded. */
export function estimateCost(textTokens: number, imageTokens: number): number {
  return textTokens * COST_PER_TEXT_TOKEN + imageTokens * COST_PER_IMAGE_TOKEN;
}

/** "$1,234.57": the spec's 2 decimals, with thousands grouped. */
export function formatCost(dollars: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(dollars);
}
