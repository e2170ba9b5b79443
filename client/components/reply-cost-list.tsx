// What a narrator reply's own calls cost, as one list for both places that show it: the
// reply's quiet 'i' (story) and 'What it cost' in 'What the narrator saw' (story-cards). Tokens sent
// with the share the provider's prompt cache served, tokens written, the server's dollar figure, and
// the loop guard's second call when there was one.
import type { ComponentProps } from 'react';
import type { ReplyUsage } from '@shared/schemas/story';
import { cachedPercent, formatSmallCost } from '@client/lib/reply-cost';
import { cn } from '@client/lib/utils';

export const REPLY_COST_STRINGS = {
  tokensSent: (tokens: number, cached: number | null) =>
    `Tokens sent: ${tokens.toLocaleString('en-US')} (${cached === null ? 'cache not reported' : `${cached}% cached`})`,
  tokensWritten: (tokens: number) => `Tokens written: ${tokens.toLocaleString('en-US')}`,
  cost: (cost: string) => `Cost: ${cost}`,
  secondCall: 'Includes the loop guard’s second call.',
} as const;

export function ReplyCostList({ usage, className, ...props }: { usage: ReplyUsage } & ComponentProps<'ul'>) {
  return (
    <ul className={cn('grid tabular-nums', className)} {...props}>
      <li>{REPLY_COST_STRINGS.tokensSent(usage.inputTokens, cachedPercent(usage))}</li>
      <li>{REPLY_COST_STRINGS.tokensWritten(usage.outputTokens)}</li>
      <li className="font-medium">{REPLY_COST_STRINGS.cost(formatSmallCost(usage.costUsd))}</li>
      {usage.calls > 1 ? <li className="text-muted-foreground">{REPLY_COST_STRINGS.secondCall}</li> : null}
    </ul>
  );
}
