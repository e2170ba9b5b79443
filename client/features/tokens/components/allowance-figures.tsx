// The story allowance as figures, shared by /tokens and Account Settings: what is left of this
// month's allowance (or 'Unlimited'), what was used this month, and when the allowance renews.
import { useState } from 'react';
import type { TokenUsage } from '@shared/schemas/user';
import { TOKENS_STRINGS } from '../strings';
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
    ? TOKENS_STRINGS.unlimitedNote
    : usage.balance === 0
      ? TOKENS_STRINGS.allowanceUsedNote(resetDate)
      : null;
  return (
    <div className="grid gap-3">
      <dl className="grid gap-3 sm:grid-cols-3">
        <Figure
          label={TOKENS_STRINGS.remaining}
          value={
            usage.balance === null ? TOKENS_STRINGS.unlimited : TOKENS_STRINGS.tokens(formatTokenCount(usage.balance))
          }
        />
        <Figure label={TOKENS_STRINGS.usedThisMonth} value={TOKENS_STRINGS.tokens(formatTokenCount(usage.thisMonth))} />
        {unlimited ? null : <Figure label={TOKENS_STRINGS.resetsOn} value={resetDate} />}
      </dl>
      {note ? <p className="text-sm text-muted-foreground">{note}</p> : null}
    </div>
  );
}
