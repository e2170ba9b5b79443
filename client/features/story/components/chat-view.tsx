// The chat: a windowed list (only the bubbles near the viewport are in the DOM, so a 1,000-turn story
// opens and scrolls like a short one), with the scroll rules. The page itself
// scrolls (the window), so the top bar can hide on scroll as everywhere else. Scene pictures sit in
// fixed 16:9 boxes, so their rows measure the same before and after the picture arrives; anything
// above the list that changes height (the header picture) moves the list's offset, re-read here.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { SCROLL_NEAR_BOTTOM_PX } from '@shared/constants';
import type { ChatDisplayMessage } from '../utils/chat-display';
import { STORY_STRINGS } from '../strings';
import type { VersionsChatProps } from '@client/features/story-versions';
import { ChatMessage } from './chat-message';

export interface ChatViewProps {
  messages: ChatDisplayMessage[];
  streamingId: string | null;
  /** Local id of the reply that 'Try again' rewrites, when it may. */
  regenerableId: string | null;
  onRegenerate: (id: string) => void;
  /** Server id of a bookmarked message to scroll to and highlight (the page clears it after 2 s). */
  focusMessageId: number | null;
  /** A bookmark is being opened: do not jump to the end first. */
  expectFocus: boolean;
  /** Space kept free under the list for the fixed input bar. */
  bottomInset: number;
  /** Asking for pictures ('Illustrate this scene', Retry of a failed one); absent while pictures are off. */
  pictures?: ChatPictureActions;
  /** Local ids of the messages an ad follows (the ads feature decides), and the ad to draw there. */
  adAfter?: ReadonlySet<string>;
  ad?: ReactNode;
  /** The owner's control over each message (menu, versions, editing); absent: none. */
  versions?: VersionsChatProps;
  /** Opens 'What the narrator saw' for a reply of the owner's story (given with versions only). */
  onShowContext?: (messageId: number, version: number | undefined, trigger: HTMLElement | null) => void;
}

export interface ChatPictureActions {
  /** Server ids of the messages whose picture is being asked for. */
  busyIds: ReadonlySet<number>;
  onIllustrate: (messageId: number) => void;
  onRetry: (messageId: number) => void;
}

const NAV_HEIGHT = 64;

/**
 * A bubble's likely height from its text (about 70 characters a line at 28 px, plus padding), so
 * bubbles measured while scrolling up rarely move the ones on screen.
 */
export function estimateBubbleHeight(message: ChatDisplayMessage): number {
  if (message.role === 'image') return 340;
  const lines = message.content
    .split(/\n\s*\n/)
    .reduce((sum, paragraph) => sum + Math.max(1, Math.ceil(paragraph.length / 70)), 0);
  return 16 + 24 + lines * 28 + (message.role === 'assistant' ? 40 : 0);
}

function distanceFromBottom(): number {
  const doc = document.documentElement;
  return doc.scrollHeight - (window.scrollY + window.innerHeight);
}

/** Display rows an ad follows: the last entry of each anchor message (after its picture, if it has one). */
function adRowsOf(messages: ChatDisplayMessage[], adAfter: ReadonlySet<string> | undefined): ReadonlySet<number> {
  if (!adAfter || adAfter.size === 0) return new Set();
  const rows = new Map<string, number>();
  messages.forEach((m, index) => {
    if (adAfter.has(m.localId)) rows.set(m.localId, index);
  });
  return new Set(rows.values());
}

