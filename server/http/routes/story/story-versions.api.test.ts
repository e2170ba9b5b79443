// The player in control, part one: alternatives from 'Try again', choosing the version
// shown, editing (with its history and the stale-edit 409), undo and redo, erase from here, a new
// action replacing an unanswered one, what the narrator then sees, 409 while a reply is being
// written, 404 for another player's story or message, and every bad request's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinNarrator } from '@server/ai/llm/builtin';
import type { GenerationRequest } from '@server/ai/llm/types';
import { play, startStory as startTurn } from '@server/test/story-turns';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
/** Every request the narrator was sent, to see what it works from. */
const sent: GenerationRequest[] = [];
beforeAll(async () => {
  const builtin = createBuiltinNarrator({ builtinWordDelayMs: 0 });
  ctx = await createTestApp(
    {},
    {
      narrator: {
        ...builtin,
        generate: (request, onDelta) => (sent.push(request), builtin.generate(request, onDelta)),
      },
    },
  );
});
afterAll(() => ctx.close());

type Message = { messageId: number; role: string; content: string; version?: number; versions?: number };

const startStory = (client: TestClient, prompt = 'A cartographer maps a city that rearranges itself at night') =>
  startTurn(client, prompt);
const state = async (client: TestClient, storyId: number) =>
  (await client.get(`/api/story/${storyId}/current-state`)).json() as { messages: Message[]; canRedo: boolean };
/** The text of the last turn's prompt (its messages), as the narrator was sent it. */
const promptText = () => sent[0].messages.map((m) => m.content).join('\n');
const contents = (messages: Message[]) => messages.map((m) => m.content);
const edit = (client: TestClient, storyId: number, messageId: number | string, json: unknown) =>
  client.request({ method: 'PATCH', url: `/api/story/${storyId}/messages/${messageId}`, json });

describe('alternatives and the version shown', () => {
  it("keeps every 'Try again' reply as a version and shows the one chosen, which the story continues from", async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    const first = await play(client, storyId, 'I unfold the map');
    const second = (await client.post(`/api/story/${storyId}/retry`)).json();
    const third = (await client.post(`/api/story/${storyId}/retry`)).json();
    expect([third.messageId, third.version, third.versions]).toEqual([first.messageId, 3, 3]);
    expect(new Set([first.message, second.message, third.message]).size).toBe(3);

    const chosen = await client.post(`/api/story/${storyId}/messages/${first.messageId}/select`, { version: 2 });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toEqual({
      messageId: first.messageId,
      role: 'assistant',
      content: second.message,
      version: 2,
      versions: 3,
      // What that version cost, as 'Try again' answered it.
      usage: second.usage,
    });
    const shown = (await state(client, storyId)).messages.at(-1)!;
    expect(shown).toMatchObject({ messageId: first.messageId, content: second.message, version: 2, versions: 3 });

    sent.length = 0;
    await play(client, storyId, 'I follow the new street');
    const recent = promptText();
    expect(recent).toContain(second.message);
    expect(recent).not.toContain(third.message);
  });

  it('refuses a version the message does not have, and a bad version, with a message', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(client);
    const missing = await client.post(`/api/story/${storyId}/messages/${messageId}/select`, { version: 2 });
    expect([missing.statusCode, missing.json()]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'That version does not exist.' },
    ]);
    const zero = await client.post(`/api/story/${storyId}/messages/${messageId}/select`, { version: 0 });
    expect([zero.statusCode, zero.json().message]).toEqual([400, 'Version must be a whole number from 1']);
    const same = await client.post(`/api/story/${storyId}/messages/${messageId}/select`, { version: 1 });
    expect([same.statusCode, same.json().versions]).toEqual([200, 1]);
  });
});

