// Where in-chat ads land as a story is played: counted per the product's rule (a new message while not
// generating, each start of generation), never placed while a reply streams, reset when the chat
// opens, hidden when in-chat ads are switched off.
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adSettingsStore } from '../state/ad-settings';
import { useChatAds, type ChatAdsInput } from './use-chat-ads';

type Message = { id: string; messageId?: number };

/** A story played turn by turn through the hook, as the story page would render it. */
function playStory(initial: Message[], storyId = 1) {
  let props: ChatAdsInput = { messages: initial, isGenerating: false, storyId, enabled: true };
  const hook = renderHook((p: ChatAdsInput) => useChatAds(p), { initialProps: props });
  let serverId = 100;
  const set = (change: Partial<ChatAdsInput>) => {
    props = { ...props, ...change };
    hook.rerender(props);
  };
  return {
    hook,
    set,
    /** The player sends an action; the reply streams in pieces, then is saved. Answers the ad anchors seen while streaming. */
    turn(n: number) {
      const seenWhileStreaming: string[] = [];
      set({ messages: [...props.messages, { id: `u${n}` }], isGenerating: true });
      seenWhileStreaming.push(...hook.result.current);
      set({ messages: [...props.messages, { id: `a${n}` }] });
      seenWhileStreaming.push(...hook.result.current);
      serverId += 2;
      set({
        messages: props.messages.map((m) => (m.id === `a${n}` ? { ...m, messageId: serverId } : m)),
        isGenerating: false,
      });
      return seenWhileStreaming;
    },
    anchors: () => [...hook.result.current],
  };
}

beforeEach(() => {
  localStorage.clear();
  adSettingsStore.reload();
});

describe('useChatAds', () => {
  it('places ads after replies at the spec’s counts (frequency 10: events 1, 3, 6, 10 …) and never while a reply streams', () => {
    adSettingsStore.update({ messageFrequency: 10 });
    const story = playStory([{ id: 'opening', messageId: 1 }]);
    const during: string[] = [];
    for (let n = 1; n <= 5; n += 1) during.push(...story.turn(n).filter((id) => id === `a${n}`));
    // Each turn counts 2 events (generation starts, the reply appears): ads are due at events 1,
    // 3, 6 and 10, i.e. in turns 1, 2, 3 and 5, each shown after that turn's reply.
    expect(story.anchors()).toEqual(['a1', 'a2', 'a3', 'a5']);
    expect(during).toEqual([]);
    expect(adSettingsStore.get().currentFrequencyLevel).toBe(5);
  });

  it('settles at the player’s frequency (default 3)', () => {
    const story = playStory([{ id: 'opening', messageId: 1 }]);
    for (let n = 1; n <= 6; n += 1) story.turn(n);
    // Events 1, 3, 6, 9, 12 → turns 1, 2, 3, 5, 6.
    expect(story.anchors()).toEqual(['a1', 'a2', 'a3', 'a5', 'a6']);
    expect(adSettingsStore.get().currentFrequencyLevel).toBe(3);
  });

  it('resets level and count when the chat opens on another story, and drops the earlier placements', () => {
    const story = playStory([{ id: 'opening', messageId: 1 }]);
    story.turn(1);
    story.turn(2);
    expect(adSettingsStore.get().currentFrequencyLevel).toBe(3);
    story.set({ storyId: 2, messages: [{ id: 'other', messageId: 50 }] });
    expect(story.anchors()).toEqual([]);
    expect(adSettingsStore.get().currentFrequencyLevel).toBe(1);
    story.turn(3);
    expect(story.anchors()).toEqual(['a3']);
  });

  it('shows nothing while in-chat ads are off, and nothing when the server shows no ads', () => {
    adSettingsStore.update({ showInChat: false });
    const story = playStory([{ id: 'opening', messageId: 1 }]);
    story.turn(1);
    story.turn(2);
    expect(story.anchors()).toEqual([]);
    act(() => adSettingsStore.update({ showInChat: true }));
    story.set({ enabled: false });
    story.turn(3);
    expect(story.anchors()).toEqual([]);
  });

  it('hides ads already placed when the player switches in-chat ads off', () => {
    const story = playStory([{ id: 'opening', messageId: 1 }]);
    story.turn(1);
    expect(story.anchors()).toEqual(['a1']);
    act(() => adSettingsStore.update({ showInChat: false }));
    expect(story.anchors()).toEqual([]);
  });

  it('does not count a reply that was already being written when the chat opened (a story’s opening)', () => {
    const story = playStory([{ id: 'premise' }, { id: 'opening' }]);
    story.set({ isGenerating: true });
    story.set({ storyId: 9 });
    story.set({
      messages: [
        { id: 'premise', messageId: 1 },
        { id: 'opening', messageId: 2 },
      ],
      isGenerating: false,
    });
    expect(story.anchors()).toEqual([]);
    // The first turn is the first counted event: due as it starts, shown once its reply is written.
    expect(story.turn(1)).toEqual([]);
    expect(story.anchors()).toEqual(['a1']);
  });

  it('does not count a reload of the same story (same server ids, new local ids)', () => {
    adSettingsStore.update({ messageFrequency: 10 });
    const story = playStory([{ id: 'opening', messageId: 1 }]);
    story.turn(1);
    expect(story.anchors()).toEqual(['a1']);
    story.set({ messages: [{ id: 'x1', messageId: 1 }, { id: 'x2' }, { id: 'x3', messageId: 102 }] });
    story.turn(2);
    // Level 2 after the first ad: the reload counted nothing, so turn 2's two events make the second ad.
    expect(story.anchors()).toEqual(['a1', 'a2']);
  });
});
