// How dollar figures are written (costs shown to 2 decimals). The figures themselves
// come from the server, which prices every token at the operator's LLM_PRICE_* (server/kernel/cost.ts).

/** "$1,234.57": the spec's 2 decimals, with thousands grouped. */
export function formatCost(dollars: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(dollars);
}
