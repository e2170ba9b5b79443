// 'Try again': the last action answered once more, under the story's lease. A reply already there
// gains a new version (the earlier ones stay as alternatives, up to MESSAGE_MAX_VERSIONS); an
// action whose reply failed is given one. Each attempt is counted on the action, so the offline
// narrator writes a different reply each time.
import { MESSAGE_MAX_VERSIONS } from '@shared/schemas/quotas';
import { tooManyVersions } from '../../limits/quotas';
import { notFound } from '../errors';
import type { PreparedTurn, TurnContext } from './turn-context';
import { preparedTurn } from './write-reply';

export async function retryTurn(ctx: TurnContext, userId: number, storyId: number): Promise<PreparedTurn> {
  const { repos, admission } = ctx;
  const began = performance.now();
  const hold = await admission.admitTurn(userId);
  return admission.withHold(hold, async () => {
    const story = await admission.leaseStory(userId, storyId);
    return admission.underLease(story.id, async () => {
      const last = await repos.stories.lastMessage(story.id);
      const action = last?.role === 'user' ? last : await repos.stories.lastAction(story.id);
      if (!last || !action) throw notFound();
      if (last.role === 'assistant' && last.versions >= MESSAGE_MAX_VERSIONS) throw tooManyVersions();
      const attempts = await repos.stories.startAttempt(action.id);
      return preparedTurn(ctx, {
        story,
        action,
        attempt: attempts - 1,
        replace: last.role === 'assistant' ? last : null,
        reportStoryId: false,
        hold,
        began,
      });
    });
  });
}
