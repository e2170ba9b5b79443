// The quota counters (migration 0013) stay true to what is stored through everything a player does:
// turns, retries, edits, choosing a version, a new action replacing an unanswered one, undo, redo
// and erase (which set turns aside and may take the memory back to an earlier fold), memory folds
// and the memory panel, branches, imports, shares and stopping them, deleting a story and deleting
// the account. After every step, user_stats must equal the same figures summed from the rows.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@server/kernel/config';
import { quotaCounters } from '@server/test/quota-counters';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  // A small window, so that a few turns fold the memory (stories.memory and its kept folds).
  ctx = await createTestApp({
    llm: {
      ...loadConfig({ LLM_CONTEXT_TOKENS: '4096', LLM_MAX_OUTPUT_TOKENS: '500', BUILTIN_NARRATOR_WORD_DELAY_MS: '0' })
        .llm,
    },
  });
});
afterAll(() => ctx.close());

/** The counters equal the rows' sums; answers the stored bytes counted. */
async function expectTrue(userId: number, step: string): Promise<number> {
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
  const started = await expectTrue(userId, 'story start');
  expect(started).toBeGreaterThan(0);
  for (let turn = 1; turn <= 24; turn += 1)
    await play(client, storyId, `I follow the river bend number ${turn} and mark it on the map`);
  await ctx.app.turns.idle();
  const folded = await ctx.database.executeSql(
    'select count(*)::int as n from story_memory_folds where story_id = $1',
    [storyId],
  );
  expect((folded.rows[0] as { n: number }).n, 'the memory was folded').toBeGreaterThan(0);
  expect(await expectTrue(userId, 'turns and memory folds')).toBeGreaterThan(started);

  // Alternatives, choosing one, edits of a reply and of the premise (the pinned premise follows).
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
  const last = (await messagesOf(client, storyId)).at(-1)!;
  await client.post(`/api/story/${storyId}/erase`, { fromMessageId: last.messageId });
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

  const shown = await messagesOf(client, storyId);
  const branch = (
    await client.post(`/api/story/${storyId}/branch`, { messageId: shown[Math.floor(shown.length / 2)].messageId })
  ).json().storyId as number;
  await expectTrue(userId, 'a branch');
  const file = (await client.get(`/api/story/${storyId}/export?format=json`)).body;
  const imported = await client.request({
    method: 'POST',
    url: '/api/story/import',
    payload: file,
    headers: { 'content-type': 'application/json' },
  });
  expect(imported.statusCode).toBe(201);
  await expectTrue(userId, 'an import with versions');

  const shares = [];
  for (const title of ['The Moving Valley', 'The Valley Again'])
    shares.push((await client.post(`/api/story/${storyId}/share`, { title })).json().shareId as string);
  await client.post(`/api/story/${branch}/share`, { title: 'The Branch' });
  expect((await quotaCounters(ctx.database, userId)).counted?.shares).toBe(3);
  await expectTrue(userId, 'three shares');
  expect((await client.request({ method: 'DELETE', url: `/api/shared/${shares[0]}`, json: {} })).statusCode).toBe(200);
  await expectTrue(userId, 'a share stopped');

  // The story goes with its messages, versions, folds and shares; its branch and the import stay.
  expect((await client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} })).statusCode).toBe(200);
  const afterDelete = await expectTrue(userId, 'the story deleted');
  expect((await quotaCounters(ctx.database, userId)).counted).toMatchObject({ shares: 1, stories: 2 });
  expect(afterDelete).toBeGreaterThan(0);

  const bystanderBytes = await expectTrue(bystander.id, 'another player, before the account deletion');
  expect((await client.request({ method: 'DELETE', url: '/api/user', json: { password } })).statusCode).toBe(200);
  expect((await quotaCounters(ctx.database, userId)).counted, 'the account and its counters are gone').toBeNull();
  expect(await expectTrue(bystander.id, 'another player, after the account deletion')).toBe(bystanderBytes);
});
