// The story page's whole-page states: the two story-creation loading screens with
// the rotating message, the empty and failed states with 'Refresh Page', and the 'Story Recovery
// Error' screen for a bookmark that could not be opened.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { LOADING_MESSAGE_ROTATION_MS } from '@shared/constants';
import { Logo } from '@client/components/logo';
import { PageContainer } from '@client/components/page';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { LoadingAd } from '@client/features/ads';
import { STORY_STRINGS } from '../strings';

/** The message shown now, moving to the next every 3 s. */
export function useRotatingMessage(messages: readonly string[], intervalMs = LOADING_MESSAGE_ROTATION_MS): string {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => (i + 1) % messages.length), intervalMs);
    return () => clearInterval(timer);
  }, [messages.length, intervalMs]);
  return messages[index];
}

/** Full-screen view while a story is being created: logo, spinner, headline, rotating message. */
export function StoryLoadingScreen() {
  const message = useRotatingMessage(STORY_STRINGS.loadingMessages);
  return (
    <div
      className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-6 bg-background/95 px-6 text-center backdrop-blur-sm"
      aria-busy="true"
    >
      <Logo size={96} decorative className="animate-pulse motion-reduce:animate-none" />
      <Spinner label={STORY_STRINGS.loadingHeadline} className="[&_svg]:size-8" />
      <h1 className="max-w-xl font-serif text-2xl text-balance">{STORY_STRINGS.loadingHeadline}</h1>
      <p className="text-gold" aria-live="polite">
        {message}
      </p>
    </div>
  );
}

/** The second creation screen: 'Creating Your Story' with placeholders where the story will appear, and an ad block. */
export function CreatingStoryScreen() {
  const message = useRotatingMessage(STORY_STRINGS.loadingMessages);
  return (
    <PageContainer className="grid gap-6">
      <header className="grid gap-2 text-center">
        <h1 className="text-3xl font-semibold">{STORY_STRINGS.creatingTitle}</h1>
        <p className="text-muted-foreground">{STORY_STRINGS.creatingText}</p>
        <p className="text-gold" aria-live="polite">
          {message}
        </p>
      </header>
      <Card className="grid gap-3 p-6">
        <Spinner label={STORY_STRINGS.writingStory} />
        <p className="text-sm text-muted-foreground" aria-hidden="true">
          {STORY_STRINGS.writingStory}
        </p>
        {[92, 100, 84, 96, 60].map((width) => (
          <div
            key={width}
            className="h-4 animate-pulse rounded bg-muted motion-reduce:animate-none"
            style={{ width: `${width}%` }}
            aria-hidden="true"
          />
        ))}
      </Card>
      <LoadingAd />
    </PageContainer>
  );
}

function reload() {
  window.location.reload();
}

/** No messages, or a story that could not be read: the reason and a way to try again. */
export function StoryEmptyState({ error }: { error: string | null }) {
  return (
    <PageContainer width="narrow" className="grid gap-4">
      {error ? (
        <Alert variant="destructive">
          <AlertTitle>{STORY_STRINGS.errorAlertTitle}</AlertTitle>
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="text-xl">
            {error ? STORY_STRINGS.loadFailed : STORY_STRINGS.noContent}
          </CardTitle>
        </CardHeader>
        <CardFooter>
          <Button onClick={reload}>
            <RefreshCw aria-hidden="true" />
            {STORY_STRINGS.refreshPage}
          </Button>
        </CardFooter>
      </Card>
    </PageContainer>
  );
}

export function RecoveryErrorScreen({
  storyId,
  messageId,
  error,
}: {
  storyId: string;
  messageId: string;
  error: string;
}) {
  const htmlInsteadOfJson = /html instead of json/i.test(error);
  return (
    <PageContainer width="narrow">
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="flex items-center gap-2">
            <AlertTriangle className="size-6 text-destructive-text" aria-hidden="true" />
            {STORY_STRINGS.recoveryErrorTitle}
          </CardTitle>
          <CardDescription className="text-base text-destructive-text">{error}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          <p>{STORY_STRINGS.recoveryStoryId(storyId)}</p>
          <p>{STORY_STRINGS.recoveryMessageId(messageId)}</p>
          {htmlInsteadOfJson ? (
            <Alert>
              <AlertTitle>{STORY_STRINGS.serverIssueTitle}</AlertTitle>
              <AlertDescription>{STORY_STRINGS.serverIssueText}</AlertDescription>
            </Alert>
          ) : null}
        </CardContent>
        <CardFooter className="flex-wrap">
          <Button asChild variant="outline">
            <Link to="/bookmarks">{STORY_STRINGS.returnToBookmarks}</Link>
          </Button>
          <Button onClick={reload}>{STORY_STRINGS.tryAgainReload}</Button>
          <Button asChild variant="secondary">
            <Link to="/">{STORY_STRINGS.startNewStory}</Link>
          </Button>
        </CardFooter>
      </Card>
    </PageContainer>
  );
}
