// The 'Story Cards' panel (a dialog, loaded when first opened): the story's cards read fresh on each
// opening, a search over their names, keys and content, 'Add card', Import and Export; each card
// with its switch, Edit and Delete. An empty story shows the example card. The add and edit form is
// a dialog of its own above this one; closing it returns focus to the button that opened it.
import { useRef, useState } from 'react';
import { Plus } from 'lucide-react';
import type { StoryCard } from '@shared/schemas/story-cards';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api-client';
import { useStoryCards } from '../api/get-story-cards';
import { useStoryCardMutations } from '../api/story-card-mutations';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { CardFormDialog } from './card-form-dialog';
import { ExampleCard } from './example-card';
import { ExportCardsMenu } from './export-cards-menu';
import { ImportCardsButton, ImportResult, type ImportOutcome } from './import-cards';
import { StoryCardItem } from './story-card-item';
import { returnFocusTo } from '@client/lib/return-focus';

/** Whether a card's name, keys or content contain the search (any case). */
export function cardMatches(card: StoryCard, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return [card.name, card.content, ...card.keys, ...card.secondaryKeys].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

interface FormState {
  open: boolean;
  card: StoryCard | null;
  trigger: HTMLElement | null;
}

export interface StoryCardsPanelProps {
  storyId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the panel closes (the button that opened it). */
  returnFocus: () => HTMLElement | null;
}

export function StoryCardsPanel({ storyId, open, onOpenChange, returnFocus }: StoryCardsPanelProps) {
  const cards = useStoryCards(storyId, open);
  const { importFile } = useStoryCardMutations(storyId);
  const [search, setSearch] = useState('');
  const [form, setForm] = useState<FormState>({ open: false, card: null, trigger: null });
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const openForm = (card: StoryCard | null, trigger: HTMLElement) => setForm({ open: true, card, trigger });
  const handleImport = async (file: File) => {
    setOutcome(null);
    try {
      setOutcome({ kind: 'done', result: await importFile.mutateAsync(file) });
    } catch (error) {
      setOutcome({ kind: 'failed', message: errorMessage(error, S.importFailed) });
    }
  };
  const handleOpenChange = (next: boolean) => {
    if (!next) {
      setSearch('');
      setOutcome(null);
    }
    onOpenChange(next);
  };

  const all = cards.data ?? [];
  const shown = all.filter((card) => cardMatches(card, search));
  let body;
  if (cards.isError) {
    body = (
      <Alert variant="destructive">
        <AlertDescription className="grid gap-2">
          <p>{errorMessage(cards.error, S.loadFailed)}</p>
          <Button variant="outline" size="sm" className="justify-self-start" onClick={() => void cards.refetch()}>
            {S.retry}
          </Button>
        </AlertDescription>
      </Alert>
    );
  } else if (cards.isPending) {
    body = (
      <div className="flex justify-center py-8">
        <Spinner label={S.loading} />
      </div>
    );
  } else if (all.length === 0) {
    body = <ExampleCard />;
  } else {
    body = (
      <div className="grid gap-2">
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {search.trim() === '' ? S.cardCount(all.length) : `${S.cardCount(shown.length)} / ${all.length}`}
        </p>
        {shown.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">{S.noMatches(search.trim())}</p>
        ) : (
          <ul className="grid gap-2" aria-label={S.listLabel}>
            {shown.map((card) => (
              <StoryCardItem
                key={card.id}
                storyId={storyId}
                card={card}
                onEdit={openForm}
                fallbackFocus={() => addButton.current}
              />
            ))}
          </ul>
        )}
      </div>
    );
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent
        className="max-h-[90dvh] max-w-2xl content-start overflow-y-auto"
        onCloseAutoFocus={returnFocusTo(() => returnFocus())}
      >
        <DialogHeader>
          <DialogTitle>{S.title}</DialogTitle>
          <DialogDescription>{S.description}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap items-center gap-2">
          <Input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={S.searchPlaceholder}
            aria-label={S.searchLabel}
            className="min-w-40 flex-1"
            disabled={all.length === 0}
          />
          <Button ref={addButton} size="sm" onClick={(event) => openForm(null, event.currentTarget)}>
            <Plus aria-hidden="true" />
            {S.addCard}
          </Button>
          <ImportCardsButton pending={importFile.isPending} onFile={handleImport} />
          <ExportCardsMenu storyId={storyId} disabled={all.length === 0} />
        </div>
        {outcome ? <ImportResult outcome={outcome} onDismiss={() => setOutcome(null)} /> : null}
        {body}
        <CardFormDialog
          storyId={storyId}
          open={form.open}
          card={form.card}
          onOpenChange={(next) => setForm((current) => ({ ...current, open: next }))}
          returnFocus={() => (form.trigger?.isConnected ? form.trigger : addButton.current)}
        />
      </DialogContent>
    </Dialog>
  );
}