describe('editing a message', () => {
  it('makes each edit a version, lists them, restores any, and the narrator sees the edited text', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    const reply = await play(client, storyId, 'I ask the baker for directions');
    const action = (await state(client, storyId)).messages[2];

    const edited = await edit(client, storyId, reply.messageId, {
      content: '  The baker points north, flour on his sleeve.  ',
      baseVersion: 1,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toEqual({
      messageId: reply.messageId,
      role: 'assistant',
      content: 'The baker points north, flour on his sleeve.',
      version: 2,
      versions: 2,
    });
    const actionEdit = await edit(client, storyId, action.messageId, {
      content: 'I ask the baker, politely, for directions',
      baseVersion: 1,
    });
    expect(actionEdit.json()).toMatchObject({ role: 'user', version: 2, versions: 2 });

    const history = (await client.get(`/api/story/${storyId}/messages/${reply.messageId}/versions`)).json();
    expect(history).toMatchObject({ messageId: reply.messageId, role: 'assistant', version: 2 });
    expect(
      history.versions.map((v: { version: number; kind: string; content: string }) => [v.version, v.kind, v.content]),
    ).toEqual([
      [1, 'original', reply.message],
      [2, 'edit', 'The baker points north, flour on his sleeve.'],
    ]);

    sent.length = 0;
    await play(client, storyId, 'I walk north');
    const prompt = promptText();
    expect(prompt).toContain('The baker points north, flour on his sleeve.');
    expect(prompt).toContain('I ask the baker, politely, for directions');
    expect(prompt).not.toContain(reply.message);

    const restored = await client.post(`/api/story/${storyId}/messages/${reply.messageId}/select`, { version: 1 });
    expect(restored.json()).toMatchObject({ content: reply.message, version: 1, versions: 2 });
  });

  it('answers a stale edit (another tab changed the message) with 409 and the version shown, never overwriting it', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(client);
    expect(
      (await edit(client, storyId, messageId, { content: 'Tab one wrote this.', baseVersion: 1 })).statusCode,
    ).toBe(200);
    const stale = await edit(client, storyId, messageId, { content: 'Tab two wrote this.', baseVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      code: 'CONFLICT',
      message:
        'This message was changed in another tab. Its current text is shown: make your change again if you still want it.',
      current: { version: 2, content: 'Tab one wrote this.' },
    });
    expect((await state(client, storyId)).messages[1].content).toBe('Tab one wrote this.');
    const again = await edit(client, storyId, messageId, { content: 'Tab two wrote this.', baseVersion: 2 });
    expect(again.json()).toMatchObject({ content: 'Tab two wrote this.', version: 3, versions: 3 });
  });

  it('editing the premise message changes the pinned premise too', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    const premise = (await state(client, storyId)).messages[0];
    await edit(client, storyId, premise.messageId, { content: 'A cartographer maps a city that sinks at dawn' });
    expect((await client.get(`/api/story/${storyId}/memory`)).json().premise).toBe(
      'A cartographer maps a city that sinks at dawn',
    );
  });

  it('refuses empty or too long text, and a bad message id, with a message', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(client);
    await play(client, storyId, 'I wait');
    const action = (await state(client, storyId)).messages[2];
    const blank = await edit(client, storyId, messageId, { content: '   ' });
    expect([blank.statusCode, blank.json().message]).toEqual([400, 'Please enter the text.']);
    const missing = await edit(client, storyId, messageId, {});
    expect([missing.statusCode, missing.json().message]).toEqual([400, 'Please enter the text.']);
    const long = await edit(client, storyId, messageId, { content: 'x'.repeat(20_001) });
    expect([long.statusCode, long.json().message]).toEqual([400, 'The text must be at most 20,000 characters.']);
    const longAction = await edit(client, storyId, action.messageId, { content: 'x'.repeat(2001) });
    expect([longAction.statusCode, longAction.json().message]).toEqual([
      400,
      'Your action must be at most 2000 characters.',
    ]);
    const badId = await edit(client, storyId, 'abc', { content: 'Hello' });
    expect([badId.statusCode, badId.json().message]).toEqual([400, 'Message id must be a number']);
    expect((await state(client, storyId)).messages[2].content).toBe('I wait');
  });
});

