// A story's visual style sheet (art style, the player, the characters and a seed), which keeps its
// pictures alike: written once by the first job that needs it, edited by the owner, and grown by the
// characters later replies bring in without overwriting the owner's edits.
import { eq } from 'drizzle-orm';
import type { StyleCharacter, StyleSheet } from '@shared/schemas/images';
import type { Db } from '../../client';
import { storyVisuals } from '../../schema';

export interface VisualsRecord extends StyleSheet {
  seed: number;
  updatedAt: Date;
}

const visualsColumns = {
  artStyle: storyVisuals.artStyle,
  player: storyVisuals.player,
  characters: storyVisuals.characters,
  seed: storyVisuals.seed,
  updatedAt: storyVisuals.updatedAt,
};

export function styleSheets(db: Db) {
  async function findVisuals(storyId: number): Promise<VisualsRecord | null> {
    const [row] = await db.select(visualsColumns).from(storyVisuals).where(eq(storyVisuals.storyId, storyId));
    return row ?? null;
  }

  return {
    findVisuals,

    /** Writes the first style sheet unless one exists (two jobs may race to fill it): answers the one kept. */
    async createVisuals(storyId: number, sheet: StyleSheet, seed: number, now: Date): Promise<VisualsRecord> {
      await db
        .insert(storyVisuals)
        .values({ storyId, ...sheet, seed, updatedAt: now })
        .onConflictDoNothing();
      return (await findVisuals(storyId)) as VisualsRecord;
    },

    async saveVisuals(storyId: number, sheet: StyleSheet, now: Date): Promise<VisualsRecord | null> {
      const [row] = await db
        .update(storyVisuals)
        .set({ ...sheet, updatedAt: now })
        .where(eq(storyVisuals.storyId, storyId))
        .returning(visualsColumns);
      return row ?? null;
    },

    /** Adds characters not yet on the sheet (by name, case-insensitive), keeping any the owner edited. */
    async addCharacters(storyId: number, characters: StyleCharacter[], max: number, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ characters: storyVisuals.characters })
          .from(storyVisuals)
          .where(eq(storyVisuals.storyId, storyId))
          .for('update');
        if (!row) return;
        const known = new Set(row.characters.map((c) => c.name.toLowerCase()));
        const added = characters.filter((c) => !known.has(c.name.toLowerCase()));
        if (added.length === 0) return;
        await tx
          .update(storyVisuals)
          .set({ characters: [...row.characters, ...added].slice(0, max), updatedAt: now })
          .where(eq(storyVisuals.storyId, storyId));
      });
    },
  };
}
