// The admin's provider card: which narrator and painter are configured, and the tokens the ledger's
// rollups hold in all and this month, each part priced alone and all of it together.
import { describeImageProvider } from '@server/ai/image/registry';
import type { ImageConfig } from '@server/ai/image/types';
import { describeProvider } from '@server/ai/llm/registry';
import type { Repositories } from '@server/db/repositories';
import type { TokenSplit } from '@server/db/repositories/usage';
import type { LlmConfig } from '@server/kernel/config';
import type { Prices } from '@server/kernel/config/prices';
import { costUsd } from '@server/kernel/cost';
import type { ApiUsageResponse, CostTotals } from '@shared/schemas/admin';

interface ApiUsageDeps {
  repos: Pick<Repositories, 'usage'>;
  llm: LlmConfig;
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

const tokensOf = ({ input, output, image }: TokenSplit) => ({ input, output, image });

export async function apiUsage({ repos, llm, image, now }: ApiUsageDeps): Promise<ApiUsageResponse> {
  const prices = llm.prices;
  const totals = await repos.usage.totalsAll(now());
  const imageProvider = { ...describeImageProvider(image), providerId: image.provider, model: image.model };
  return {
    ...describeProvider(llm),
    providerId: llm.provider,
    model: llm.model,
    total: tokensOf(totals.total),
    thisMonth: tokensOf(totals.thisMonth),
    costs: { total: costTotals(totals.total, prices), thisMonth: costTotals(totals.thisMonth, prices) },
    prices,
    imageProvider,
  };
}
