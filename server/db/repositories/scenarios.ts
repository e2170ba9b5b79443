// Scenarios as their author keeps them, and as anyone may read a published one. Writes are scoped
// by the author: another player's scenario reads as missing. A player's count is checked in the
// statement that adds one, so two at once cannot pass the limit together.
import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ScenarioOption } from '@shared/schemas/scenarios';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { alias } from 'drizzle-orm/pg-core';
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

/** The scenario a remix came from, as it was when remixed. */
export interface RemixOf {
  id: string;
  title: string;
  author: string;
}

export interface ScenarioRecord extends ScenarioFields {
  id: string;
  userId: number;
  authorName: string;
  remixOf: RemixOf | null;
  /** The original of a remix is deleted. */
  originalGone: boolean;
  visibility: 'draft' | 'unlisted' | 'public';
  version: number;
  likes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The original of a remix, looked up to tell whether it is still there. */
const original = alias(scenarios, 'original');

const columns = {
  id: scenarios.id,
  remixOfId: scenarios.remixOfId,
  remixOfTitle: scenarios.remixOfTitle,
  remixOfAuthor: scenarios.remixOfAuthor,
  originalId: original.id,
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
  likes: scenarios.likes,
  createdAt: scenarios.createdAt,
  updatedAt: scenarios.updatedAt,
};

/** A row as a record: the remix's original named, and whether it is gone. */
function toRecord<
  T extends {
    remixOfId: string | null;
    remixOfTitle: string | null;
    remixOfAuthor: string | null;
    originalId: string | null;
  },
>(
  row: T,
): Omit<T, 'remixOfId' | 'remixOfTitle' | 'remixOfAuthor' | 'originalId'> &
  Pick<ScenarioRecord, 'remixOf' | 'originalGone'> {
  const { remixOfId, remixOfTitle, remixOfAuthor, originalId, ...rest } = row;
  return {
    ...rest,
    remixOf: remixOfId ? { id: remixOfId, title: remixOfTitle ?? '', author: remixOfAuthor ?? '' } : null,
    originalGone: remixOfId !== null && originalId === null,
  };
}

export function createScenariosRepository(db: Db) {
  const selectFrom = () =>
    db
      .select({ ...columns, publishedAt: scenarios.publishedAt })
      .from(scenarios)
      .innerJoin(users, eq(users.id, scenarios.userId))
      .leftJoin(original, eq(original.id, scenarios.remixOfId));

  const find = async (id: string): Promise<ScenarioRecord | null> => {
    const [row] = await selectFrom().where(eq(scenarios.id, id));
    return row ? toRecord(row) : null;
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
      input: ScenarioFields & { id: string; userId: number; now: Date; max: number; remixOf?: RemixOf | null },
    ): Promise<ScenarioRecord | null> {
      const inserted = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${users} where ${users.id} = ${input.userId} for update`);
        const [{ kept }] = await tx
          .select({ kept: sql<number>`count(*)::int` })
          .from(scenarios)
          .where(eq(scenarios.userId, input.userId));
        if (kept >= input.max) return false;
        const { now, max: _max, remixOf, ...fields } = input;
        await tx.insert(scenarios).values({
          ...fields,
          remixOfId: remixOf?.id ?? null,
          remixOfTitle: remixOf?.title ?? null,
          remixOfAuthor: remixOf?.author ?? null,
          createdAt: now,
          updatedAt: now,
        });
        return true;
      });
      return inserted ? find(input.id) : null;
    },

    /**
     * Public scenarios, newest published first or most liked: those matching `words` (PostgreSQL's English
     * full-text search, on both databases), the genre and the tag (as written), of the ratings
     * given; at most `limit`, after the `after` one. Keyset paged (no OFFSET): a deep page costs what
     * the first does.
     */
    async discover(filter: {
      words?: string;
      genre?: string;
      tag?: string;
      ratings: readonly ScenarioFields['contentRating'][];
      /** Newest published first, or most liked; the same instant or count goes by id. */
      sort: 'new' | 'likes';
      /** The last one of the page before: its publication time (new) or likes (likes), and id. */
      after?: { value: Date | number; id: string };
      limit: number;
    }): Promise<(ScenarioRecord & { publishedAt: Date })[]> {
      const where: SQL[] = [eq(scenarios.visibility, 'public'), inArray(scenarios.contentRating, [...filter.ratings])];
      if (filter.words) where.push(sql`${scenarios.search} @@ websearch_to_tsquery('english', ${filter.words})`);
      if (filter.genre) where.push(eq(scenarios.genre, filter.genre));
      if (filter.tag) where.push(sql`${scenarios.tags} @> ${JSON.stringify([filter.tag])}::jsonb`);
      const key = filter.sort === 'likes' ? scenarios.likes : scenarios.publishedAt;
      if (filter.after) {
        const { value, id } = filter.after;
        where.push(or(lt(key, value), and(eq(key, value), lt(scenarios.id, id)))!);
      }
      const rows = await selectFrom()
        .where(and(...where))
        .orderBy(desc(key), desc(scenarios.id))
        .limit(filter.limit);
      // A public scenario was published: its time is set.
      return rows.map((row) => ({ ...toRecord(row), publishedAt: row.publishedAt as Date }));
    },

    /** The author's, newest change first. */
    async listForAuthor(userId: number): Promise<ScenarioRecord[]> {
      const rows = await selectFrom()
        .where(eq(scenarios.userId, userId))
        .orderBy(desc(scenarios.updatedAt), desc(scenarios.id));
      return rows.map(toRecord);
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
