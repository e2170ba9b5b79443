// A story's generation settings as its player reads and changes them: the narrator that writes it
// (the one it names, or the default when that one went away), its reply length and temperature, with
// the defaults and temperature cap of that narrator. They count from the next turn.
import type { Repositories } from '@server/db/repositories';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { StorySettings, StorySettingsBody } from '@shared/schemas/story-settings';
import type { NarratorService } from '../narrators/narrators';
import { notFound } from './errors';
import { generationDefaults, settingsAnswer } from './generation-settings';

export interface StorySettingsDeps {
  repos: Pick<Repositories, 'stories'>;
  /** The narrator that writes each story, whose defaults its settings show; and a player's choice checked. */
  narrators: Pick<NarratorService, 'ofStory' | 'choose' | 'provider'>;
}

/** `owned` finds the player's story or throws its 404. */
export function storySettings(
  deps: StorySettingsDeps,
  owned: (userId: number, storyId: number) => Promise<StoryRecord>,
) {
  /** The settings' answer, with the defaults of the narrator that writes the story. */
  async function settingsOf(story: StoryRecord): Promise<StorySettings> {
    const { narrator, fellBack } = await deps.narrators.ofStory(story);
    const defaults = generationDefaults(narrator.llm, deps.narrators.provider(narrator).id);
    return settingsAnswer(story, defaults, { id: narrator.id, fellBack });
  }

  return {
    /** The story's generation settings: its narrator, reply length and temperature. */
    async settings(userId: number, storyId: number): Promise<StorySettings> {
      return settingsOf(await owned(userId, storyId));
    },

    /**
     * Changes the settings given; they count from the next turn (a reply being written keeps its own).
     * A narrator the player may not pick is a 400 naming those they may.
     */
    async saveSettings(userId: number, storyId: number, body: StorySettingsBody): Promise<StorySettings> {
      if (body.narrator !== undefined) await deps.narrators.choose(body.narrator, userId);
      const saved = await deps.repos.stories.updateSettings({ storyId, userId, ...body });
      if (!saved) throw notFound();
      return settingsOf(saved);
    },
  };
}
