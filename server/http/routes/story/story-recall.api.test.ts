// The memory bank, read from what the OpenAI-compatible fake received in a small window (4,096
// tokens): a fact planted early, long folded out of the verbatim turns, is recalled into the prompt
// of a late turn that names only the thing, with its reason in the context record; a passage of an
// undone or erased turn never is, an edited message is recalled as it reads now, and a branch
// recalls what its source did; an erase turns passages off and a redo on again; through all of it,
// each passage's live flag and the story's term statistics agree with what its messages show. With
// recall off (LLM_RECALL_TOKENS=0) nothing is indexed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@server/kernel/config';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { recallPlayer } from '@server/test/recall-play';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

let ctx: TestContext;
let fake: FakeLlmServer;
const writer = proseWriter(26);
/** The narrator at the fake, in a 4,096-token window. */
const narratorEnv = () => ({
  LLM_CONTEXT_TOKENS: '4096',
  LLM_MAX_OUTPUT_TOKENS: '500',
  LLM_PROVIDER: 'openai',
  LLM_BASE_URL: fake.baseUrl,
  LLM_API_KEY: 'sk-recall',
  LLM_MODEL: 'fake-gpt',
});

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-recall' });
  fake.fallback = () => ({ kind: 'ok', text: writer.reply(10) });
  ctx = await createTestApp({ llm: loadConfig(narratorEnv()).llm });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const RECALLED = 'Recalled from earlier in the story';
const { play, messages, newStory, plant, playUntilFolded, storyWithFoldedFact } = recallPlayer(
  () => ({ ctx, fake }),
  writer,
);

/** Rows where the bank disagrees with the messages: live flags, term counts, totals (all empty when right). */
async function bankDisagreements(storyId: number) {
  // The statistics take in a change when the bank's job that follows it has run.
  await ctx.app.turns.idle();
  const rows = async (sql: string) => (await ctx.database.executeSql(sql, [storyId])).rows;
  return {
    live: await rows(`select p.id, p.live, m.state, p.version, m.version as shown from memory_passages p join story_messages m on m.id = p.message_id
      where p.story_id = $1 and p.live <> (m.state = 'shown' and m.version = p.version)`),
    terms: await rows(`select coalesce(c.term, t.term) as term, c.n, t.holding from
      (select u.term, count(*)::int as n from memory_passages p, unnest(p.terms) as u(term)
        where p.story_id = $1 and p.live and p.length > 0 group by u.term) c
      full join (select term, holding from memory_terms where story_id = $1 and holding <> 0) t on t.term = c.term
      where c.n is distinct from t.holding`),
    totals: await rows(`select t.passages, t.length, c.n, c.l from memory_totals t,
      (select count(*)::int as n, coalesce(sum(length), 0)::bigint as l from memory_passages
        where story_id = $1 and live and length > 0) c
      where t.story_id = $1 and (t.passages <> c.n or t.length <> c.l)`),
  };
}

it('recalls a fact planted early into the prompt of a late turn that names only the thing, and says why', async () => {
  const { client, storyId, planted } = await storyWithFoldedFact(
    'I name my horse Bramble and tie him to the mill post.',
  );

  const { prompt, record } = await play(client, storyId, 'I whistle for my horse.');
  expect(prompt).toContain(`${RECALLED} (turn 1, the player): I name my horse Bramble and tie him to the mill post.`);
  const passage = record.blocks.find((b) => b.kind === 'passage' && b.messageId === planted);
  expect(passage).toMatchObject({ title: 'Turn 1: your action', included: 'full' });
  // 'horse' first; the last reply's words (weight 0.2) may match too, depending on where the folds fell.
  expect(passage!.reason).toMatch(/^matched 'horse'(, '[^']+')*, rank 1 of \d+$/);
  expect(record.recallBudgetTokens).toBe(200);
  const recalled = record.blocks.filter((b) => b.kind === 'passage' && b.included !== 'dropped');
  expect(recalled.reduce((sum, b) => sum + b.tokens, 0)).toBeLessThanOrEqual(200);
  // In the volatile tail: after the verbatim turns, before the action.
  const order = record.blocks.map((b) => b.kind);
  expect(order.lastIndexOf('turn')).toBeLessThan(order.indexOf('passage'));
  expect(order.at(-1)).toBe('action');
});

it('never recalls a passage of an undone or erased turn', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  await play(client, storyId, 'I tell my sister Maren about the letter.');
  expect((await client.post(`/api/story/${storyId}/undo`)).statusCode).toBe(200);
  const kept = await plant(client, storyId, 'I give my sister a sealed letter.');
  const erasedAction = await plant(client, storyId, 'I hand my sister Ilse a silver dagger.');
  expect((await client.post(`/api/story/${storyId}/erase`, { fromMessageId: erasedAction })).statusCode).toBe(200);
  await playUntilFolded(client, storyId, kept);

  const { prompt, record } = await play(client, storyId, 'I write to my sister.');
  expect(prompt).toContain(`${RECALLED} (turn 1, the player): I give my sister a sealed letter.`);
  expect(prompt).not.toMatch(/Maren|Ilse/);
  const recalledIds = record.blocks.filter((b) => b.kind === 'passage').map((b) => b.messageId);
  expect(recalledIds).toContain(kept);
  expect(recalledIds).not.toContain(erasedAction);
  expect(await bankDisagreements(storyId)).toEqual({ live: [], terms: [], totals: [] });
});

