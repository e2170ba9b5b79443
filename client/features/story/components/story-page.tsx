// /story, /story/new and /story/:storyId. Visitors get the 'Login Required' card
// (returning here, messageId included, after login). Players see the story, or whichever of the
// spec's page states applies: creating, loading, empty, failed, or the recovery error screen.
import { PageSpinner } from '@client/components/page';
import type { User } from '@shared/schemas/user';
import { usePageTitle } from '@client/lib/use-page-title';
import { LoginRequiredCard, useSession } from '@client/features/auth';
import { useStoryVersions } from '@client/features/story-versions';
import { useStoryPictures } from '../hooks/use-story-pictures';
import { useStorySession } from '../hooks/use-story-session';
import { storyController } from '../state/story-controller';
import { storyVersions } from '../state/story-versions-session';
import { STORY_STRINGS } from '../strings';
import { CreatingStoryScreen, RecoveryErrorScreen, StoryEmptyState, StoryLoadingScreen } from './story-screens';
import { StoryView } from './story-view';

function StorySession({ user, isNew }: { user: User; isNew: boolean }) {
  const session = useStorySession(user, isNew);
  const { state, mode, idParam, routeStoryId, messageParam, bookmarkMessageId } = session;
  // Asked from the start, alongside the story itself: whether pictures show, and their polling.
  const pictures = useStoryPictures(state, storyController, user.id);
  const versions = useStoryVersions(state, storyVersions);
  usePageTitle(
    state.storyId
      ? STORY_STRINGS.storyTitle(state.storyId)
      : isNew
        ? STORY_STRINGS.newStoryTitle
        : STORY_STRINGS.currentStoryTitle,
  );

  if (mode === 'new') return <StoryLoadingScreen />;
  if (mode === 'story' && routeStoryId === null) return <StoryEmptyState error={STORY_STRINGS.storyNotFound} />;
  if (state.errorKind === 'recovery' && bookmarkMessageId !== null && idParam !== null && messageParam !== null) {
    return (
      <RecoveryErrorScreen
        storyId={idParam}
        messageId={messageParam}
        error={state.error ?? STORY_STRINGS.failedToRecover}
      />
    );
  }
  if (state.isGenerating && state.isLoadingStory) return <StoryLoadingScreen />;
  if (state.errorKind === 'load') return <StoryEmptyState error={state.error} />;
  const onRoute = mode === 'current' || state.storyId === routeStoryId;
  if (!onRoute || (state.isLoadingStory && state.messages.length === 0))
    return <PageSpinner label={STORY_STRINGS.loading} />;
  if (state.messages.length === 0)
    return mode === 'current' ? <PageSpinner label={STORY_STRINGS.loading} /> : <StoryEmptyState error={null} />;

  return (
    <StoryView
      state={state}
      focusMessageId={session.focusMessageId}
      expectFocus={bookmarkMessageId !== null}
      onSend={session.handleSend}
      onRetry={session.handleRetry}
      onRegenerate={session.handleRegenerate}
      inputRef={session.inputRef}
      pictures={pictures}
      versions={versions}
    />
  );
}

export function StoryPage({ isNew = false }: { isNew?: boolean }) {
  const { isLoading, user } = useSession();
  if (isLoading) return isNew ? <CreatingStoryScreen /> : <PageSpinner label={STORY_STRINGS.loading} />;
  if (!user) return <LoginRequiredCard />;
  return <StorySession user={user} isNew={isNew} />;
}
