// One story in the library, a tile (not to be confused with the narrator's Story Cards): its picture
// (if any), title linking to the story, turns and when it was last played; exported (Markdown or
// JSON), renamed in place (Save/Cancel) or deleted after a confirmation, forgotten by the tab too.
// The card, its form row and the confirmation are the collection pattern it shares with bookmarks.
import { useId, useState, type FormEvent } from 'react';
import { Download } from 'lucide-react';
import { STORY_TITLE_MAX_LENGTH } from '@shared/constants';
import { storyRenameBodySchema, type LibraryStory } from '@shared/schemas/library';
import { CollectionCard, EditFormActions } from '@client/components/collection/collection-card';
import { Button } from '@client/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { forgetStory } from '@client/features/story';
import { useDeleteStoryMutation, useRenameStoryMutation } from '../api/story-mutations';
import { LIBRARY_STRINGS, exportPath, storyPath } from '../strings';

const TILE_LAYOUT = {
  card: 'p-4',
  article: 'flex flex-col gap-3 sm:flex-row sm:items-center',
  body: 'grid min-w-0 flex-1 gap-1',
  actions: 'flex shrink-0 flex-wrap gap-2',
};

function RenameForm({ story, onDone }: { story: LibraryStory; onDone: () => void }) {
  const rename = useRenameStoryMutation();
  const [title, setTitle] = useState(story.title);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  const handleSave = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = storyRenameBodySchema.safeParse({ title });
    if (!parsed.success) {
      setError(parsed.error.issues[0].message);
      return;
    }
    try {
      await rename.mutateAsync({ id: story.id, title: parsed.data.title });
      toast({ title: LIBRARY_STRINGS.successTitle, description: LIBRARY_STRINGS.renamed });
      onDone();
    } catch (failure) {
      toast({
        title: LIBRARY_STRINGS.errorTitle,
        description: errorMessage(failure, LIBRARY_STRINGS.renameFailed),
        variant: 'destructive',
      });
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSave(event)}
      className="grid gap-3"
      aria-label={LIBRARY_STRINGS.renameLabel(story.title)}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={inputId}>{LIBRARY_STRINGS.titleLabel}</Label>
        <Input
          id={inputId}
          value={title}
          maxLength={STORY_TITLE_MAX_LENGTH}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setTitle(event.target.value);
            setError(null);
          }}
        />
        {error ? (
          <p id={errorId} className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
      <EditFormActions pending={rename.isPending} onCancel={onDone} strings={LIBRARY_STRINGS} />
    </form>
  );
}

export function StoryTile({ story }: { story: LibraryStory }) {
  const remove = useDeleteStoryMutation();

  return (
    <CollectionCard
      layout={TILE_LAYOUT}
      title={story.title}
      to={storyPath(story.id)}
      leading={
        story.thumbnail ? (
          <img
            src={story.thumbnail}
            alt={LIBRARY_STRINGS.pictureAlt(story.title)}
            loading="lazy"
            className="aspect-video w-full shrink-0 rounded-md object-cover sm:w-32"
          />
        ) : null
      }
      details={
        <p className="text-xs text-muted-foreground">
          {LIBRARY_STRINGS.turns(story.turns)} ·{' '}
          <time dateTime={story.lastPlayedAt}>{LIBRARY_STRINGS.lastPlayed(story.lastPlayedAt)}</time>
        </p>
      }
      moreActions={
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" aria-label={LIBRARY_STRINGS.exportLabel(story.title)}>
              <Download aria-hidden="true" />
              {LIBRARY_STRINGS.export}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem asChild>
              <a href={exportPath(story.id, 'markdown')} download>
                {LIBRARY_STRINGS.exportMarkdown}
              </a>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <a href={exportPath(story.id, 'json')} download>
                {LIBRARY_STRINGS.exportJson}
              </a>
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      }
      edit={{
        label: LIBRARY_STRINGS.rename,
        ariaLabel: LIBRARY_STRINGS.renameLabel(story.title),
        form: (done) => <RenameForm story={story} onDone={done} />,
      }}
      remove={{
        ariaLabel: LIBRARY_STRINGS.deleteLabel(story.title),
        text: LIBRARY_STRINGS.deleteText(story.title),
        strings: LIBRARY_STRINGS,
        onDelete: () => remove.mutateAsync(story.id),
        pending: remove.isPending,
        // A deleted story that was the tab's current one is forgotten there too.
        onDeleted: () => forgetStory(story.id),
      }}
    />
  );
}
