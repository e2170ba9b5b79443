// The story allowance as figures, shared by /tokens and Account Settings: what is left of this
// month's allowance (or 'Unlimited'), what was used this month and what it cost (the server's
// figure, at its configured prices), and when the allowance renews.
import { useState } from 'react';
import { formatSmallCost } from '@client/lib/reply-cost';
import type { TokenUsage } from '@shared/schemas/user';
import { cn } from '@client/lib/utils';
import { ALLOWANCE_STRINGS } from '../strings';
import { formatResetDate, formatTokenCount } from '../utils/allowance';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-1 rounded-lg border bg-card/60 px-4 py-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold">{value}</dd>
    </div>
  );
}

/** `now` is for tests; the page reads the clock once when it mounts. */
export function AllowanceFigures({ usage, now }: { usage: TokenUsage; now?: Date }) {
  const [mountedAt] = useState(() => new Date());
  const resetDate = formatResetDate(now ?? mountedAt);
  const unlimited = usage.balance === null;
  const note = unlimited
    ? ALLOWANCE_STRINGS.unlimitedNote
    : usage.balance === 0
      ? ALLOWANCE_STRINGS.allowanceUsedNote(resetDate)
      : null;
  return (
    <div className="grid gap-3">
      {/* Four figures in a row are too narrow for '48,500 tokens' on a small screen: two by two there. */}
      <dl className={cn('grid gap-3', unlimited ? 'sm:grid-cols-3' : 'sm:grid-cols-2 md:grid-cols-4')}>
        <Figure
          label={ALLOWANCE_STRINGS.remaining}
          value={
            usage.balance === null
              ? ALLOWANCE_STRINGS.unlimited
              : ALLOWANCE_STRINGS.tokens(formatTokenCount(usage.balance))
          }
        />
        <Figure
          label={ALLOWANCE_STRINGS.usedThisMonth}
          value={ALLOWANCE_STRINGS.tokens(formatTokenCount(usage.thisMonth))}
        />
        <Figure label={ALLOWANCE_STRINGS.spentThisMonth} value={formatSmallCost(usage.monthCostUsd)} />
        {unlimited ? null : <Figure label={ALLOWANCE_STRINGS.resetsOn} value={resetDate} />}
      </dl>
      {note ? <p className="text-sm text-muted-foreground">{note}</p> : null}
    </div>
  );
}
