// The simulated players of the streaming benchmarks: registered over HTTP (captcha solved), each
// with one story started over SSE before any timing; stories grown to a given length by playing
// one template story for real and copying it into every player's story with SQL while the app is
// stopped (messages, memory, and the memory bank by memory-copy.ts); and the count of narrator
// replies the database holds, to set against the `done` events the players received.
import { registerOverHttp } from '../../../server/test/spawn-server';
import type { AppStore } from './processes';
import { withStoreSql } from './processes';
import { actionBody, appTarget, keepAliveAgent, streamTurn } from './load';
import { copyMemoryBank, memoryDifferences, memoryShape, type MemoryShape } from './memory-copy';

export interface Player {
  cookie: string;
  storyId: number;
}

const PREMISE = 'Captain Mirela Voss and her navigator Tobin smuggle a sealed crate past the blockade of Port Kessrin.';

/** Runs `work` over `items` with at most `limit` at once. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await work(items[index], index);
      }
    }),
  );
  return out;
}

/** Starts a story over SSE and answers its id (the `story` event), once its opening reply is done. */
async function startStory(base: string, cookie: string): Promise<number> {
  const res = await fetch(`${base}/api/story/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
    body: JSON.stringify({ prompt: PREMISE }),
  });
  const text = await res.text();
  const match = /event: story\ndata: \{"storyId":(\d+)\}/.exec(text);
  if (res.status !== 200 || !match || !text.includes('event: done'))
    throw new Error(`story start failed: ${res.status} ${text.slice(-300)}`);
  return Number(match[1]);
}

/** Registers `count` players (prefix keeps names unique per app) and starts one story each. */
export async function createPlayers(base: string, count: number, prefix: string): Promise<Player[]> {
  const cookies = await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    4,
    (i) => registerOverHttp(base, `${prefix}${i}`, 'benchmark-password'),
  );
  return mapLimit(cookies, 10, async (cookie) => ({ cookie, storyId: await startStory(base, cookie) }));
}

/** Plays `turns` turns (after the opening) of one new story, one after the other; answers its id. */
export async function playTemplateStory(base: string, prefix: string, turns: number): Promise<number> {
  const [template] = await createPlayers(base, 1, prefix);
  const target = appTarget(base, template.storyId, template.cookie, keepAliveAgent());
  for (let turn = 1; turn <= turns; turn += 1) {
    const result = await streamTurn(target, actionBody(turn));
    if (!result.ok) throw new Error(`growing the template story failed at turn ${turn}: ${result.error}`);
  }
  target.agent.destroy();
  return template.storyId;
}

/**
 * Replaces every target story's messages, premise, memory and memory bank with the template's (a
 * stopped app's database): the copies are then as long as the template, with its folded memory
 * reaching the same message and its passages, term statistics, vectors and facts on the same
 * messages, so the app reads and recalls them exactly as it would a story played that far.
 */
export async function copyStory(store: AppStore, templateId: number, targetIds: number[]): Promise<void> {
  const ids = `ARRAY[${targetIds.map((id) => Math.trunc(id)).join(',')}]::int[]`;
  const tpl = Math.trunc(templateId);
  await withStoreSql(store, async (query) => {
    // Thousands of messages a story: the storage counter (migration 0013) adds them once a statement.
    await query(`SELECT set_config('taleweaver.bulk_rows', 'on', false)`);
    await query(`DELETE FROM story_messages WHERE story_id = ANY(${ids})`);
    // Inserted in (story, message) order, so each copy's serial ids keep the template's order.
    await query(`INSERT INTO story_messages (story_id, role, content, turn, is_initial, attempts, created_at)
      SELECT t.id, m.role, m.content, m.turn, m.is_initial, m.attempts, m.created_at
      FROM unnest(${ids}) AS t(id) CROSS JOIN story_messages m
      WHERE m.story_id = ${tpl} ORDER BY t.id, m.id`);
    // The memory reaches the k-th message of the template: the copy's own k-th message.
    await query(`WITH tpl AS (
        SELECT s.premise, s.memory, (SELECT count(*) FROM story_messages WHERE story_id = s.id AND id <= s.memory_through_id) AS k
        FROM stories s WHERE s.id = ${tpl})
      UPDATE stories st SET premise = tpl.premise, memory = tpl.memory, generating_until = NULL,
        memory_through_id = CASE WHEN tpl.k = 0 THEN 0
          ELSE (SELECT id FROM story_messages WHERE story_id = st.id ORDER BY id OFFSET tpl.k - 1 LIMIT 1) END
      FROM tpl WHERE st.id = ANY(${ids})`);
    await copyMemoryBank(query, tpl, targetIds);
  });
}

/** The template's memory bank and a copy's, and where they differ (none after a right copy). */
export async function copiedMemory(
  store: AppStore,
  templateId: number,
  storyId: number,
): Promise<{ template: MemoryShape; copy: MemoryShape; differences: string[] }> {
  return withStoreSql(store, async (query) => {
    const template = await memoryShape(query, templateId);
    const copy = await memoryShape(query, storyId);
    return { template, copy, differences: memoryDifferences(template, copy) };
  });
}

/** Messages in a story and how many of them its memory has folded (one story, as a check of the copy). */
export async function storyShape(
  store: AppStore,
  storyId: number,
): Promise<{ messages: number; folded: number; memoryWords: number }> {
  return withStoreSql(store, async (query) => {
    const [row] = (await query(`SELECT
        (SELECT count(*) FROM story_messages WHERE story_id = s.id)::int AS messages,
        (SELECT count(*) FROM story_messages WHERE story_id = s.id AND id <= s.memory_through_id)::int AS folded,
        coalesce(array_length(regexp_split_to_array(nullif(s.memory, ''), '\\s+'), 1), 0)::int AS "memoryWords"
      FROM stories s WHERE s.id = ${Math.trunc(storyId)}`)) as Array<{
      messages: number;
      folded: number;
      memoryWords: number;
    }>;
    return row;
  });
}

/** Narrator replies stored in the given stories (a stopped app's database). */
export async function storedReplies(store: AppStore, storyIds: number[]): Promise<number> {
  return withStoreSql(store, async (query) => {
    const [row] = (await query(
      `SELECT count(*)::int AS n FROM story_messages WHERE role = 'assistant' AND story_id = ANY(ARRAY[${storyIds.map((id) => Math.trunc(id)).join(',')}]::int[])`,
    )) as Array<{ n: number }>;
    return row.n;
  });
}
