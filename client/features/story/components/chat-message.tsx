// One chat bubble: the player's on the right, the narrator's on the left, or a
// narrator reply's scene picture (the images feature draws it). Text is rendered as text, never as
// HTML, so a story that mentions <script> shows it literally. Beside each message of the owner's
// story sits its '⋯' menu; a narrator reply with several versions shows '‹ 2 / 3 ›'; a message
// being edited shows the editor in place of its words (the story-versions feature draws these); a
// narrator reply of the owner's story offers 'What the narrator saw' (the story-cards feature's).
// The loop guard's work shows on a narrator reply: 'rewriting…' while the narrator writes it again
// (its first words dimmed until the new ones replace them), and a quiet line under one kept though
// it still repeats. A settled reply the server priced has a quiet 'i': what it cost.
// Memoised: while a reply streams only its own bubble re-renders (the callbacks are stable).
import { memo, type ReactNode } from 'react';
import { RotateCcw } from 'lucide-react';
import { messageTextLimit } from '@shared/schemas/story-versions';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { IllustrateButton, ScenePictureEntry } from '@client/features/images';
import { NarratorContextAction } from '@client/features/story-cards';
import {
  MessageActionsMenu,
  MessageEditor,
  VersionSwitcher,
  type MessageControls,
  type MessageEditorState,
} from '@client/features/story-versions';
import { STORY_STRINGS } from '../strings';
import type { ChatDisplayMessage } from '../utils/chat-display';
import { ReplyCostButton } from './reply-cost-button';

export interface ChatMessageProps {
  message: ChatDisplayMessage;
  highlighted: boolean;
  streaming: boolean;
  /** Set on the latest narrator reply when it can be written again. */
  onRegenerate?: () => void;
  /** Set on a narrator reply without a picture while pictures may be asked for ('Illustrate this scene'). */
  onIllustrate?: (messageId: number) => void;
  /** Set on a failed picture while pictures may be asked for (its Retry). */
  onPictureRetry?: (messageId: number) => void;
  /** A picture of this message is being asked for. */
  pictureBusy?: boolean;
  /** Set on the messages of the owner's story (never on notices or pictures). */
  controls?: MessageControls;
  /** The '⋯' menu shows (not while the narrator writes, nor on the reply being written). */
  showMenu?: boolean;
  /** 'Erase from here' is offered (never on the opening: the premise and its first reply). */
  canErase?: boolean;
  /** The arrows between versions wait (the narrator writes, or a switch is on its way). */
  versionsLocked?: boolean;
  /** Set while this message is being edited. */
  editor?: MessageEditorState;
  /** Set on a narrator reply of the owner's story: opens 'What the narrator saw' for it (and the version shown). */
  onShowContext?: (messageId: number, version: number | undefined, trigger: HTMLElement | null) => void;
}

/** The writing cursor at the end of a reply that is still streaming. */
const caret = (
  <span
    className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse bg-gold motion-reduce:animate-none"
    aria-hidden="true"
  />
);

function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
}

