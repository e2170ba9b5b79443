// One chat bubble: the player's on the right, the narrator's on the left (spec section 2), or a
// narrator reply's scene picture (the images feature draws it). Text is rendered as text, never as
// HTML, so a story that mentions <script> shows it literally. Memoised: while a reply streams only
// its own bubble re-renders (the picture callbacks are stable).
import { memo } from 'react';
import { RotateCcw } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { IllustrateButton } from '@client/features/images/components/illustrate-button';
import { ScenePictureEntry } from '@client/features/images/components/scene-picture-entry';
import { STORY_STRINGS } from '../strings';
import type { ChatDisplayMessage } from '../utils/chat-display';

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
}

/** The writing cursor at the end of a reply that is still streaming. */
const caret = <span className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse bg-gold motion-reduce:animate-none" aria-hidden="true" />;

function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
}

export const ChatMessage = memo(function ChatMessage({ message, highlighted, streaming, onRegenerate, onIllustrate, onPictureRetry, pictureBusy = false }: ChatMessageProps) {
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
        {message.image ? <img src={message.image} alt={message.content} className="aspect-video w-full object-cover" loading="lazy" /> : <figcaption className="p-3 text-sm text-muted-foreground">{message.content}</figcaption>}
      </figure>
    );
  }
  return (
    <div className={cn('flex', isUser ? 'justify-end' : 'justify-start')}>
      <article
        aria-label={isUser ? STORY_STRINGS.you : STORY_STRINGS.narrator}
        data-message-id={message.messageId}
        data-streaming={streaming || undefined}
        data-highlighted={highlighted || undefined}
        className={cn(
          'grid max-w-[85%] gap-2 rounded-2xl px-4 py-3 shadow-sm transition-shadow duration-500 sm:max-w-[75%]',
          isUser ? 'rounded-br-sm bg-primary text-primary-foreground' : 'rounded-bl-sm border bg-card/90 font-serif text-[1.05rem] leading-relaxed',
          message.isNotice && 'border-dashed bg-muted/40 font-sans text-sm italic',
          highlighted && 'ring-4 ring-gold ring-offset-2 ring-offset-background',
        )}
      >
        {paragraphs(message.content).map((p, i, all) => (
          <p key={i} className="break-words whitespace-pre-wrap">
            {p}
            {streaming && i === all.length - 1 ? caret : null}
          </p>
        ))}
        {streaming && message.content.trim() === '' ? caret : null}
        {onRegenerate || (onIllustrate && messageId !== undefined) ? (
          <div className="-mb-1 flex items-center justify-end gap-1">
            {onIllustrate && messageId !== undefined ? <IllustrateButton onClick={() => onIllustrate(messageId)} busy={pictureBusy} /> : null}
            {onRegenerate ? (
              <Button variant="ghost" size="sm" onClick={onRegenerate} title={STORY_STRINGS.regenerateLabel} className="h-8 font-sans text-muted-foreground">
                <RotateCcw aria-hidden="true" />
                {STORY_STRINGS.tryAgain}
              </Button>
            ) : null}
          </div>
        ) : null}
      </article>
    </div>
  );
});
