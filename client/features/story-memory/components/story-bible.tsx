// The 'Story Bible' section of the Story Memory panel: the story's current facts grouped by what they
// are about, each with its older values beneath, to pin, edit or delete; and 'Suggest cards'. It reads
// the bible afresh each time the panel opens (it mounts with the panel) and shows only that read.
import { useId, useMemo, useRef } from 'react';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api-client';
import { useStoryBible } from '../api/story-bible';
import { STORY_BIBLE_STRINGS as S } from '../strings';
import { groupBibleFacts, pinnedCount, type BibleGroup } from '../utils/bible-facts';
import { BibleFactRow } from './bible-fact-row';
import { SuggestedCards } from './suggested-cards';

function EntityGroup({
  storyId,
  group,
  fallbackFocus,
}: {
  storyId: number;
  group: BibleGroup;
  fallbackFocus: () => HTMLElement | null;
}) {
  const headingId = `${useId()}-entity`;
  return (
    <li aria-labelledby={headingId} className="grid gap-2 rounded-lg border bg-card/60 p-3">
      <h4 id={headingId} className="font-serif text-base font-semibold break-words">
        {group.entity}
      </h4>
      <ul aria-label={S.entityFactsLabel(group.entity)} className="grid divide-y">
        {group.entries.map((entry) => (
          <BibleFactRow key={entry.fact.id} storyId={storyId} entry={entry} fallbackFocus={fallbackFocus} />
        ))}
      </ul>
    </li>
  );
}

export function StoryBible({ storyId }: { storyId: number }) {
  const bible = useStoryBible(storyId, true);
  const groups = useMemo(() => groupBibleFacts(bible.data ?? []), [bible.data]);
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = `${useId()}-bible`;
  // What an earlier opening read is not shown: the spinner stays until this opening's read is in.
  const loaded = bible.isSuccess && bible.isFetchedAfterMount;

  let body;
  if (bible.isError) {
    body = (
      <Alert variant="destructive">
        <AlertDescription className="grid gap-2">
          <p>{errorMessage(bible.error, S.loadFailed)}</p>
          <Button variant="outline" size="sm" className="justify-self-start" onClick={() => void bible.refetch()}>
            {S.retry}
          </Button>
        </AlertDescription>
      </Alert>
    );
  } else if (!loaded) {
    body = (
      <div className="flex justify-center py-6">
        <Spinner label={S.loading} />
      </div>
    );
  } else if (groups.length === 0) {
    body = <p className="py-4 text-center text-sm text-muted-foreground">{S.empty}</p>;
  } else {
    body = (
      <div className="grid gap-2">
        <p className="text-xs text-muted-foreground tabular-nums">{S.pinnedCount(pinnedCount(groups))}</p>
        <ul aria-label={S.listLabel} className="grid gap-2">
          {groups.map((group) => (
            <EntityGroup key={group.entity} storyId={storyId} group={group} fallbackFocus={() => heading.current} />
          ))}
        </ul>
      </div>
    );
  }

  return (
    <section aria-labelledby={headingId} className="grid gap-3 border-t pt-4">
      <div className="grid gap-1">
        <h3 ref={heading} id={headingId} tabIndex={-1} className="font-serif text-lg font-semibold outline-none">
          {S.title}
        </h3>
        <p className="text-sm text-muted-foreground">{S.description}</p>
      </div>
      <SuggestedCards storyId={storyId} disabled={!loaded || groups.length === 0} />
      {body}
    </section>
  );
}
