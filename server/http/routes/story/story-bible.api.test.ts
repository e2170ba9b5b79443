// The story bible through the API, read from what the OpenAI-compatible fake received in a small
// window (4,096 tokens). The fake answers each summary with a memory and the facts the turns it was
// sent state (found by the builtin narrator's rules, as a model would list them): a fact planted
// early reaches a late turn that names only the thing, a renamed thing by its new name; erase takes
// a turn's facts away and redo brings them back; a pinned fact goes with every turn; a model's
// broken JSON never fails a fold; and every call is the owner's only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { listedFacts } from '@server/test/fake-summaries';
import { createTestApp, registerUser, type TestClient, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';
import type { BibleFact } from '@shared/schemas/story-bible';
import { BIBLE_PINNED_MAX, STORY_BIBLE_MESSAGES } from '@shared/schemas/story-bible';
import type { NarratorContext } from '@shared/schemas/story-cards';

let ctx: TestContext;
let fake: FakeLlmServer;
const writer = proseWriter(62);
/** When set, the next summaries answer this instead of their facts. */
let brokenFacts: string | null = null;

const isSummary = (system: string) => system.startsWith('You maintain the memory');

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-bible' });
  fake.fallback = (request) => {
    if (!isSummary(contentText(request.body.messages[0]?.content))) return { kind: 'ok', text: writer.reply(10) };
    const listed = brokenFacts ?? listedFacts(contentText(request.body.messages[1]?.content));
    return { kind: 'ok', text: `${writer.reply(3)}\n\n${listed}` };
  };
  ctx = await createTestApp({
    llm: {
      ...fakeLlmConfig(fake, 'sk-bible', {
        LLM_CONTEXT_TOKENS: '4096',
        LLM_MAX_OUTPUT_TOKENS: '500',
      }),
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

async function play(client: TestClient, storyId: number, message: string) {
  const res = await client.post(`/api/story/${storyId}/continue`, { message });
  expect(res.statusCode, res.body).toBe(200);
  await ctx.app.turns.idle();
  const turnRequest = fake.requests.findLast((r) => !isSummary(contentText(r.body.messages[0]?.content)))!;
  const prompt = turnRequest.body.messages.map((m) => contentText(m.content)).join('\n\n');
  const record = (
    await client.get(`/api/story/${storyId}/messages/${res.json().messageId}/context`)
  ).json() as NarratorContext;
  return { prompt, record };
}

async function newStory(client: TestClient) {
  const res = await client.post('/api/story/start', { prompt: 'A courier crosses the marsh country in autumn' });
  expect(res.statusCode, res.body).toBe(200);
  await ctx.app.turns.idle();
  return res.json().storyId as number;
}

async function bible(client: TestClient, storyId: number): Promise<BibleFact[]> {
  const res = await client.get(`/api/story/${storyId}/bible`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().facts;
}

/** Plays filler turns until the bible holds a fact with `value` (at most 40 turns). */
async function playUntilFact(client: TestClient, storyId: number, value: string) {
  for (let turn = 0; turn < 40; turn += 1) {
    if ((await bible(client, storyId)).some((f) => f.value === value)) return;
    await play(client, storyId, writer.action());
  }
  throw new Error(`no fact with the value ${value} after 40 turns`);
}

const messageIdOf = async (client: TestClient, storyId: number, content: string) =>
  (
    (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
      content: string;
    }>
  ).find((m) => m.content === content)!.messageId;

it('keeps a fact planted early and its new value, and sends the current one to a late turn that names only the thing', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  await play(client, storyId, 'I tell the stable boy that my horse is called Bramble.');
  await playUntilFact(client, storyId, 'Bramble');
  const rename = 'I decide that from now on my horse is called Thistle.';
  await play(client, storyId, rename);
  await playUntilFact(client, storyId, 'Thistle');

  const facts = await bible(client, storyId);
  const bramble = facts.find((f) => f.value === 'Bramble')!;
  const thistle = facts.find((f) => f.value === 'Thistle')!;
  expect(bramble).toMatchObject({ entity: 'your horse', attribute: 'name', turn: 1, pinned: false, supersedes: null });
  expect(thistle).toMatchObject({ entity: 'your horse', attribute: 'name', pinned: false, supersedes: bramble.id });
  expect(thistle.turn).toBeGreaterThan(1);

  const { prompt, record } = await play(client, storyId, 'I whistle for my horse.');
  expect(prompt).toContain(`Story bible: your horse, name: Thistle (since turn ${thistle.turn}; formerly Bramble)`);
  expect(prompt).not.toContain('Story bible: your horse, name: Bramble');
  const block = record.blocks.find((b) => b.kind === 'fact')!;
  expect(block).toMatchObject({ title: 'your horse: name', included: 'full' });
  expect(block.reason).toMatch(/^matched 'horse', rank 1 of \d+$/);
  // In the volatile tail, before the recalled passages, the action last.
  const kinds = record.blocks.map((b) => b.kind);
  expect(kinds.lastIndexOf('turn')).toBeLessThan(kinds.indexOf('fact'));
  if (kinds.includes('passage')) expect(kinds.indexOf('fact')).toBeLessThan(kinds.indexOf('passage'));
  expect(kinds.at(-1)).toBe('action');

  // Erasing the rename takes its fact away (the old name is current again); redo brings it back.
  const renameId = await messageIdOf(client, storyId, rename);
  expect((await client.post(`/api/story/${storyId}/erase`, { fromMessageId: renameId })).statusCode).toBe(200);
  expect((await bible(client, storyId)).map((f) => [f.value, f.supersedes])).toEqual([['Bramble', null]]);
  const redo = await client.post(`/api/story/${storyId}/redo`);
  expect(redo.statusCode, redo.body).toBe(200);
  const kept = (await bible(client, storyId)).map(({ entity, attribute, value, turn, pinned }) => ({
    entity,
    attribute,
    value,
    turn,
    pinned,
  }));
  expect(kept.map((f) => f.value)).toEqual(['Bramble', 'Thistle']);

  // A branch copies the bible as it stood at its message; the story file carries it, and an import restores it.
  const shown = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
    messageId: number;
  }>;
  const branch = await client.post(`/api/story/${storyId}/branch`, { messageId: shown.at(-1)!.messageId });
  expect(branch.statusCode, branch.body).toBe(201);
  const branchBible = await bible(client, branch.json().storyId);
  expect(
    branchBible.map(({ entity, attribute, value, turn, pinned }) => ({ entity, attribute, value, turn, pinned })),
  ).toEqual(kept);
  expect(branchBible[1].supersedes).toBe(branchBible[0].id);
  const exported = await client.get(`/api/story/${storyId}/export?format=json`);
  expect(exported.statusCode).toBe(200);
  const file = exported.json();
  expect(file.bible.map((f: { value: string }) => f.value)).toEqual(['Bramble', 'Thistle']);
  expect(file.messages[file.bible[0].message].content).toBe('I tell the stable boy that my horse is called Bramble.');
  const imported = await client.request({
    method: 'POST',
    url: '/api/story/import',
    payload: exported.body,
    headers: { 'content-type': 'application/json' },
  });
  expect(imported.statusCode, imported.body).toBe(201);
  const importedBible = await bible(client, imported.json().storyId);
  expect(
    importedBible.map(({ entity, attribute, value, turn, pinned }) => ({ entity, attribute, value, turn, pinned })),
  ).toEqual(kept);
}, 120_000);

it('sends a pinned fact with every turn, edits and deletes facts, and suggests cards without saving them', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  await play(client, storyId, 'I write a letter to my sister Maren in the capital.');
  await play(client, storyId, "I read Maren's last letter again.");
  await play(client, storyId, 'I whistle and my dog Pepperkin comes running.');
  await playUntilFact(client, storyId, 'Pepperkin');
  const [maren, pepperkin] = await bible(client, storyId);
  expect(maren).toMatchObject({ entity: 'your sister', value: 'Maren' });

  const pinned = await client.patch(`/api/story/${storyId}/bible/${maren.id}`, { pinned: true });
  expect(pinned.statusCode, pinned.body).toBe(200);
  expect(pinned.json().fact).toEqual({ ...maren, pinned: true });
  const { prompt, record } = await play(client, storyId, 'I study the map by the fire.');
  expect(prompt).toContain('Story bible: your sister, name: Maren (since turn 1)');
  expect(record.blocks.find((b) => b.kind === 'fact')).toMatchObject({
    title: 'your sister: name',
    reason: 'pinned fact',
    included: 'full',
  });

  const edited = await client.patch(`/api/story/${storyId}/bible/${pepperkin.id}`, { value: 'Juniper' });
  expect(edited.json().fact).toMatchObject({ id: pepperkin.id, value: 'Juniper', turn: pepperkin.turn });
  expect((await client.patch(`/api/story/${storyId}/bible/${pepperkin.id}`, {})).statusCode).toBe(400);
  const blank = await client.patch(`/api/story/${storyId}/bible/${pepperkin.id}`, { value: '  ' });
  expect(blank.statusCode).toBe(400);
  expect(blank.json().message).toBe(STORY_BIBLE_MESSAGES.valueRequired);

  // A recurring name (the sister's, in two passages of the memory bank) becomes a proposed card,
  // one named once (the dog's) does not; nothing is saved.
  const suggested = await client.post(`/api/story/${storyId}/bible/suggest-cards`);
  expect(suggested.statusCode, suggested.body).toBe(200);
  expect(suggested.json().cards).toContainEqual(
    expect.objectContaining({ name: 'Maren', keys: ['Maren', 'sister'], content: 'Your sister.\nName: Maren.' }),
  );
  expect(suggested.json().cards.map((c: { name: string }) => c.name)).not.toContain('Juniper');
  expect((await client.get(`/api/story/${storyId}/cards`)).json().cards).toEqual([]);

  expect((await client.delete(`/api/story/${storyId}/bible/${pepperkin.id}`)).statusCode).toBe(200);
  expect((await bible(client, storyId)).map((f) => f.id)).toEqual([maren.id]);
  expect((await client.delete(`/api/story/${storyId}/bible/${pepperkin.id}`)).statusCode).toBe(404);
}, 120_000);

it('folds the memory as usual when the facts are not valid JSON, with no facts', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  brokenFacts = 'FACTS:\n[{"entity": "your horse", "attribute": "name", "value": ';
  try {
    await play(client, storyId, 'I tell the stable boy that my horse is called Bramble.');
    for (let turn = 0; turn < 40; turn += 1) {
      if ((await client.get(`/api/story/${storyId}/memory`)).json().summary) break;
      await play(client, storyId, writer.action());
    }
  } finally {
    brokenFacts = null;
  }
  const memory = (await client.get(`/api/story/${storyId}/memory`)).json().summary as string;
  expect(memory.length).toBeGreaterThan(0);
  expect(memory).not.toContain('FACTS');
  expect(await bible(client, storyId)).toEqual([]);
}, 120_000);

it("answers 404 for another player's story or fact, 400 for a bad id, and refuses too many pins", async () => {
  const owner = await registerUser(ctx.app);
  const storyId = await newStory(owner.client);
  for (let i = 0; i <= BIBLE_PINNED_MAX; i += 1)
    await ctx.database.executeSql(
      `insert into story_facts (story_id, message_id, turn, entity, attribute, value, pinned)
       select $1, max(id), 0, $2, 'name', $3, $4 from story_messages where story_id = $1`,
      [storyId, `thing ${i}`, `Name ${i}`, i < BIBLE_PINNED_MAX],
    );
  const facts = await bible(owner.client, storyId);
  expect(facts).toHaveLength(BIBLE_PINNED_MAX + 1);
  const unpinned = facts.find((f) => !f.pinned)!;
  const refused = await owner.client.patch(`/api/story/${storyId}/bible/${unpinned.id}`, { pinned: true });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().message).toBe(STORY_BIBLE_MESSAGES.tooManyPinned);

  const other = await registerUser(ctx.app);
  const fact = `/api/story/${storyId}/bible/${unpinned.id}`;
  expect((await other.client.get(`/api/story/${storyId}/bible`)).statusCode).toBe(404);
  expect((await other.client.patch(fact, { value: 'Stolen' })).statusCode).toBe(404);
  expect((await other.client.delete(fact)).statusCode).toBe(404);
  expect((await other.client.post(`/api/story/${storyId}/bible/suggest-cards`)).statusCode).toBe(404);
  // Another story of the owner's own does not reach this story's facts either.
  const second = await newStory(owner.client);
  expect((await owner.client.patch(`/api/story/${second}/bible/${unpinned.id}`, { value: 'X' })).statusCode).toBe(404);
  expect((await owner.client.patch(`/api/story/${storyId}/bible/99999999999`, { value: 'X' })).statusCode).toBe(404);
  expect((await owner.client.patch(`/api/story/${storyId}/bible/abc`, { value: 'X' })).statusCode).toBe(400);
  expect((await bible(owner.client, storyId)).find((f) => f.id === unpinned.id)).toEqual(unpinned);
}, 60_000);
