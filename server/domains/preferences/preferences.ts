// Story preferences: read (defaults when unset) and change. The narrator reads them through the
// PreferencesSource interface on every turn, so a change reaches the system prompt on the player's
// next turn; tests may inject another source. The preferences also name the narrator new stories
// start with: answered as the one chosen while the player may still pick it, else the default.
import type { Repositories } from '@server/db/repositories';
import type { StoredPreferences } from '@server/db/repositories/preferences';
import type { NarratorService } from '../narrators/narrators';
import {
  DEFAULT_PREFERENCES,
  type Preferences,
  type PreferencesResponse,
  type PreferencesUpdateBody,
} from '@shared/schemas/preferences';

export interface PreferencesSource {
  get(userId: number): Promise<Preferences>;
}

export const defaultPreferences: PreferencesSource = {
  get: async () => DEFAULT_PREFERENCES,
};

export function createPreferencesService({
  repos,
  narrators,
  now,
}: {
  repos: Pick<Repositories, 'preferences'>;
  narrators: Pick<NarratorService, 'defaultNarrator' | 'preferred' | 'choose'>;
  now: () => Date;
}) {
  async function answer(userId: number, stored: StoredPreferences | null): Promise<PreferencesResponse> {
    const { narrator, ...preferences } = stored ?? { ...DEFAULT_PREFERENCES, narrator: null };
    const preferred = await narrators.preferred(narrator, userId);
    return { ...preferences, narrator: (preferred ?? narrators.defaultNarrator).id };
  }

  return {
    async get(userId: number): Promise<Preferences> {
      return (await repos.preferences.find(userId)) ?? DEFAULT_PREFERENCES;
    },

    /** What GET /api/preferences answers a player: the set, with the narrator of their new stories. */
    async read(userId: number): Promise<PreferencesResponse> {
      return answer(userId, await repos.preferences.find(userId));
    },

    /** ...and a visitor: the defaults. */
    visitor(): PreferencesResponse {
      return { ...DEFAULT_PREFERENCES, narrator: narrators.defaultNarrator.id };
    },

    /** Saves the fields given; a narrator the player may not pick is a 400 naming those they may. */
    async update(userId: number, changes: PreferencesUpdateBody): Promise<PreferencesResponse> {
      if (changes.narrator !== undefined) await narrators.choose(changes.narrator, userId);
      return answer(userId, await repos.preferences.upsert(userId, changes, now()));
    },
  };
}
export type PreferencesService = ReturnType<typeof createPreferencesService>;