it('turns the passages of an erased turn off, and a redo on again, with the statistics following', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  await plant(client, storyId, 'I saddle my horse.');
  const secondAction = await plant(client, storyId, 'I ride to the ford.');
  // The bank takes turns in once a fold has taken them out of the verbatim window.
  await playUntilFolded(client, storyId, secondAction);
  const liveFrom = async (turn: number) =>
    (
      (
        await ctx.database.executeSql(
          'select count(*)::int as n from memory_passages where story_id = $1 and live and turn >= $2',
          [storyId, turn],
        )
      ).rows[0] as { n: number }
    ).n;
  expect(await liveFrom(2)).toBeGreaterThan(0);

  expect((await client.post(`/api/story/${storyId}/erase`, { fromMessageId: secondAction })).statusCode).toBe(200);
  expect(await bankDisagreements(storyId)).toEqual({ live: [], terms: [], totals: [] });
  expect(await liveFrom(2)).toBe(0);
  expect(await liveFrom(1)).toBeGreaterThan(0);

  expect((await client.post(`/api/story/${storyId}/redo`)).statusCode).toBe(200);
  expect(await bankDisagreements(storyId)).toEqual({ live: [], terms: [], totals: [] });
  expect(await liveFrom(2)).toBeGreaterThan(0);
});

it('recalls an edited message as it reads now, and a branch recalls what its source did', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  const planted = await plant(client, storyId, 'I call my dog Pepper and she follows me.');
  const edit = await client.request({
    method: 'PATCH',
    url: `/api/story/${storyId}/messages/${planted}`,
    json: { content: 'I call my dog Juniper and she follows me.', baseVersion: 1 },
  });
  expect(edit.statusCode, edit.body).toBe(200);
  await playUntilFolded(client, storyId, planted);

  const { prompt } = await play(client, storyId, 'I look for my dog.');
  expect(prompt).toContain('I call my dog Juniper and she follows me.');
  expect(prompt).not.toContain('Pepper');

  const shown = await messages(client, storyId);
  const branch = await client.post(`/api/story/${storyId}/branch`, { messageId: shown.at(-1)!.messageId });
  expect(branch.statusCode, branch.body).toBe(201);
  const branchId = branch.json().storyId as number;
  const inBranch = await play(client, branchId, 'I kneel and call my dog again.');
  expect(inBranch.prompt).toContain('I call my dog Juniper and she follows me.');
  const copy = (await messages(client, branchId)).find((m) => m.content.startsWith('I call my dog Juniper'))!;
  expect(inBranch.record.blocks.find((b) => b.kind === 'passage' && b.messageId === copy.messageId)).toBeDefined();
  for (const id of [storyId, branchId])
    expect(await bankDisagreements(id)).toEqual({ live: [], terms: [], totals: [] });
});

it('indexes nothing with recall off (LLM_RECALL_TOKENS=0): no passage is written, none is sent', async () => {
  const off = await createTestApp({ llm: loadConfig({ ...narratorEnv(), LLM_RECALL_TOKENS: '0' }).llm });
  try {
    const player = recallPlayer(() => ({ ctx: off, fake }), writer);
    const { client, storyId, planted } = await player.storyWithFoldedFact(
      'I name my horse Bramble and tie him to the mill post.',
    );
    const { prompt, record } = await player.play(client, storyId, 'I whistle for my horse.');
    expect(prompt).not.toContain(RECALLED);
    expect(record.blocks.filter((b) => b.kind === 'passage')).toEqual([]);
    const [folded] = (
      await off.database.executeSql('select memory_through_id as through from stories where id = $1', [storyId])
    ).rows as Array<{ through: number }>;
    expect(folded.through).toBeGreaterThan(planted);
    const passages = await off.database.executeSql(
      'select count(*)::int as n from memory_passages where story_id = $1',
      [storyId],
    );
    expect(passages.rows).toEqual([{ n: 0 }]);
  } finally {
    await off.close();
  }
});
