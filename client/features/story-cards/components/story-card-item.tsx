// One card in the Story Cards panel: its name, badges (Always on, Disabled), tokens, keys as chips
// and the start of its content; an Enabled switch (PATCH enabled), Edit, and Delete after a
// confirmation. The example card shown in an empty panel has the same look and no controls.
import { useId, useRef, useState, type ReactNode } from 'react';
import { Pencil, Trash2 } from 'lucide-react';
import type { StoryCard } from '@shared/schemas/story-cards';
import { ConfirmDeleteDialog } from '@client/components/collection/confirm-delete-dialog';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Switch } from '@client/components/ui/switch';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { cn } from '@client/lib/utils';
import { useStoryCardMutations } from '../api/story-card-mutations';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { KeyChip } from './key-chip';

interface CardBodyProps {
  headingId: string;
  name: string;
  keys: string[];
  content: string;
  badges?: ReactNode;
  details?: ReactNode;
  actions?: ReactNode;
}

/** What every card shows, a real one or the example. */
export function CardBody({ headingId, name, keys, content, badges, details, actions }: CardBodyProps) {
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 id={headingId} className="font-serif text-base font-semibold break-words">
            {name}
          </h3>
          {badges}
        </div>
        {actions}
      </div>
      {keys.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={S.keysLabel(name)}>
          {keys.map((key) => (
            <li key={key}>
              <KeyChip value={key} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-muted-foreground">{S.noKeys}</p>
      )}
      <p className="line-clamp-2 text-sm break-words text-muted-foreground">{content}</p>
      {details}
    </div>
  );
}

export interface StoryCardItemProps {
  storyId: number;
  card: StoryCard;
  onEdit: (card: StoryCard, trigger: HTMLElement) => void;
  /** Where focus goes once this card is deleted. */
  fallbackFocus: () => HTMLElement | null;
}

export function StoryCardItem({ storyId, card, onEdit, fallbackFocus }: StoryCardItemProps) {
  const { edit, remove } = useStoryCardMutations(storyId);
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const deleted = useRef(false);
  const headingId = `${useId()}-name`;
  const switchId = useId();

  const toggle = async (enabled: boolean) => {
    try {
      await edit.mutateAsync({ cardId: card.id, patch: { enabled } });
    } catch (error) {
      toast({ title: S.errorTitle, description: errorMessage(error, S.toggleFailed), variant: 'destructive' });
    }
  };

  return (
    <li
      aria-labelledby={headingId}
      data-card-id={card.id}
      className={cn('rounded-lg border bg-card/60 p-3', !card.enabled && 'border-dashed bg-muted/30')}
    >
      <CardBody
        headingId={headingId}
        name={card.name}
        keys={card.keys}
        content={card.content}
        badges={
          <>
            {card.alwaysOn ? <Badge>{S.alwaysOnBadge}</Badge> : null}
            {card.enabled ? null : (
              <Badge className="border-muted-foreground/40 bg-muted text-muted-foreground">{S.disabledBadge}</Badge>
            )}
          </>
        }
        details={<p className="text-xs text-muted-foreground tabular-nums">{S.tokens(card.tokens)}</p>}
        actions={
          <div className="flex shrink-0 items-center gap-1">
            <label htmlFor={switchId} className="sr-only">
              {S.enabledSwitch(card.name)}
            </label>
            <Switch
              id={switchId}
              checked={card.enabled}
              disabled={edit.isPending}
              onCheckedChange={(enabled) => void toggle(enabled)}
              title={S.enabled}
            />
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={S.editLabel(card.name)}
              title={S.edit}
              onClick={(event) => onEdit(card, event.currentTarget)}
            >
              <Pencil aria-hidden="true" />
            </Button>
            <Button
              ref={deleteButton}
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={S.deleteLabel(card.name)}
              title={S.delete}
              onClick={() => setConfirming(true)}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        }
      />
      <ConfirmDeleteDialog
        open={confirming}
        onOpenChange={setConfirming}
        text={S.deleteText(card.name)}
        strings={S}
        onDelete={() => remove.mutateAsync(card.id)}
        pending={remove.isPending}
        onDeleted={() => {
          deleted.current = true;
        }}
        returnFocus={() => (deleted.current ? fallbackFocus() : deleteButton.current)}
      />
    </li>
  );
}
