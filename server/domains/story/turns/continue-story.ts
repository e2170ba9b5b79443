// The player's next action: the story's lease taken, the action appended and the prompt's window
// and the player's preferences read in one statement. The fewer round trips (and, on PGlite,
// statements queued on its one session) before the provider call, the sooner the first words.
// Refused with 404, 413 or 409 (not the player's, stored text full, a reply being written).
import { DEFAULT_PREFERENCES } from '@shared/schemas/preferences';
import type { PreparedTurn, TurnContext } from './turn-context';
import { preparedTurn } from './write-reply';

export async function continueStory(
  ctx: TurnContext,
  userId: number,
  storyId: number,
  text: string,
): Promise<PreparedTurn> {
  const began = performance.now();
  const hold = await ctx.admission.admitTurn(userId);
  return ctx.admission.withHold(hold, async () => {
    const limits = ctx.windowFor(storyId);
    const turn = await ctx.repos.stories.leaseAndAppend({
      storyId,
      userId,
      content: text,
      now: ctx.now(),
      until: ctx.leaseUntil(),
      window: limits,
      maxStoredBytes: ctx.quotas.limits.maxStoredBytes,
    });
    if (!turn) return ctx.admission.leaseRefused(userId, storyId, Buffer.byteLength(text));
    const { story, action } = turn;
    const preferences = turn.preferences ?? DEFAULT_PREFERENCES;
    return preparedTurn(ctx, {
      story,
      action,
      attempt: 0,
      replace: null,
      reportStoryId: false,
      loaded: { window: turn.window, limits, preferences },
      hold,
      began,
    });
  });
}
