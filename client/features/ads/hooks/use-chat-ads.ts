// Where in-chat ads go (the product's frequency rule, utils/frequency.ts): counts a new message
// appearing while the narrator is not writing, and each start of generation; when an ad is due it is
// placed after the latest message — or, if the narrator is writing, after the reply once it is
// complete, so an ad never covers or splits a reply while it streams. Placements live for this
// visit of the chat only (never stored, never sent anywhere); level and count reset whenever the
// chat opens. Answers the local ids of the messages an ad follows.
import { useEffect, useRef, useState } from 'react';
import { adSettingsStore, useAdSettings } from '../state/ad-settings';
import { countAdEvent, OPENED_COUNTER, type AdCounter } from '../utils/frequency';

export interface ChatAdsInput {
  /** The story's messages, in order: their local id and server id (absent while a reply streams). */
  messages: ReadonlyArray<{ id: string; messageId?: number }>;
  isGenerating: boolean;
  storyId: number | null;
  /** False when the server shows no ads: nothing is counted or placed. */
  enabled: boolean;
}

const NONE: ReadonlySet<string> = new Set();

/** A message is the same message across a reload when its server id is (local ids are made anew). */
function keyOf(message: { id: string; messageId?: number } | undefined): string | null {
  if (!message) return null;
  return message.messageId !== undefined ? `s${message.messageId}` : `l${message.id}`;
}

export function useChatAds({ messages, isGenerating, storyId, enabled }: ChatAdsInput): ReadonlySet<string> {
  const settings = useAdSettings();
  // Placements belong to the story they were made in: another story starts with none.
  const [placed, setPlaced] = useState<{ storyId: number | null; anchors: ReadonlySet<string> }>({
    storyId,
    anchors: NONE,
  });
  const last = messages[messages.length - 1];
  const lastKey = keyOf(last);
  const track = useRef<{
    counter: AdCounter;
    seenKey: string | null;
    wasGenerating: boolean;
    pending: boolean;
    openedMidReply: boolean;
  } | null>(null);

  // The chat opened (or another story is shown in it): level 1, count 0, no ads yet. A reply being
  // written as the chat opens was already under way, not new: it does not count when it lands, so
  // the count is the same whether the page caught the opening mid-stream or just after.
  useEffect(() => {
    track.current = {
      counter: OPENED_COUNTER,
      seenKey: lastKey,
      wasGenerating: isGenerating,
      pending: false,
      openedMidReply: isGenerating,
    };
    adSettingsStore.update({ currentFrequencyLevel: OPENED_COUNTER.currentFrequencyLevel });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the chat opens or changes story
  }, [storyId]);

  useEffect(() => {
    const t = track.current;
    if (!t || !enabled) return;
    const rules = { showInChat: settings.showInChat, messageFrequency: settings.messageFrequency };
    const count = () => {
      const next = countAdEvent(t.counter, rules);
      t.counter = next.counter;
      if (next.showAd) t.pending = true;
    };
    if (isGenerating && !t.wasGenerating) count();
    if (!isGenerating && lastKey !== null && lastKey !== t.seenKey) {
      if (!t.openedMidReply) count();
      t.seenKey = lastKey;
    }
    if (!isGenerating) t.openedMidReply = false;
    t.wasGenerating = isGenerating;
    adSettingsStore.update({ currentFrequencyLevel: t.counter.currentFrequencyLevel });
    if (t.pending && !isGenerating && last) {
      t.pending = false;
      const anchor = last.id;
      setPlaced((current) => {
        const anchors = current.storyId === storyId ? current.anchors : NONE;
        return anchors.has(anchor) ? current : { storyId, anchors: new Set([...anchors, anchor]) };
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- counts on a change of generation or of the latest message only
  }, [isGenerating, lastKey, enabled]);

  return enabled && settings.showInChat && placed.storyId === storyId ? placed.anchors : NONE;
}
