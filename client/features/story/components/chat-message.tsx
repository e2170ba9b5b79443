// One chat bubble: the player's on the right, the narrator's on the left (spec section 2). Text is
// rendered as text, never as HTML, so a story that mentions <script> shows it literally. Memoised:
// while a reply streams only its own bubble re-renders.
import { memo } from 'react';
import { RotateCcw } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { STORY_STRINGS } from '../strings';
import type { ChatDisplayMessage } from '../utils/chat-display';

export interface ChatMessageProps {
  message: ChatDisplayMessage;
  highlighted: boolean;
  streaming: boolean;
  /** Set on the latest narrator reply when it can be written again. */
  onRegenerate?: () => void;
}

/** The writing cursor at the end of a reply that is still streaming. */
const caret = <span className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse bg-gold motion-reduce:animate-none" aria-hidden="true" />;

function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
}

export const ChatMessage = memo(function ChatMessage({ message, highlighted, streaming, onRegenerate }: ChatMessageProps) {
  const isUser = message.role === 'user';
  if (message.role === 'image') {
    return (
      <figure className="mx-auto max-w-xl overflow-hidden rounded-xl border">
        <img src={message.image} alt={message.content} className="aspect-video w-full object-cover" loading="lazy" />
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
        {onRegenerate ? (
          <div className="-mb-1 flex justify-end">
            <Button variant="ghost" size="sm" onClick={onRegenerate} title={STORY_STRINGS.regenerateLabel} className="h-8 font-sans text-muted-foreground">
              <RotateCcw aria-hidden="true" />
              {STORY_STRINGS.tryAgain}
            </Button>
          </div>
        ) : null}
      </article>
    </div>
  );
});
