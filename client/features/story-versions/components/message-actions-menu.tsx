// The '⋯' button beside a message of the owner's story, and its menu: Edit, Versions (once there
// are several), Erase from here (never the opening), Branch from here. A story may hold 2,000
// messages, so each row starts as one plain button; the Radix menu is mounted on the first click
// and its items only while it is open. A message this tab wrote has no server id until the story
// is read again: opening the menu asks for that read (onOpen) and the items wait for it.
import { useRef, useState } from 'react';
import { Ellipsis, Eraser, GitBranch, History, Pencil } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { Spinner } from '@client/components/ui/spinner';
import { STORY_VERSIONS_STRINGS as S } from '../strings';

export type MessageActionKind = 'edit' | 'versions' | 'erase' | 'branch';

export interface MessageActionsMenuProps {
  /** The message's server id is known: its actions can be taken. */
  ready: boolean;
  hasVersions: boolean;
  canErase: boolean;
  /** Which side of the button the menu lines up with (the bubble's side). */
  align: 'start' | 'end';
  onOpen?: () => void;
  /** trigger: the '⋯' button, for dialogs to give focus back to. */
  onAction: (kind: MessageActionKind, trigger: HTMLElement | null) => void;
}

const triggerClassName =
  'size-8 shrink-0 rounded-full text-muted-foreground/70 hover:text-foreground data-[state=open]:bg-accent data-[state=open]:text-foreground';

export function MessageActionsMenu({ ready, hasVersions, canErase, align, onOpen, onAction }: MessageActionsMenuProps) {
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  /** Set when the chosen action puts focus elsewhere (the editor, a dialog): the menu does not take it back. */
  const keepFocus = useRef(false);
  const icon = <Ellipsis aria-hidden="true" />;

  const handleOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) onOpen?.();
  };

  if (!mounted) {
    return (
      <Button
        variant="ghost"
        size="icon"
        className={triggerClassName}
        aria-label={S.messageActions}
        aria-haspopup="menu"
        aria-expanded={false}
        onClick={() => {
          setMounted(true);
          handleOpenChange(true);
        }}
      >
        {icon}
      </Button>
    );
  }

  const choose = (kind: MessageActionKind) => {
    keepFocus.current = kind !== 'branch';
    onAction(kind, trigger.current);
  };

  return (
    <DropdownMenu open={open} onOpenChange={handleOpenChange} modal={false}>
      <DropdownMenuTrigger asChild>
        <Button ref={trigger} variant="ghost" size="icon" className={triggerClassName} aria-label={S.messageActions}>
          {icon}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align={align}
        className="min-w-48"
        onCloseAutoFocus={(event) => {
          if (!keepFocus.current) return;
          keepFocus.current = false;
          event.preventDefault();
        }}
      >
        {ready ? null : (
          <div className="flex items-center gap-2 px-2 py-1.5 text-sm text-muted-foreground">
            <Spinner label={S.findingMessage} className="[&_svg]:size-4" />
            <span aria-hidden="true">{S.findingMessage}</span>
          </div>
        )}
        <DropdownMenuItem disabled={!ready} onSelect={() => choose('edit')}>
          <Pencil aria-hidden="true" />
          {S.edit}
        </DropdownMenuItem>
        {hasVersions ? (
          <DropdownMenuItem disabled={!ready} onSelect={() => choose('versions')}>
            <History aria-hidden="true" />
            {S.versions}
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem disabled={!ready} onSelect={() => choose('branch')}>
          <GitBranch aria-hidden="true" />
          {S.branchFromHere}
        </DropdownMenuItem>
        {canErase ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              disabled={!ready}
              onSelect={() => choose('erase')}
              className="text-destructive data-[highlighted]:bg-destructive/15 data-[highlighted]:text-destructive"
            >
              <Eraser aria-hidden="true" />
              {S.eraseFromHere}
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
