// The quota counters (migrations 0013, 0018 and 0030) stay true to what is stored through everything
// a player does: turns with story cards (each reply version keeps its context record), retries,
// edits, choosing a version, a new action replacing an unanswered one, undo, redo and erase (which
// set turns aside and may take the memory back to an earlier fold), memory folds with the story
// bible's facts they state, the memory bank's passages, terms and vectors written after them, the
// memory panel and the bible's edits, branches, imports, shares and stopping them, deleting a story
// (piece by piece, or in one statement) and deleting the account. After every step, user_stats must
// equal the same figures summed from the rows.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@server/kernel/config';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '@server/test/fake-embeddings-server';
import { quotaCounters, storedBytesByKind } from '@server/test/quota-counters';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';
import type { NarratorContext } from '@shared/schemas/story-cards';

let ctx: TestContext;
let embeddings: FakeEmbeddingsServer;
beforeAll(async () => {
  embeddings = await startFakeEmbeddingsServer();
  // A small window, so that a few turns fold the memory (stories.memory and its kept folds, the
  // bible's facts) and the memory bank indexes what was folded (and embeds it, through the fake).
  const env = loadConfig({
    LLM_CONTEXT_TOKENS: '4096',
    LLM_MAX_OUTPUT_TOKENS: '500',
    BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: embeddings.baseUrl,
    EMBEDDINGS_MODEL: 'fake-embed-small',
  });
  ctx = await createTestApp({ llm: env.llm, embeddings: env.embeddings });
});
afterAll(async () => {
  await ctx.close();
  await embeddings.close();
});

/** Once the work a change left behind (folds, indexing, vectors) is done, the counters equal the rows' sums; answers the stored bytes counted. */
async function expectTrue(userId: number, step: string): Promise<number> {
  await ctx.app.turns.idle();
  const { counted, actual } = await quotaCounters(ctx.database, userId);
  expect(counted, step).toEqual(actual);
  return actual.storedBytes;
}

