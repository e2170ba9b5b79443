// A story of more different words than its term statistics keep: a file of replies of random words,
// imported and indexed, keeps MAX_STORY_TERMS terms, each counted exactly, and says it is
// saturated; a branch of it writes no more; an erase writes changes only for the terms kept, and a
// deleted story leaves none behind. Its recall still finds a name planted early, whose term the
// statistics do not keep, read from what the OpenAI-compatible fake was sent. An ordinary story
// keeps every term, and its branch the same statistics.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_STORY_TERMS } from '@server/db/repositories/memory-statistics';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { recallPlayer } from '@server/test/recall-play';
import { createTestApp, fakeLlmConfig, registerUser, type TestClient, type TestContext } from '@server/test/test-app';
import { proseWriter, seededRandom } from '@server/test/varied-prose';
import { STORY_FILE_FORMAT, STORY_FILE_VERSION } from '@shared/schemas/story-export';

let ctx: TestContext;
let fake: FakeLlmServer;
const writer = proseWriter(31);

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-vocabulary' });
  fake.fallback = () => ({ kind: 'ok', text: writer.reply(4) });
  ctx = await createTestApp({
    llm: fakeLlmConfig(fake, 'sk-vocabulary', { LLM_CONTEXT_TOKENS: '4096', LLM_MAX_OUTPUT_TOKENS: '500' }),
  });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const PLANTED = 'I name my horse Bramble and tie him to the mill post.';
/** Replies of random words: 36 of 300 hold some 10,800 terms, more than a story keeps. */
const REPLIES = 36;

function randomReply(random: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = () =>
    Array.from({ length: 5 + Math.floor(random() * 5) }, () => letters[Math.floor(random() * 26)]).join('');
  return `${Array.from({ length: 300 }, word).join(' ')}.`;
}

/** A story file: the premise, the planted action first, then prose actions; replies random words, or prose. */
function storyFile(random: boolean): string {
  const next = seededRandom(random ? 5 : 6);
  const at = new Date().toISOString();
  const reply = () => (random ? randomReply(next) : writer.reply());
  const premise = 'A courier crosses the marsh country in autumn';
  const messages = [
    { role: 'user', content: premise, turn: 0, isInitial: true, createdAt: at },
    { role: 'assistant', content: reply(), turn: 0, isInitial: false, createdAt: at },
  ];
  for (let turn = 1; turn <= REPLIES; turn += 1)
    messages.push(
      { role: 'user', content: turn === 1 ? PLANTED : writer.action(), turn, isInitial: false, createdAt: at },
      { role: 'assistant', content: reply(), turn, isInitial: false, createdAt: at },
    );
  const story = { title: 'Marsh words', premise, memory: '', memoryCovers: 0, notes: '', createdAt: at };
  return JSON.stringify({ format: STORY_FILE_FORMAT, version: STORY_FILE_VERSION, exportedAt: at, story, messages });
}

