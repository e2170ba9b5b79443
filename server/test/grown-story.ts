// Grows a story in the database in one statement, for tests that need stories of some size (a
// share near its limit, an export of several hundred KB): `turns` more actions and replies, each
// `bytes` characters of hex text (barely compressible), numbered after the opening.
import type { Database } from '../db/client';

export async function growStory(database: Database, storyId: number, turns: number, bytes: number): Promise<void> {
  const text = `(select string_agg(md5(i::text || '-' || j::text), '') from generate_series(1, ${Math.ceil(bytes / 32)}) j)`;
  await database.executeSql(
    `insert into story_messages (story_id, role, content, turn, is_initial, attempts, created_at)
     select $1, case when i % 2 = 0 then 'user' else 'assistant' end, left(${text}, ${bytes}), 1 + i / 2, false, 1, now()
     from generate_series(0, ${2 * turns - 1}) i`,
    [storyId],
  );
}