type Message = { messageId: number; role: string; content: string };
const messagesOf = async (client: TestClient, storyId: number) =>
  (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Message[];

it('counts every byte a player stores, and only what stays stored, through every change and deletion', async () => {
  const { client, id: userId, password } = await registerUser(ctx.app);
  const bystander = await registerUser(ctx.app);
  await startStory(bystander.client, 'A lighthouse keeper who collects lost letters');
  expect(await expectTrue(userId, 'a new account')).toBe(0);

  const { storyId } = await startStory(client, 'A cartographer maps a valley that moves at night');
  const started = await expectTrue(userId, 'story start, with its opening reply and context record');
  expect(started).toBeGreaterThan(0);
  // An always-on card and one whose key comes up in every action: each reply's record lists both.
  for (const card of [
    { name: 'The Valley', content: 'The valley moves a mile each night.', alwaysOn: true },
    { name: 'The River', keys: ['river'], content: 'The river runs uphill when the moon is full.' },
  ])
    expect((await client.post(`/api/story/${storyId}/cards`, card)).statusCode).toBe(201);
  await expectTrue(userId, 'two cards');
  // The first actions state facts the builtin narrator's folds put in the story bible.
  const planted = [
    'I name my horse Bramble and follow the river',
    'My sister Maren follows the river with me',
    'I hide my key in my boot by the river',
  ];
  for (let turn = 1; turn <= 24; turn += 1)
    await play(client, storyId, planted[turn - 1] ?? `I follow the river bend number ${turn} and mark it on the map`);
  const played = await expectTrue(userId, 'turns with cards, memory folds, facts, passages, terms and vectors');
  expect(played).toBeGreaterThan(started);
  const last = (await messagesOf(client, storyId)).at(-1)!;
  const record = (
    await client.get(`/api/story/${storyId}/messages/${last.messageId}/context`)
  ).json() as NarratorContext;
  expect(record.blocks.filter((b) => b.kind === 'card').map((b) => b.title)).toEqual(['The Valley', 'The River']);
  // Every kind of row was written, and counted.
  const kinds = await storedBytesByKind(ctx.database, userId);
  for (const kind of ['folds', 'cards', 'contexts', 'facts', 'passages', 'terms', 'vectors'] as const)
    expect(kinds[kind], kind).toBeGreaterThan(0);

  // A version's record saved again in place (saveReply's upsert) counts by its difference.
  await ctx.database.executeSql(
    `insert into narrator_contexts (message_id, version, keyed, "on", record)
     select message_id, version, keyed, "on", jsonb_set(record, '{blocks}', (record->'blocks') || (record->'blocks'))
     from narrator_contexts where message_id = $1
     on conflict (message_id, version) do update set record = excluded.record`,
    [last.messageId],
  );
  expect(await expectTrue(userId, 'a record rewritten in place')).toBeGreaterThan(played);

  // Alternatives (each with its own context record), choosing one, edits of a reply and of the premise.
  await client.post(`/api/story/${storyId}/retry`);
  await expectTrue(userId, 'first retry: the original and the alternative');
  const retried = (await client.post(`/api/story/${storyId}/retry`)).json();
  await client.post(`/api/story/${storyId}/messages/${retried.messageId}/select`, { version: 1 });
  await expectTrue(userId, 'second retry, then the first version chosen');
  const edit = (messageId: number, content: string) =>
    client.request({ method: 'PATCH', url: `/api/story/${storyId}/messages/${messageId}`, json: { content } });
  expect(
    (
      await edit(
        retried.messageId,
        'A much longer reply, written by the player over the narrator, with more to say than before.',
      )
    ).statusCode,
  ).toBe(200);
  const messages = await messagesOf(client, storyId);
  expect(
    (await edit(messages[0].messageId, 'A cartographer maps a valley that moves at night, and the moon moves with it'))
      .statusCode,
  ).toBe(200);
  await expectTrue(userId, 'edits of a reply and of the premise');

  // Undo and redo set turns aside and back: nothing is deleted.
  const beforeUndo = await expectTrue(userId, 'before undo');
  await client.post(`/api/story/${storyId}/undo`);
  await client.post(`/api/story/${storyId}/redo`);
  expect(await expectTrue(userId, 'undo and redo')).toBe(beforeUndo);
  // A reply erased leaves its action unanswered; the next action replaces it as a new version.
  const lastShown = (await messagesOf(client, storyId)).at(-1)!;
  await client.post(`/api/story/${storyId}/erase`, { fromMessageId: lastShown.messageId });
  await play(client, storyId, 'Instead I climb the ridge and look back at the valley');
  await expectTrue(userId, 'an unanswered action replaced');
  // Erasing into folded turns takes the memory back to an earlier fold and drops the later folds.
  const early = (await messagesOf(client, storyId))[4];
  expect((await client.post(`/api/story/${storyId}/erase`, { fromMessageId: early.messageId })).statusCode).toBe(200);
  await expectTrue(userId, 'erase into folded turns');
  await client.post(`/api/story/${storyId}/redo`);
  await expectTrue(userId, 'redo after the erase');

  expect(
    (
      await client.request({
        method: 'PUT',
        url: `/api/story/${storyId}/memory`,
        json: { premise: 'A valley', summary: 'You drew the map twice.', notes: 'Keep the moon in every scene.' },
      })
    ).statusCode,
  ).toBe(200);
  await expectTrue(userId, 'the memory panel saved');

  // The story bible: a fact rewritten longer, pinned, and one deleted.
  const facts = (await client.get(`/api/story/${storyId}/bible`)).json().facts as Array<{ id: number; value: string }>;
  expect(facts.length).toBeGreaterThan(1);
  const longer = `${facts[0].value}, as the old maps of the valley all say`;
  expect((await client.patch(`/api/story/${storyId}/bible/${facts[0].id}`, { value: longer })).statusCode).toBe(200);
  expect((await client.patch(`/api/story/${storyId}/bible/${facts[0].id}`, { pinned: true })).statusCode).toBe(200);
  await expectTrue(userId, 'a fact edited and pinned');
  expect((await client.delete(`/api/story/${storyId}/bible/${facts.at(-1)!.id}`)).statusCode).toBe(200);
  await expectTrue(userId, 'a fact deleted');

  // A branch copies the messages with their passages, vectors and facts (and counts the terms of the
  // copied passages); an import writes messages, versions, cards and facts, then is indexed.
  const shown = await messagesOf(client, storyId);
  const branch = (
    await client.post(`/api/story/${storyId}/branch`, { messageId: shown[Math.floor(shown.length / 2)].messageId })
  ).json().storyId as number;
  await expectTrue(userId, 'a branch');
  const copied = await ctx.database.executeSql(
    `select (select count(*) from memory_passages where story_id = $1)::int as passages,
       (select count(*) from memory_vectors where story_id = $1)::int as vectors,
       (select count(*) from story_facts where story_id = $1)::int as facts`,
    [branch],
  );
  expect(copied.rows[0]).toMatchObject({ passages: expect.any(Number), vectors: expect.any(Number) });
  for (const n of Object.values(copied.rows[0] as Record<string, number>)) expect(n).toBeGreaterThan(0);
  const file = (await client.get(`/api/story/${storyId}/export?format=json`)).body;
  const imported = await client.request({
    method: 'POST',
    url: '/api/story/import',
    payload: file,
    headers: { 'content-type': 'application/json' },
  });
  expect(imported.statusCode).toBe(201);
  await expectTrue(userId, 'an import with versions, cards and facts, then indexed');

  const shares = [];
  for (const title of ['The Moving Valley', 'The Valley Again'])
    shares.push((await client.post(`/api/story/${storyId}/share`, { title })).json().shareId as string);
  await client.post(`/api/story/${branch}/share`, { title: 'The Branch' });
  expect((await quotaCounters(ctx.database, userId)).counted?.shares).toBe(3);
  await expectTrue(userId, 'three shares');
  expect((await client.request({ method: 'DELETE', url: `/api/shared/${shares[0]}`, json: {} })).statusCode).toBe(200);
  await expectTrue(userId, 'a share stopped');

  // The story goes, piece by piece, with its messages, versions, records, folds, facts, passages,
  // terms, vectors and shares; its branch and the import stay.
  expect((await client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} })).statusCode).toBe(200);
  const afterDelete = await expectTrue(userId, 'the story deleted');
  expect((await quotaCounters(ctx.database, userId)).counted).toMatchObject({ shares: 1, stories: 2 });
  expect(afterDelete).toBeGreaterThan(0);
  // A story deleted in one statement (its rows by cascade) is counted out whole by its own trigger.
  await ctx.database.executeSql('delete from stories where id = $1', [imported.json().storyId]);
  await expectTrue(userId, 'a story deleted in one statement');

  const bystanderBytes = await expectTrue(bystander.id, 'another player, before the account deletion');
  expect((await client.request({ method: 'DELETE', url: '/api/user', json: { password } })).statusCode).toBe(200);
  expect((await quotaCounters(ctx.database, userId)).counted, 'the account and its counters are gone').toBeNull();
  expect(await expectTrue(bystander.id, 'another player, after the account deletion')).toBe(bystanderBytes);
});