describe('undo, redo and erase from here', () => {
  it('undoes turn by turn back to the opening and redoes them in order', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    await play(client, storyId, 'I climb the bell tower');
    await play(client, storyId, 'I ring the bell');
    const full = contents((await state(client, storyId)).messages);

    const once = await client.post(`/api/story/${storyId}/undo`);
    expect(once.statusCode).toBe(200);
    expect(contents(once.json().messages)).toEqual(full.slice(0, 4));
    expect(once.json().canRedo).toBe(true);
    const twice = (await client.post(`/api/story/${storyId}/undo`)).json();
    expect(contents(twice.messages)).toEqual(full.slice(0, 2));
    const none = await client.post(`/api/story/${storyId}/undo`);
    expect([none.statusCode, none.json()]).toEqual([
      409,
      { code: 'CONFLICT', message: 'There is no turn to take back.' },
    ]);

    expect(contents((await client.post(`/api/story/${storyId}/redo`)).json().messages)).toEqual(full.slice(0, 4));
    const back = (await client.post(`/api/story/${storyId}/redo`)).json();
    expect([contents(back.messages), back.canRedo]).toEqual([full, false]);
    const nothing = await client.post(`/api/story/${storyId}/redo`);
    expect([nothing.statusCode, nothing.json().message]).toEqual([409, 'There is nothing to redo.']);
  });

  it('ends redo when a new action is sent, keeping the undone turn out of the story', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    await play(client, storyId, 'I open the red door');
    await client.post(`/api/story/${storyId}/undo`);
    await play(client, storyId, 'I open the blue door');
    const after = await state(client, storyId);
    expect(after.canRedo).toBe(false);
    expect(contents(after.messages)).not.toContain('I open the red door');
    expect((await client.post(`/api/story/${storyId}/redo`)).statusCode).toBe(409);
  });

  it('redoes what was taken back last, never a turn a new action had ended redo for', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    await play(client, storyId, 'I open the red door');
    const opening = contents((await state(client, storyId)).messages).slice(0, 2);
    await client.post(`/api/story/${storyId}/undo`);
    await play(client, storyId, 'I open the blue door');
    const blue = (await state(client, storyId)).messages;

    // Erased and then undone, the blue door's turn is what redo brings back, each time.
    for (const takeBack of [
      () => client.post(`/api/story/${storyId}/erase`, { fromMessageId: blue[2].messageId }),
      () => client.post(`/api/story/${storyId}/undo`),
    ]) {
      const taken = await takeBack();
      expect(contents(taken.json().messages)).toEqual(opening);
      expect((await state(client, storyId)).canRedo).toBe(true);
      const redone = await client.post(`/api/story/${storyId}/redo`);
      expect(contents(redone.json().messages)).toEqual(contents(blue));
      expect((await state(client, storyId)).canRedo).toBe(false);
    }
    expect(contents((await state(client, storyId)).messages)).not.toContain('I open the red door');
  });

  it('erases a message and everything after it, which redo brings back; the opening stays', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId: opening } = await startStory(client);
    await play(client, storyId, 'I follow the river');
    await play(client, storyId, 'I cross the bridge');
    const full = (await state(client, storyId)).messages;

    const erased = await client.post(`/api/story/${storyId}/erase`, { fromMessageId: full[2].messageId });
    expect(erased.statusCode).toBe(200);
    expect(contents(erased.json().messages)).toEqual(contents(full.slice(0, 2)));
    const restored = (await client.post(`/api/story/${storyId}/redo`)).json();
    expect(contents(restored.messages)).toEqual(contents(full));

    for (const fromMessageId of [full[0].messageId, opening]) {
      const refused = await client.post(`/api/story/${storyId}/erase`, { fromMessageId });
      expect([refused.statusCode, refused.json().message]).toEqual([400, 'The opening of the story cannot be erased.']);
    }
    const bad = await client.post(`/api/story/${storyId}/erase`, { fromMessageId: 'x' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Message id must be a number']);
  });

  it('replaces an unanswered action with a new one, keeping the old words in its history', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    const reply = await play(client, storyId, 'I shout into the well');
    // Erasing the reply leaves the action unanswered, as a failed reply does.
    await client.post(`/api/story/${storyId}/erase`, { fromMessageId: reply.messageId });
    const action = (await state(client, storyId)).messages[2];
    await play(client, storyId, 'I drop a coin into the well');
    const after = await state(client, storyId);
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(after.messages[2]).toMatchObject({
      messageId: action.messageId,
      content: 'I drop a coin into the well',
      version: 2,
      versions: 2,
    });
    const history = (await client.get(`/api/story/${storyId}/messages/${action.messageId}/versions`)).json().versions;
    expect(history.map((v: { kind: string; content: string }) => [v.kind, v.content])).toEqual([
      ['original', 'I shout into the well'],
      ['replacement', 'I drop a coin into the well'],
    ]);
    // The erased reply answered the old words: redo cannot bring it back under the new ones.
    expect(after.canRedo).toBe(false);
  });
});

