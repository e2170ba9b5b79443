// Scenarios as their author keeps them, and as anyone may read a published one. Writes are scoped
// by the author: another player's scenario reads as missing. A player's count is checked in the
// statement that adds one, so two at once cannot pass the limit together.
import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ScenarioOption } from '@shared/schemas/scenarios';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import type { Db } from '../client';
import { scenarios, users } from '../schema';

export interface ScenarioFields {
  title: string;
  description: string;
  premise: string;
  instructions: string;
  authorsNote: string;
  tags: string[];
  genre: string | null;
  contentRating: 'general' | 'teen' | 'mature';
  cards: StoryCardFields[];
  options: ScenarioOption[];
  replyLength: 'short' | 'medium' | 'long' | null;
  temperature: number | null;
  narrator: string | null;
}

export interface ScenarioRecord extends ScenarioFields {
  id: string;
  userId: number;
  authorName: string;
  visibility: 'draft' | 'unlisted' | 'public';
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: scenarios.id,
  userId: scenarios.userId,
  authorName: users.username,
  title: scenarios.title,
  description: scenarios.description,
  premise: scenarios.premise,
  instructions: scenarios.instructions,
  authorsNote: scenarios.authorsNote,
  tags: scenarios.tags,
  genre: scenarios.genre,
  contentRating: scenarios.contentRating,
  cards: scenarios.cards,
  options: scenarios.options,
  replyLength: scenarios.replyLength,
  temperature: scenarios.temperature,
  narrator: scenarios.narrator,
  visibility: scenarios.visibility,
  version: scenarios.version,
  createdAt: scenarios.createdAt,
  updatedAt: scenarios.updatedAt,
};

export function createScenariosRepository(db: Db) {
  const find = async (id: string): Promise<ScenarioRecord | null> => {
    const [row] = await db
      .select(columns)
      .from(scenarios)
      .innerJoin(users, eq(users.id, scenarios.userId))
      .where(eq(scenarios.id, id));
    return row ?? null;
  };

  const changed = async (
    id: string,
    userId: number,
    set: { [K in keyof typeof scenarios.$inferInsert]?: (typeof scenarios.$inferInsert)[K] | SQL },
  ): Promise<ScenarioRecord | null> => {
    const [row] = await db
      .update(scenarios)
      .set(set)
      .where(and(eq(scenarios.id, id), eq(scenarios.userId, userId)))
      .returning({ id: scenarios.id });
    return row ? find(row.id) : null;
  };

  return {
    find,

    /**
     * Adds a draft unless the author already keeps `max`: null then. The count and the insert are one
     * statement, the author's row locked, so two at once cannot both pass.
     */
    async create(
      input: ScenarioFields & { id: string; userId: number; now: Date; max: number },
    ): Promise<ScenarioRecord | null> {
      const inserted = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${users} where ${users.id} = ${input.userId} for update`);
        const [{ kept }] = await tx
          .select({ kept: sql<number>`count(*)::int` })
          .from(scenarios)
          .where(eq(scenarios.userId, input.userId));
        if (kept >= input.max) return false;
        const { now, max: _max, ...fields } = input;
        await tx.insert(scenarios).values({ ...fields, createdAt: now, updatedAt: now });
        return true;
      });
      return inserted ? find(input.id) : null;
    },

    /**
     * Public scenarios, newest published first: those matching `words` (PostgreSQL's English
     * full-text search, on both databases), the genre and the tag (as written), of the ratings
     * given; at most `limit`, after the `after` one. Keyset paged (no OFFSET): a deep page costs what
     * the first does.
     */
    async discover(filter: {
      words?: string;
      genre?: string;
      tag?: string;
      ratings: readonly ScenarioFields['contentRating'][];
      after?: { publishedAt: Date; id: string };
      limit: number;
    }): Promise<(ScenarioRecord & { publishedAt: Date })[]> {
      const where: SQL[] = [eq(scenarios.visibility, 'public'), inArray(scenarios.contentRating, [...filter.ratings])];
      if (filter.words) where.push(sql`${scenarios.search} @@ websearch_to_tsquery('english', ${filter.words})`);
      if (filter.genre) where.push(eq(scenarios.genre, filter.genre));
      if (filter.tag) where.push(sql`${scenarios.tags} @> ${JSON.stringify([filter.tag])}::jsonb`);
      if (filter.after) {
        const { publishedAt, id } = filter.after;
        where.push(
          or(
            lt(scenarios.publishedAt, publishedAt),
            and(eq(scenarios.publishedAt, publishedAt), lt(scenarios.id, id)),
          )!,
        );
      }
      const rows = await db
        .select({ ...columns, publishedAt: scenarios.publishedAt })
        .from(scenarios)
        .innerJoin(users, eq(users.id, scenarios.userId))
        .where(and(...where))
        .orderBy(desc(scenarios.publishedAt), desc(scenarios.id))
        .limit(filter.limit);
      // A public scenario was published: its time is set.
      return rows as (ScenarioRecord & { publishedAt: Date })[];
    },

    /** The author's, newest change first. */
    async listForAuthor(userId: number): Promise<ScenarioRecord[]> {
      return db
        .select(columns)
        .from(scenarios)
        .innerJoin(users, eq(users.id, scenarios.userId))
        .where(eq(scenarios.userId, userId))
        .orderBy(desc(scenarios.updatedAt), desc(scenarios.id));
    },

    /** Changes the author's scenario; an edit of a published one is its next version. Null when it is not theirs. */
    async update(
      id: string,
      userId: number,
      changes: Partial<ScenarioFields>,
      now: Date,
    ): Promise<ScenarioRecord | null> {
      return changed(id, userId, {
        ...changes,
        updatedAt: now,
        version: sql`case when ${scenarios.visibility} <> 'draft' then ${scenarios.version} + 1 else ${scenarios.version} end`,
      });
    },

    /** Publishes (or moves between public and unlisted) the author's scenario: its next version. */
    async publish(
      id: string,
      userId: number,
      visibility: 'public' | 'unlisted',
      now: Date,
    ): Promise<ScenarioRecord | null> {
      return changed(id, userId, {
        visibility,
        version: sql`${scenarios.version} + 1`,
        updatedAt: now,
        publishedAt: now,
      });
    },

    /** Back to a draft only its author sees; the version stays. */
    async unpublish(id: string, userId: number, now: Date): Promise<ScenarioRecord | null> {
      return changed(id, userId, { visibility: 'draft', updatedAt: now });
    },

    async delete(id: string, userId: number): Promise<boolean> {
      const rows = await db
        .delete(scenarios)
        .where(and(eq(scenarios.id, id), eq(scenarios.userId, userId)))
        .returning({ id: scenarios.id });
      return rows.length > 0;
    },
  };
}
export type ScenariosRepository = ReturnType<typeof createScenariosRepository>;
