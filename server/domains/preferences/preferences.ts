// Story preferences: read (defaults when unset) and change. The narrator reads
// them through the PreferencesSource interface on every turn, so a change reaches the system prompt
// on the player's next turn; tests may inject another source.
import type { Repositories } from '@server/db/repositories';
import { DEFAULT_PREFERENCES, type Preferences } from '@shared/schemas/preferences';

export interface PreferencesSource {
  get(userId: number): Promise<Preferences>;
}

export const defaultPreferences: PreferencesSource = {
  get: async () => DEFAULT_PREFERENCES,
};

export function createPreferencesService({
  repos,
  now,
}: {
  repos: Pick<Repositories, 'preferences'>;
  now: () => Date;
}) {
  return {
    async get(userId: number): Promise<Preferences> {
      return (await repos.preferences.find(userId)) ?? DEFAULT_PREFERENCES;
    },

    async update(userId: number, changes: Partial<Preferences>): Promise<Preferences> {
      return repos.preferences.upsert(userId, changes, now());
    },
  };
}
export type PreferencesService = ReturnType<typeof createPreferencesService>;
