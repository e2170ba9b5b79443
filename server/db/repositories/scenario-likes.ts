// Players' likes of scenarios, one each: given, taken back, and asked about. The count a scenario
// shows is kept by the database's trigger on these rows (migration 0038), a cascade included.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { scenarioLikes, scenarios } from '../schema';

export function createScenarioLikesRepository(db: Db) {
  return {
    /** Whether the player likes it. */
    async likedBy(id: string, userId: number): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(scenarioLikes)
        .where(and(eq(scenarioLikes.scenarioId, id), eq(scenarioLikes.userId, userId)));
      return row !== undefined;
    },

    /** Gives (or takes back) the player's one like, and answers the count after it. */
    async setLike(id: string, userId: number, liked: boolean, now: Date): Promise<number> {
      if (liked)
        await db.insert(scenarioLikes).values({ scenarioId: id, userId, createdAt: now }).onConflictDoNothing();
      else
        await db.delete(scenarioLikes).where(and(eq(scenarioLikes.scenarioId, id), eq(scenarioLikes.userId, userId)));
      const [row] = await db.select({ likes: scenarios.likes }).from(scenarios).where(eq(scenarios.id, id));
      return row?.likes ?? 0;
    },
  };
}
