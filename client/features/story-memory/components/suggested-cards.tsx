// 'Suggest cards': story cards the server proposes from the bible (one per person, place or thing
// with several facts that no card names yet), nothing saved. Each shows its name, keys and content;
// 'Add card' saves it through the story-cards feature (POST /cards, which refreshes the cards list)
// and takes it off the list, 'Dismiss' only takes it off. The proposals live as long as the panel.
import { useEffect, useId, useRef, useState } from 'react';
import { Sparkles } from 'lucide-react';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/use-toast';
import { KeyChip, useStoryCardMutations } from '@client/features/story-cards';
import { errorMessage } from '@client/lib/api-client';
import { useSuggestCardsMutation } from '../api/story-bible';
import { STORY_BIBLE_STRINGS as S } from '../strings';

interface Proposal {
  key: number;
  card: StoryCardFields;
}

function ProposalItem({
  proposal: { card },
  pending,
  onAdd,
  onDismiss,
}: {
  proposal: Proposal;
  pending: boolean;
  onAdd: () => void;
  onDismiss: () => void;
}) {
  const headingId = `${useId()}-name`;
  return (
    <li aria-labelledby={headingId} className="grid gap-2 rounded-lg border border-dashed bg-card/60 p-3">
      <h4 id={headingId} className="font-serif text-base font-semibold break-words">
        {card.name}
      </h4>
      {card.keys.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={S.keysLabel(card.name)}>
          {card.keys.map((key) => (
            <li key={key}>
              <KeyChip value={key} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-muted-foreground">{S.noKeys}</p>
      )}
      <p className="text-sm break-words whitespace-pre-wrap text-muted-foreground">{card.content}</p>
      <div className="flex justify-end gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-label={S.dismissLabel(card.name)}
          disabled={pending}
          onClick={onDismiss}
        >
          {S.dismiss}
        </Button>
        <Button size="sm" data-add-card aria-label={S.addCardLabel(card.name)} disabled={pending} onClick={onAdd}>
          {pending ? S.adding : S.addCard}
        </Button>
      </div>
    </li>
  );
}

export function SuggestedCards({ storyId, disabled }: { storyId: number; disabled: boolean }) {
  const suggest = useSuggestCardsMutation(storyId);
  const { add } = useStoryCardMutations(storyId);
  /** null: none asked for, or every one added or dismissed; empty: the server had none. */
  const [proposals, setProposals] = useState<Proposal[] | null>(null);
  const [adding, setAdding] = useState<number | null>(null);
  const nextKey = useRef(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const refocus = useRef(false);

  // A proposal handled leaves the page with its buttons: focus goes to the next one's 'Add card', or
  // to 'Suggest cards' when none is left.
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    (list.current?.querySelector<HTMLButtonElement>('[data-add-card]') ?? button.current)?.focus();
  }, [proposals]);

  const handleSuggest = async () => {
    try {
      const cards = await suggest.mutateAsync();
      setProposals(cards.map((card) => ({ key: nextKey.current++, card })));
    } catch (error) {
      toast({ title: S.errorTitle, description: errorMessage(error, S.suggestFailed), variant: 'destructive' });
    }
  };
  const drop = (key: number) => {
    refocus.current = true;
    setProposals((current) => {
      const rest = (current ?? []).filter((proposal) => proposal.key !== key);
      return rest.length > 0 ? rest : null;
    });
  };
  const handleAdd = async ({ key, card }: Proposal) => {
    setAdding(key);
    try {
      await add.mutateAsync(card);
      drop(key);
      toast({ title: S.successTitle, description: S.cardAdded(card.name) });
    } catch (error) {
      toast({ title: S.errorTitle, description: errorMessage(error, S.addFailed), variant: 'destructive' });
    } finally {
      setAdding(null);
    }
  };

  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-muted-foreground">{S.suggestionsHint}</p>
        <Button
          ref={button}
          variant="outline"
          size="sm"
          disabled={disabled || suggest.isPending}
          onClick={() => void handleSuggest()}
        >
          <Sparkles aria-hidden="true" />
          {suggest.isPending ? S.suggesting : S.suggest}
        </Button>
      </div>
      {proposals === null ? null : proposals.length === 0 ? (
        <p className="text-sm text-muted-foreground" role="status">
          {S.noSuggestions}
        </p>
      ) : (
        <ul ref={list} aria-label={S.suggestionsLabel} className="grid gap-2">
          {proposals.map((proposal) => (
            <ProposalItem
              key={proposal.key}
              proposal={proposal}
              pending={adding === proposal.key}
              onAdd={() => void handleAdd(proposal)}
              onDismiss={() => drop(proposal.key)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
