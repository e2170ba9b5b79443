// /shared/:shareId, public: the read-only story, or its lightweight version
// inside social-network in-app browsers. A 4xx answer shows the 'Story Not Available' card at once;
// when the story cannot be reached, a clearly labelled sample stands in with the reason.
import { Link, useLocation, useParams } from 'react-router';
import { AlertTriangle, Home, RotateCcw } from 'lucide-react';
import { SAMPLE_SHARE_ID } from '@shared/schemas/sharing';
import { PageContainer, PageSpinner } from '@client/components/page';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { useSharedStory } from '../api/get-shared-story';
import { SHARING_STRINGS } from '../strings';
import { isLightweightShare } from '../utils/in-app-browser';
import { SharedStoryLight } from './shared-story-light';
import { SharedStoryView } from './shared-story-view';

function StoryNotAvailable({
  shareId,
  message,
  onRetry,
  retrying,
}: {
  shareId: string;
  message: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  usePageTitle(SHARING_STRINGS.notAvailable);
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1" className="flex items-center gap-2">
          <AlertTriangle className="size-6 text-destructive-text" aria-hidden="true" />
          {SHARING_STRINGS.notAvailable}
        </CardTitle>
        <CardDescription className="text-base">{message}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap gap-2">
          <Button onClick={onRetry} disabled={retrying}>
            <RotateCcw aria-hidden="true" />
            {SHARING_STRINGS.tryAgain}
          </Button>
          <Button asChild variant="outline">
            <Link to="/">
              <Home aria-hidden="true" />
              {SHARING_STRINGS.returnHome}
            </Link>
          </Button>
        </div>
        <p className="font-mono text-xs break-all text-muted-foreground">{SHARING_STRINGS.shareId(shareId)}</p>
      </CardContent>
    </Card>
  );
}

export function SharedStoryPage() {
  const { shareId = '' } = useParams();
  const { pathname } = useLocation();
  const light = isLightweightShare(pathname);
  const query = useSharedStory(shareId, light);
  const result = query.data;
  usePageTitle(result && result.kind !== 'unavailable' ? result.story.title : SHARING_STRINGS.sharedBadge);

  let content;
  if (!shareId.trim()) {
    content = (
      <StoryNotAvailable
        shareId={shareId}
        message={SHARING_STRINGS.missingShareId}
        onRetry={() => void query.refetch()}
        retrying={false}
      />
    );
  } else if (query.isPending) {
    content = <PageSpinner label={SHARING_STRINGS.loading} />;
  } else if (!result || result.kind === 'unavailable') {
    const message = result?.kind === 'unavailable' ? result.message : SHARING_STRINGS.expiredFallback;
    content = (
      <StoryNotAvailable
        shareId={shareId}
        message={message}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    const isSample = result.kind === 'sample' || shareId === SAMPLE_SHARE_ID;
    const View = light ? SharedStoryLight : SharedStoryView;
    content = (
      <div className="grid gap-6">
        {result.kind === 'sample' ? (
          <Alert>
            <AlertTitle>{SHARING_STRINGS.sampleNoticeTitle}</AlertTitle>
            <AlertDescription className="grid gap-2">
              <p>{result.reason}</p>
              <p>{SHARING_STRINGS.expiredFallback}</p>
              <div>
                <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
                  <RotateCcw aria-hidden="true" />
                  {SHARING_STRINGS.tryAgain}
                </Button>
              </div>
            </AlertDescription>
          </Alert>
        ) : null}
        <View story={result.story} isSample={isSample} />
      </div>
    );
  }
  return <PageContainer>{content}</PageContainer>;
}
