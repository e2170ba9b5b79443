// The admin dashboard: the API token usage card, usage over time, and the users.
// One 'Show costs' switch turns the token figures of the card and the table into costs (the
// server's, at its LLM_PRICE_* settings), so an operator reads every figure the same way. Each
// section loads and fails on its own.
import { useId, useState } from 'react';
import { PageContainer } from '@client/components/page';
import { Label } from '@client/components/ui/label';
import { Switch } from '@client/components/ui/switch';
import { usePageTitle } from '@client/lib/use-page-title';
import type { ApiUsageResponse } from '@shared/schemas/admin';
import { useApiUsage } from '../api/get-api-usage';
import { ADMIN_STRINGS } from '../strings';
import { formatCost } from '../utils/format';
import { ApiUsageCard } from './api-usage-card';
import { UsageHistoryCard } from './usage-history-card';
import { UsersCard } from './users-card';

/** The rates the server prices with (its LLM_PRICE_* settings), once the usage card's answer has them. */
function priceHint(prices: ApiUsageResponse['prices'] | undefined): string {
  if (!prices) return ADMIN_STRINGS.showCostsHintLoading;
  return ADMIN_STRINGS.showCostsHint({
    input: formatCost(prices.inputPerMillion),
    cached: formatCost(prices.cachedInputPerMillion),
    output: formatCost(prices.outputPerMillion),
    image: formatCost(prices.imagePerMillion),
  });
}

function CostSwitch({ checked, onCheckedChange }: { checked: boolean; onCheckedChange: (checked: boolean) => void }) {
  const id = useId();
  const { data } = useApiUsage();
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-card/70 px-4 py-3">
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} aria-describedby={`${id}-hint`} />
      <div className="grid gap-1">
        <Label htmlFor={id}>{ADMIN_STRINGS.showCosts}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {priceHint(data?.prices)}
        </p>
      </div>
    </div>
  );
}

export function AdminDashboard() {
  usePageTitle(ADMIN_STRINGS.pageTitle);
  const [showCosts, setShowCosts] = useState(false);
  return (
    <PageContainer className="grid max-w-7xl grid-cols-1 gap-6">
      <header className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div className="grid gap-2">
          <h1 className="text-3xl leading-tight font-semibold sm:text-4xl">{ADMIN_STRINGS.pageTitle}</h1>
          <p className="text-muted-foreground">{ADMIN_STRINGS.intro}</p>
        </div>
        <CostSwitch checked={showCosts} onCheckedChange={setShowCosts} />
      </header>
      <ApiUsageCard showCosts={showCosts} />
      <UsageHistoryCard />
      <UsersCard showCosts={showCosts} />
    </PageContainer>
  );
}
