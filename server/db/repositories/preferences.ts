// Story preferences, one row per user; a missing row means the defaults. An update writes only the
// fields given (an upsert), so two tabs changing different fields do not overwrite each other. The
// row keeps the narrator new stories start with as the player chose it (null: the default).
import { eq } from 'drizzle-orm';
import type { Preferences } from '@shared/schemas/preferences';
import type { Db } from '../client';
import { userPreferences } from '../schema';

const columns = {
  contentRating: userPreferences.contentRating,
  narrativeStyle: userPreferences.narrativeStyle,
  languageStyle: userPreferences.languageStyle,
  imageGeneration: userPreferences.imageGeneration,
  narrator: userPreferences.narrator,
};

/** The preferences as stored: the narrator as chosen, which may have left the catalogue since. */
export type StoredPreferences = Preferences & { narrator: string | null };

export function createPreferencesRepository(db: Db) {
  return {
    async find(userId: number): Promise<StoredPreferences | null> {
      const [row] = await db.select(columns).from(userPreferences).where(eq(userPreferences.userId, userId));
      return row ?? null;
    },

    async upsert(userId: number, changes: Partial<StoredPreferences>, now: Date): Promise<StoredPreferences> {
      const [row] = await db
        .insert(userPreferences)
        .values({ userId, ...changes, updatedAt: now })
        .onConflictDoUpdate({ target: userPreferences.userId, set: { ...changes, updatedAt: now } })
        .returning(columns);
      return row;
    },
  };
}
export type PreferencesRepository = ReturnType<typeof createPreferencesRepository>;
