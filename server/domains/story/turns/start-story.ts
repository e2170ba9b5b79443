// A new story's first turn: the premise is its first message and the action the narrator answers
// with the opening scene. The story counts against the player's stories and stored text as it is
// created, with its reply lease already taken, so nothing else can write to it meanwhile; a failed
// first reply still names the story, so the client can retry it. It is written by the narrator the
// player's preferences name for new stories while they may pick it, else by the default.
import { refusedOverQuota } from '../../limits/quotas';
import type { PreparedTurn, TurnContext } from './turn-context';
import { preparedTurn } from './write-reply';

export async function startStory(ctx: TurnContext, userId: number, premise: string): Promise<PreparedTurn> {
  const began = performance.now();
  const hold = await ctx.admission.admitTurn(userId);
  return ctx.admission.withHold(hold, async () => {
    const now = ctx.now();
    const { maxStories, maxStoredBytes } = ctx.quotas.limits;
    const chosen = (await ctx.repos.preferences.find(userId))?.narrator ?? null;
    const narrator = (await ctx.narrators.preferred(chosen, userId))?.id ?? null;
    const { story, premiseMessage } = await refusedOverQuota(ctx.quotas.limits, () =>
      ctx.repos.stories.create({
        userId,
        premise,
        narrator,
        now,
        leaseUntil: ctx.leaseUntil(),
        quotas: { maxStories, maxStoredBytes },
      }),
    );
    return preparedTurn(ctx, {
      story,
      action: premiseMessage,
      attempt: 0,
      replace: null,
      reportStoryId: true,
      hold,
      began,
    });
  });
}