describe('guards', () => {
  it('answers 409 to every change while a reply is being written', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(client);
    await play(client, storyId, 'I wait for the tide');
    await client.post(`/api/story/${storyId}/undo`);
    const until = new Date(ctx.clock.now.getTime() + 60_000);
    await ctx.database.executeSql('update stories set generating_until = $1 where id = $2', [
      until.toISOString(),
      storyId,
    ]);
    const changes = [
      client.post(`/api/story/${storyId}/undo`),
      client.post(`/api/story/${storyId}/redo`),
      client.post(`/api/story/${storyId}/erase`, { fromMessageId: messageId }),
      edit(client, storyId, messageId, { content: 'Changed mid-reply' }),
      client.post(`/api/story/${storyId}/messages/${messageId}/select`, { version: 1 }),
    ];
    for (const res of await Promise.all(changes)) {
      expect([res.statusCode, res.json().message]).toEqual([
        409,
        'The narrator is still writing the last reply. Please wait for it to finish.',
      ]);
    }
    expect((await client.get(`/api/story/${storyId}/messages/${messageId}/versions`)).statusCode).toBe(200);
    ctx.clock.advance(61_000);
    expect((await client.post(`/api/story/${storyId}/redo`)).statusCode).toBe(200);
  });

  it("answers 404 for another player's story or message, and for a message of another story", async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(owner.client);
    const elsewhere = await startStory(owner.client, 'A second story entirely');
    const storyGone = { code: 'NOT_FOUND', message: 'Story not found' };
    const requests = [
      other.client.post(`/api/story/${storyId}/undo`),
      other.client.post(`/api/story/${storyId}/redo`),
      other.client.post(`/api/story/${storyId}/erase`, { fromMessageId: messageId }),
      other.client.get(`/api/story/${storyId}/messages/${messageId}/versions`),
      edit(other.client, storyId, messageId, { content: 'Not mine' }),
      other.client.post(`/api/story/${storyId}/messages/${messageId}/select`, { version: 1 }),
      owner.client.post('/api/story/99999999/undo'),
    ];
    for (const res of await Promise.all(requests)) expect([res.statusCode, res.json()]).toEqual([404, storyGone]);
    const messageGone = { code: 'NOT_FOUND', message: 'Message not found in this story' };
    const wrongStory = [
      owner.client.get(`/api/story/${storyId}/messages/${elsewhere.messageId}/versions`),
      edit(owner.client, storyId, elsewhere.messageId, { content: 'Wrong story' }),
      owner.client.post(`/api/story/${storyId}/messages/${elsewhere.messageId}/select`, { version: 1 }),
      owner.client.post(`/api/story/${storyId}/erase`, { fromMessageId: elsewhere.messageId }),
    ];
    for (const res of await Promise.all(wrongStory)) expect([res.statusCode, res.json()]).toEqual([404, messageGone]);
    expect((await state(owner.client, storyId)).messages[1].content).not.toBe('Not mine');
  });

  it('keeps a shared snapshot as it was when the story is edited or undone later', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId, message } = await startStory(client);
    await play(client, storyId, 'I sign the map');
    const { shareId } = (await client.post(`/api/story/${storyId}/share`, { title: 'Maps' })).json();
    await edit(client, storyId, messageId, { content: 'An edited opening.' });
    await client.post(`/api/story/${storyId}/undo`);
    const shared = (await ctx.app.inject({ method: 'GET', url: `/api/shared/${shareId}` })).json();
    expect(shared.messages.map((m: { content: string }) => m.content)).toContain(message);
    expect(shared.messages.map((m: { content: string }) => m.content)).toContain('I sign the map');
  });
});
