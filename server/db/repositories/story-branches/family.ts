// A story's family: the story it was branched from (while that is still the owner's) and the
// branches made from it, newest first.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { MAX_ID, rows } from '../sql-values';

export interface StoryLinkRow {
  id: number;
  title: string | null;
  premise: string;
  createdAt: string;
}

/** The story a story was branched from (while it is still the owner's) and its own branches, newest first. */
export async function family(
  db: Db,
  storyId: number,
  userId: number,
): Promise<{ origin: StoryLinkRow | null; branches: StoryLinkRow[] } | null> {
  if (storyId > MAX_ID) return null;
  const [story] = await rows<{ originId: number | null }>(
    db,
    sql`select branched_from_story_id as "originId" from stories where id = ${storyId} and user_id = ${userId}`,
  );
  if (!story) return null;
  const link = sql.raw(`id, title, premise, to_json(created_at) #>> '{}' as "createdAt"`);
  const [origin] = story.originId
    ? await rows<StoryLinkRow>(
        db,
        sql`select ${link} from stories where id = ${story.originId} and user_id = ${userId}`,
      )
    : [];
  const branches = await rows<StoryLinkRow>(
    db,
    sql`select ${link} from stories where branched_from_story_id = ${storyId} and user_id = ${userId} order by created_at desc, id desc`,
  );
  return { origin: origin ?? null, branches };
}