async function importStory(client: TestClient, random: boolean): Promise<number> {
  const res = await client.request({
    method: 'POST',
    url: '/api/story/import',
    payload: storyFile(random),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.statusCode, res.body).toBe(201);
  await ctx.app.turns.idle();
  return res.json().storyId as number;
}

const rows = async <Row>(sql: string, values: unknown[]) => (await ctx.database.executeSql(sql, values)).rows as Row[];

/**
 * The story's statistics as kept (rows, totals) and where they differ from its live passages:
 * each term kept against the passages holding it, the totals against all passages.
 */
async function statistics(storyId: number) {
  await ctx.app.turns.idle();
  const [totals] = await rows<{ passages: number; length: number; terms: number; saturated: boolean }>(
    'select passages, length::int as length, terms, saturated from memory_totals where story_id = $1',
    [storyId],
  );
  const [kept] = await rows<{ n: number }>('select count(*)::int as n from memory_terms where story_id = $1', [
    storyId,
  ]);
  const wrong = await rows(
    `select t.term, t.holding, c.n from memory_terms t left join
      (select u.term, count(*)::int as n from memory_passages p, unnest(p.terms) as u(term)
        where p.story_id = $1 and p.live and p.length > 0 group by u.term) c on c.term = t.term
     where t.story_id = $1 and t.holding is distinct from coalesce(c.n, 0)`,
    [storyId],
  );
  const [held] = await rows<{ terms: number; passages: number; length: number }>(
    `select (select count(distinct u.term) from memory_passages p, unnest(p.terms) as u(term)
        where p.story_id = $1 and p.live and p.length > 0)::int as terms,
      count(*)::int as passages, coalesce(sum(length), 0)::int as length
     from memory_passages where story_id = $1 and live and length > 0`,
    [storyId],
  );
  return { totals, kept: kept.n, wrong, held };
}

const { play, messages } = recallPlayer(() => ({ ctx, fake }), writer);
const RECALLED = 'Recalled from earlier in the story';

/** The prompt of the turn whose action was `action`, as the fake was sent it (a fold's request may come after). */
function turnPrompt(action: string): string {
  const prompts = fake.requests.map((r) => r.body.messages.map((m) => contentText(m.content)).join('\n\n'));
  return prompts.findLast((p) => !p.startsWith('You maintain the memory') && p.endsWith(action)) ?? '';
}

it('keeps at most MAX_STORY_TERMS terms of a story of random words, counted exactly, and still recalls what was planted', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await importStory(client, true);
  const source = await statistics(storyId);
  expect(source.held.terms).toBeGreaterThan(MAX_STORY_TERMS);
  expect(source.kept).toBe(MAX_STORY_TERMS);
  expect(source.totals).toEqual({
    passages: source.held.passages,
    length: source.held.length,
    terms: MAX_STORY_TERMS,
    saturated: true,
  });
  expect(source.wrong).toEqual([]);
  // The import's catch-up met the planted action last (newest first): its name is not kept.
  const [bramble] = await rows('select term from memory_terms where story_id = $1 and term = $2', [storyId, 'brambl']);
  expect(bramble).toBeUndefined();

  const recalled = await play(client, storyId, 'I whistle for Bramble.');
  expect(turnPrompt('I whistle for Bramble.')).toContain(`${RECALLED} (turn 1, the player): ${PLANTED}`);
  expect(recalled.record.blocks.find((b) => b.kind === 'passage')?.reason).toMatch(/^matched 'bramble'/);

  // A branch from the last message keeps the terms its source keeps, counted over its own passages.
  const shown = await messages(client, storyId);
  const branched = await client.post(`/api/story/${storyId}/branch`, { messageId: shown.at(-1)!.messageId });
  expect(branched.statusCode, branched.body).toBe(201);
  const branchId = branched.json().storyId as number;
  const branch = await statistics(branchId);
  expect(branch.kept).toBeLessThanOrEqual(MAX_STORY_TERMS);
  expect(branch.kept).toBeGreaterThan(MAX_STORY_TERMS - 100);
  expect(branch.totals).toMatchObject({ passages: branch.held.passages, terms: branch.kept, saturated: true });
  expect(branch.wrong).toEqual([]);
  await play(client, branchId, 'I whistle for Bramble again.');
  expect(turnPrompt('I whistle for Bramble again.')).toContain(`${RECALLED} (turn 1, the player): ${PLANTED}`);

  // Deleting the branch leaves no changes to add in behind it.
  expect((await client.delete(`/api/story/${branchId}`)).statusCode).toBe(200);
  expect(await rows('select story_id from memory_deltas where story_id = $1', [branchId])).toEqual([]);

  // Setting every message aside writes changes for the terms kept, none for the others.
  await ctx.app.turns.idle();
  await ctx.database.executeSql(`update story_messages set state = 'undone' where story_id = $1 and not is_initial`, [
    storyId,
  ]);
  const [changes] = await rows<{ kept: number; others: number }>(
    `select count(*) filter (where t.term is not null)::int as kept, count(*) filter (where t.term is null)::int as others
     from memory_deltas d left join memory_terms t on t.story_id = d.story_id and t.term = d.term
     where d.story_id = $1 and d.term <> ''`,
    [storyId],
  );
  expect(changes.kept).toBeGreaterThan(MAX_STORY_TERMS / 2);
  expect(changes.others).toBe(0);
  // A row for each term kept in each message: fewer than the story's different words.
  expect(changes.kept).toBeLessThan(source.held.terms);
});

it('keeps every term of an ordinary story, and its branch the same statistics', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await importStory(client, false);
  const source = await statistics(storyId);
  expect(source.kept).toBe(source.held.terms);
  expect(source.totals).toEqual({
    passages: source.held.passages,
    length: source.held.length,
    terms: source.held.terms,
    saturated: false,
  });
  expect(source.wrong).toEqual([]);

  const shown = await messages(client, storyId);
  const branched = await client.post(`/api/story/${storyId}/branch`, { messageId: shown.at(-1)!.messageId });
  expect(branched.statusCode, branched.body).toBe(201);
  const branch = await statistics(branched.json().storyId as number);
  expect(branch).toEqual(source);
  const [bramble] = await rows<{ holding: number }>(
    'select holding from memory_terms where story_id = $1 and term = $2',
    [storyId, 'brambl'],
  );
  expect(bramble).toEqual({ holding: 1 });
});
