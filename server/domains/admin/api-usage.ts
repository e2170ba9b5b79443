// The admin's provider card: which narrator and painter are configured, the tokens the ledger's
// rollups hold in all and this month, each part priced alone and all of it together, and the same
// per narrator of the catalogue, each at its own prices (narrator-prices.ts).
import { describeImageProvider } from '@server/ai/image/registry';
import type { ImageConfig } from '@server/ai/image/types';
import { describeProvider } from '@server/ai/llm/registry';
import type { Repositories } from '@server/db/repositories';
import type { NarratorKindTotals, TokenSplit } from '@server/db/repositories/usage';
import type { LlmConfig } from '@server/kernel/config';
import type { Prices } from '@server/kernel/config/prices';
import { costUsd, roundUsd } from '@server/kernel/cost';
import type { ApiUsageResponse, CostTotals, NarratorUsage } from '@shared/schemas/admin';
import type { NarratorPricing } from './narrator-prices';

interface ApiUsageDeps {
  repos: Pick<Repositories, 'usage'>;
  /** The default narrator's settings: the card's provider, model and prices. */
  llm: LlmConfig;
  pricing: NarratorPricing;
  image: ImageConfig;
  now: () => Date;
}

/** The usage card's figures as dollars, each part priced alone and all of it together. */
function costTotals(t: TokenSplit, prices: Prices): CostTotals {
  return {
    input: costUsd({ input: t.input, cachedInput: t.cachedInput, output: 0 }, prices),
    output: costUsd({ input: 0, output: t.output }, prices),
    image: costUsd({ input: 0, output: 0, image: t.image }, prices),
    total: costUsd(t, prices),
  };
}

const NO_TOKENS: TokenSplit = { input: 0, cachedInput: 0, output: 0, image: 0 };
const NO_COST: CostTotals = { input: 0, output: 0, image: 0, total: 0 };

const addTokens = (a: TokenSplit, b: TokenSplit): TokenSplit => ({
  input: a.input + b.input,
  cachedInput: a.cachedInput + b.cachedInput,
  output: a.output + b.output,
  image: a.image + b.image,
});
const addCosts = (a: CostTotals, b: CostTotals): CostTotals => ({
  input: roundUsd(a.input + b.input),
  output: roundUsd(a.output + b.output),
  image: roundUsd(a.image + b.image),
  total: roundUsd(a.total + b.total),
});
const tokensOf = ({ input, output, image }: TokenSplit) => ({ input, output, image });

type Period = 'total' | 'thisMonth';

/** Every narrator's text tokens and their cost: the catalogue's in its order, then ids only the ledger still names. */
function byNarrator(cells: NarratorKindTotals[], pricing: NarratorPricing): NarratorUsage[] {
  const rows = new Map<string, NarratorUsage>();
  const empty = (id: string, label: string, inCatalogue: boolean): NarratorUsage => ({
    id,
    label,
    inCatalogue,
    total: { input: 0, cachedInput: 0, output: 0, cost: 0 },
    thisMonth: { input: 0, cachedInput: 0, output: 0, cost: 0 },
    monthShare: 0,
  });
  for (const { id, label } of pricing.narrators) rows.set(id, empty(id, label, true));
  const gone = [...new Set(cells.map((cell) => cell.narrator))].filter((id) => !rows.has(id)).sort();
  for (const id of gone) rows.set(id, empty(id, id, false));
  for (const cell of cells) {
    if (!pricing.isNarratorCall(cell.kind)) continue;
    const row = rows.get(cell.narrator)!;
    const prices = pricing.pricesOf(cell);
    for (const period of ['total', 'thisMonth'] as Period[]) {
      const tokens = cell[period];
      const into = row[period];
      into.input += tokens.input;
      into.cachedInput += tokens.cachedInput;
      into.output += tokens.output;
      into.cost = roundUsd(into.cost + costUsd(tokens, prices));
    }
  }
  // A narrator gone from the catalogue stays listed only while the ledger holds its calls.
  const listed = [...rows.values()].filter((row) => row.inCatalogue || row.total.input + row.total.output > 0);
  const monthTokens = (row: NarratorUsage) => row.thisMonth.input + row.thisMonth.output;
  const month = listed.reduce((sum, row) => sum + monthTokens(row), 0);
  for (const row of listed) row.monthShare = month === 0 ? 0 : monthTokens(row) / month;
  return listed;
}

export async function apiUsage({ repos, llm, pricing, image, now }: ApiUsageDeps): Promise<ApiUsageResponse> {
  const cells = await repos.usage.totalsAll(now());
  let total = NO_TOKENS;
  let thisMonth = NO_TOKENS;
  const costs = { total: NO_COST, thisMonth: NO_COST };
  for (const cell of cells) {
    const prices = pricing.pricesOf(cell);
    total = addTokens(total, cell.total);
    thisMonth = addTokens(thisMonth, cell.thisMonth);
    costs.total = addCosts(costs.total, costTotals(cell.total, prices));
    costs.thisMonth = addCosts(costs.thisMonth, costTotals(cell.thisMonth, prices));
  }
  const imageProvider = { ...describeImageProvider(image), providerId: image.provider, model: image.model };
  return {
    ...describeProvider(llm),
    providerId: llm.provider,
    model: llm.model,
    total: tokensOf(total),
    thisMonth: tokensOf(thisMonth),
    costs,
    prices: llm.prices,
    imageProvider,
    byNarrator: byNarrator(cells, pricing),
  };
}
