// The account page's 'Your Limits': each quota's use against its limit as "N of LIMIT" with a
// progress bar (stories, shared links, stored data, and this month's tokens when there is a monthly
// allowance), read afresh from GET /api/user/limits. A limit reached shows its bar in the
// destructive colour; the server's own message explains any refusal. The stored data says what it
// counts (the server counts everything kept for the player, not only the story text they see).
import { useId } from 'react';
import { Progress } from '@client/components/ui/progress';
import { Skeleton } from '@client/components/ui/skeleton';
import { useUserLimits } from '../api/get-limits';
import { ACCOUNT_STRINGS } from '../strings';
import { formatCount, formatStorage } from '../utils/format-limits';

function LimitRow({
  label,
  used,
  limit,
  format,
  hint,
}: {
  label: string;
  used: number;
  limit: number;
  format: (value: number) => string;
  /** What the figure counts, under the bar (and the bar's description). */
  hint?: string;
}) {
  const labelId = useId();
  const hintId = useId();
  const text = ACCOUNT_STRINGS.limitOf(format(used), format(limit));
  return (
    <li className="grid gap-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span id={labelId} className="font-medium">
          {label}
        </span>
        <span className="text-muted-foreground tabular-nums">{text}</span>
      </div>
      <Progress
        value={used}
        max={limit}
        aria-labelledby={labelId}
        aria-describedby={hint ? hintId : undefined}
        getValueLabel={() => text}
        indicatorClassName={used >= limit ? 'bg-destructive' : undefined}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </li>
  );
}

export function AccountLimits() {
  const { data, isError } = useUserLimits();
  if (isError) return <p className="text-sm text-muted-foreground">{ACCOUNT_STRINGS.limitsFailed}</p>;
  if (!data) {
    return (
      <div role="status" className="grid gap-4">
        <span className="sr-only">{ACCOUNT_STRINGS.limitsLoading}</span>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} className="h-8 w-full" />
        ))}
      </div>
    );
  }
  return (
    <ul className="grid gap-4">
      <LimitRow
        label={ACCOUNT_STRINGS.limitStories}
        used={data.stories.used}
        limit={data.stories.limit}
        format={formatCount}
      />
      <LimitRow
        label={ACCOUNT_STRINGS.limitShares}
        used={data.shares.used}
        limit={data.shares.limit}
        format={formatCount}
      />
      <LimitRow
        label={ACCOUNT_STRINGS.limitStorage}
        used={data.storedBytes.used}
        limit={data.storedBytes.limit}
        format={formatStorage}
        hint={ACCOUNT_STRINGS.limitStorageHint}
      />
      {data.monthlyTokens ? (
        <LimitRow
          label={ACCOUNT_STRINGS.limitTokens}
          used={data.monthlyTokens.used}
          limit={data.monthlyTokens.limit}
          format={formatCount}
        />
      ) : null}
    </ul>
  );
}
