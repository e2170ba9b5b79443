// The story page's side of narration: it tells the narrator which story is on screen as it changes
// (so new replies are read while narration is on), keeps the server's voices in the narrator's
// store, and stops speech when the page goes away (unmount; 'pagehide' is the narrator's own).
import { useEffect } from 'react';
import { useFeatures } from '@client/lib/features';
import { narrator as defaultNarrator, type NarrationStory, type Narrator } from '../state/narrator';

const NO_VOICES: readonly string[] = [];

/** Keeps the narrator's list of server voices equal to GET /api/features' (empty when it has none). */
export function useServerVoices(narrator: Narrator = defaultNarrator): void {
  const voices = useFeatures().data?.speech.voices ?? NO_VOICES;
  useEffect(() => narrator.setServerVoices(voices), [narrator, voices]);
}

export function useNarration(story: NarrationStory, narrator: Narrator = defaultNarrator): void {
  const { storyId, messages, streamingId } = story;
  useServerVoices(narrator);
  // Declared before the update effect: attach runs first, so the first update is the baseline.
  useEffect(() => narrator.attach(), [narrator]);
  useEffect(() => narrator.update({ storyId, messages, streamingId }), [narrator, storyId, messages, streamingId]);
}