export const ChatMessage = memo(function ChatMessage({
  message,
  highlighted,
  streaming,
  onRegenerate,
  onIllustrate,
  onPictureRetry,
  pictureBusy = false,
  controls,
  showMenu = false,
  canErase = false,
  versionsLocked = false,
  editor,
  onShowContext,
}: ChatMessageProps) {
  const isUser = message.role === 'user';
  const { messageId } = message;
  if (message.picture) {
    return (
      <ScenePictureEntry
        picture={message.picture}
        text={message.content}
        canRetry={onPictureRetry !== undefined && messageId !== undefined}
        onRetry={() => (messageId !== undefined ? onPictureRetry?.(messageId) : undefined)}
        retrying={pictureBusy}
      />
    );
  }
  if (message.role === 'image') {
    // An image message in an older saved shape: its picture, or its text.
    return (
      <figure className="mx-auto max-w-xl overflow-hidden rounded-xl border">
        {message.image ? (
          <img src={message.image} alt={message.content} className="aspect-video w-full object-cover" loading="lazy" />
        ) : (
          <figcaption className="p-3 text-sm text-muted-foreground">{message.content}</figcaption>
        )}
      </figure>
    );
  }
  const { localId, version, versions } = message;
  const switcher =
    controls && !isUser && messageId !== undefined && version !== undefined && versions !== undefined ? (
      <VersionSwitcher
        version={version}
        versions={versions}
        disabled={versionsLocked}
        onSelect={(next) => controls.onSelectVersion(messageId, next)}
      />
    ) : null;
  const menu =
    controls && showMenu && !editor ? (
      <MessageActionsMenu
        ready={messageId !== undefined}
        hasVersions={versions !== undefined}
        canErase={canErase}
        align={isUser ? 'end' : 'start'}
        onOpen={() => controls.onOpenActions(localId)}
        onAction={(kind, trigger) => controls.onAction(kind, localId, messageId, trigger)}
      />
    ) : null;
  const tools: ReactNode[] = [];
  // Only once settled: while it streams (or is written again) the reply's cost is not known yet.
  if (message.usage && !isUser && !streaming && !message.rewriting)
    tools.push(<ReplyCostButton key="cost" usage={message.usage} />);
  if (onShowContext && messageId !== undefined && !isUser)
    tools.push(
      <NarratorContextAction key="context" onOpen={(trigger) => onShowContext(messageId, version, trigger)} />,
    );
  if (onIllustrate && messageId !== undefined)
    tools.push(<IllustrateButton key="illustrate" onClick={() => onIllustrate(messageId)} busy={pictureBusy} />);
  if (onRegenerate) {
    tools.push(
      <Button
        key="regenerate"
        variant="ghost"
        size="sm"
        onClick={onRegenerate}
        title={STORY_STRINGS.regenerateLabel}
        className="h-8 font-sans text-muted-foreground"
      >
        <RotateCcw aria-hidden="true" />
        {STORY_STRINGS.tryAgain}
      </Button>,
    );
  }

  if (editor && controls && messageId !== undefined) {
    const { max: maxLength, tooLong } = messageTextLimit({
      role: isUser ? 'user' : 'assistant',
      isInitial: message.isInitialMessage,
    });
    return (
      <div className={cn('flex', isUser ? 'justify-end' : 'justify-start')}>
        <article
          aria-label={isUser ? STORY_STRINGS.you : STORY_STRINGS.narrator}
          data-message-id={messageId}
          data-editing
          className="w-full rounded-2xl border bg-card/95 p-3 shadow-sm sm:max-w-[85%]"
        >
          <MessageEditor
            initialText={controls.draftOf(localId) ?? message.content}
            shownText={message.content}
            maxLength={maxLength}
            tooLongMessage={tooLong}
            saving={editor.saving}
            error={editor.error}
            onSave={(text) => controls.onSaveEdit(localId, messageId, text)}
            onCancel={controls.onCancelEdit}
            onDraftChange={(text) => controls.onDraftChange(localId, text)}
          />
        </article>
      </div>
    );
  }

  return (
    <div className={cn('flex items-end gap-1', isUser ? 'justify-end' : 'justify-start')}>
      {isUser ? menu : null}
      <article
        aria-label={isUser ? STORY_STRINGS.you : STORY_STRINGS.narrator}
        data-message-id={message.messageId}
        data-streaming={streaming || undefined}
        data-highlighted={highlighted || undefined}
        className={cn(
          'grid min-w-0 max-w-[85%] gap-2 rounded-2xl px-4 py-3 shadow-sm transition-shadow duration-500 sm:max-w-[75%]',
          isUser
            ? 'rounded-br-sm bg-primary text-primary-foreground'
            : 'rounded-bl-sm border bg-card/90 font-serif text-[1.05rem] leading-relaxed',
          message.isNotice && 'border-dashed bg-muted/40 font-sans text-sm italic',
          highlighted && 'ring-4 ring-gold ring-offset-2 ring-offset-background',
        )}
      >
        {paragraphs(message.content).map((p, i, all) => (
          <p key={i} className={cn('break-words whitespace-pre-wrap', message.rewriting && 'opacity-50')}>
            {p}
            {streaming && i === all.length - 1 ? caret : null}
          </p>
        ))}
        {streaming && message.content.trim() === '' ? caret : null}
        {message.rewriting ? (
          <p role="status" className="font-sans text-sm italic text-muted-foreground">
            {STORY_STRINGS.rewriting}
          </p>
        ) : message.loopGuard === 'marked' && !streaming ? (
          <p className="font-sans text-xs text-muted-foreground">{STORY_STRINGS.loopMarked}</p>
        ) : null}
        {switcher || tools.length > 0 ? (
          <div className="-mx-2 -mb-1 flex flex-wrap items-center justify-between gap-1">
            {switcher ?? <span />}
            {tools.length > 0 ? <div className="ml-auto flex items-center gap-1">{tools}</div> : null}
          </div>
        ) : null}
      </article>
      {isUser ? null : menu}
    </div>
  );
});