export function ChatView({
  messages,
  streamingId,
  regenerableId,
  onRegenerate,
  focusMessageId,
  expectFocus,
  bottomInset,
  pictures,
  adAfter,
  ad,
  versions,
  onShowContext,
}: ChatViewProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const nearBottom = useRef(true);
  const seen = useRef<{ count: number; lastId: string | null; opened: boolean }>({
    count: 0,
    lastId: null,
    opened: false,
  });

  // The browser's scroll anchoring is off while the chat is on the page: the virtualizer places its
  // rows and keeps the view steady itself. With it on, Chrome also moved the page by a row's height
  // when the first rendered row came or went, which could flip a long story between two scroll
  // positions every frame, for good (the reply's buttons never held still to be clicked). Off for
  // the list alone is not enough: anchoring then held on to what follows it and scrolled a streaming
  // reply past its first line.
  useLayoutEffect(() => {
    const root = document.documentElement;
    const before = root.style.overflowAnchor;
    root.style.overflowAnchor = 'none';
    return () => {
      root.style.overflowAnchor = before;
    };
  }, []);

  // The list's offset in the page is the virtualizer's scroll margin; the header picture (or
  // anything else above) appearing later moves it, and every row's position with it.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => setScrollMargin(list.offsetTop);
    measure();
    const container = list.parentElement;
    if (!container || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(container);
    return () => observer.disconnect();
  }, []);

  // Stable callbacks: the virtualizer recomputes every item's position whenever they change.
  // Estimates are cached per message and length: a streamed word must not re-estimate 2,000 bubbles.
  const estimates = useRef(new Map<string, { length: number; height: number }>());
  const estimateSize = useCallback(
    (index: number) => {
      const message = messages[index];
      const cached = estimates.current.get(message.id);
      if (cached && cached.length === message.content.length) return cached.height;
      const height = estimateBubbleHeight(message);
      estimates.current.set(message.id, { length: message.content.length, height });
      return height;
    },
    [messages],
  );
  const getItemKey = useCallback((index: number) => messages[index].id, [messages]);
  const virtualizer = useWindowVirtualizer({
    count: messages.length,
    estimateSize,
    overscan: 6,
    scrollMargin,
    scrollPaddingStart: NAV_HEIGHT,
    scrollPaddingEnd: bottomInset,
    getItemKey,
  });

  // Whether the reader was at the bottom before the content changed decides if we follow it.
  useEffect(() => {
    const update = () => {
      nearBottom.current = distanceFromBottom() <= SCROLL_NEAR_BOTTOM_PX;
    };
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  const last = messages[messages.length - 1];
  const lastLength = last?.content.length ?? 0;
  useEffect(() => {
    if (!last) return;
    const state = seen.current;
    const lastIndex = messages.length - 1;
    if (!state.opened && !expectFocus) {
      // A story just opened: start at its end.
      state.opened = true;
      virtualizer.scrollToIndex(lastIndex, { align: 'end' });
    } else if (last.id !== state.lastId) {
      if (last.picture && messages[lastIndex - 1]?.id !== state.lastId) {
        // A whole reply arrived at once with its picture: the reply is what is scrolled to.
        virtualizer.scrollToIndex(lastIndex - 1, { align: 'start', behavior: 'smooth' });
      } else if (last.picture) {
        // A reply's picture (or its placeholder) arrives under the reply: brought into view for a
        // reader at the bottom only when the whole reply stays on screen with it, never pushing
        // the text being read out of view.
        const reply = virtualizer.measurementsCache[lastIndex - 1];
        const picture = virtualizer.measurementsCache[lastIndex];
        const viewport = window.innerHeight - NAV_HEIGHT - bottomInset;
        if (nearBottom.current && reply && picture && reply.size + picture.size <= viewport)
          virtualizer.scrollToIndex(lastIndex, { align: 'end' });
      }
      // Narrator messages are scrolled to smoothly; the player's own only if the reader was at the bottom.
      else if (last.role === 'assistant')
        virtualizer.scrollToIndex(lastIndex, {
          align: 'start',
          behavior: last.localId === streamingId ? 'auto' : 'smooth',
        });
      else if (nearBottom.current) virtualizer.scrollToIndex(lastIndex, { align: 'end' });
    } else if (last.localId === streamingId && nearBottom.current) {
      // While the reply is written, follow it until its first line reaches the top of the view.
      const item = virtualizer.measurementsCache[lastIndex];
      const viewport = window.innerHeight - NAV_HEIGHT - bottomInset;
      if (!item || item.size < viewport) virtualizer.scrollToIndex(lastIndex, { align: 'end' });
    }
    state.count = messages.length;
    state.lastId = last.id;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on a new last message or its growth only
  }, [messages.length, last?.id, lastLength]);

  // A bookmarked message: bring it into view (the page highlights it for 2 s).
  useEffect(() => {
    if (focusMessageId === null || messages.length === 0) return;
    seen.current.opened = true;
    const index = messages.findIndex((m) => m.messageId === focusMessageId && m.role !== 'image' && !m.picture);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per requested message
  }, [focusMessageId, messages.length > 0]);

  const adRows = useMemo(() => adRowsOf(messages, adAfter), [messages, adAfter]);
  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={listRef}
      role="log"
      aria-label={STORY_STRINGS.chatLabel}
      aria-live="off"
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
    >
      <div
        className="absolute top-0 left-0 w-full"
        style={{ transform: `translateY(${(items[0]?.start ?? 0) - virtualizer.options.scrollMargin}px)` }}
      >
        {items.map((item) => {
          const message = messages[item.index];
          const isText = message.role !== 'image' && !message.picture;
          const isReply =
            isText &&
            message.role === 'assistant' &&
            !message.isNotice &&
            message.messageId !== undefined &&
            message.localId !== streamingId;
          const ownMessage = versions !== undefined && isText && !message.isNotice && message.localId !== streamingId;
          const editing = ownMessage && versions.editing?.localId === message.localId ? versions.editing : undefined;
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="py-2">
              <ChatMessage
                message={message}
                highlighted={isText && message.messageId !== undefined && message.messageId === focusMessageId}
                streaming={isText && message.localId === streamingId}
                onRegenerate={
                  isText && message.localId === regenerableId ? () => onRegenerate(message.localId) : undefined
                }
                onIllustrate={pictures && isReply && !message.hasPicture ? pictures.onIllustrate : undefined}
                onPictureRetry={pictures && message.picture ? pictures.onRetry : undefined}
                pictureBusy={message.messageId !== undefined && (pictures?.busyIds.has(message.messageId) ?? false)}
                controls={ownMessage ? versions.controls : undefined}
                showMenu={ownMessage && !versions.locked}
                canErase={ownMessage && !versions.openingIds.has(message.localId)}
                versionsLocked={versions?.locked}
                editor={editing}
                onShowContext={versions && isReply ? onShowContext : undefined}
              />
              {ad && adRows.has(item.index) ? <div className="pt-4">{ad}</div> : null}
            </div>
          );
        })}
      </div>
    </div>
  );
}
