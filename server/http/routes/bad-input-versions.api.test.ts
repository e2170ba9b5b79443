// Bad input to the player's controls and the story memory panel: undo, redo, erase,
// branch, a message's versions, edit and select, a story's branches, GET/PUT memory. Malformed ids
// are 400s with the id's message, ids no row can have and other players' stories and messages are
// the same 404 as a missing one, bad bodies name the field; the story reads the same afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ABSENT_IDS,
  BEYOND_INT4,
  expectRefusal,
  MALFORMED_IDS,
  MISSING_ID,
  STORY_ID_INVALID,
  STORY_NOT_FOUND,
  storySnapshot,
} from '@server/test/bad-input';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, TestClient, type RegisteredUser, type TestContext } from '@server/test/test-app';
import { STORY_PREMISE_MAX_LENGTH } from '@shared/constants';

const MESSAGE_ID_INVALID = 'Message id must be a number';
const MESSAGE_NOT_FOUND = 'Message not found in this story';
const VERSION_INVALID = 'Version must be a whole number from 1';

let ctx: TestContext;
let owner: RegisteredUser;
let stranger: RegisteredUser;
/** The owner's story: three turns, an alternative, an edit, and an undone turn redo would bring back. */
let storyId: number;
let premiseId: number;
let replyId: number;
/** The owner's second story, and one of its replies (a message of theirs, but not of `storyId`). */
let otherStoryId: number;
let otherReplyId: number;
/** Another player's story and reply. */
let foreignStoryId: number;
let foreignReplyId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await registerUser(ctx.app);
  stranger = await registerUser(ctx.app);
  ({ storyId } = await startStory(owner.client, 'A cartographer maps a city that rearranges itself at night'));
  replyId = (await play(owner.client, storyId, 'I unfold the map')).messageId;
  expect((await owner.client.post(`/api/story/${storyId}/retry`)).statusCode).toBe(200);
  expect(
    (
      await owner.client.request({
        method: 'PATCH',
        url: `/api/story/${storyId}/messages/${replyId}`,
        json: { content: 'The map is blank.' },
      })
    ).statusCode,
  ).toBe(200);
  await play(owner.client, storyId, 'I follow the new street');
  await play(owner.client, storyId, 'I knock on the blue door');
  expect((await owner.client.post(`/api/story/${storyId}/undo`)).statusCode).toBe(200);
  premiseId = (await owner.client.get(`/api/story/${storyId}/current-state`)).json().messages[0].messageId;
  ({ storyId: otherStoryId, messageId: otherReplyId } = await startStory(
    owner.client,
    'A second story of the same player',
  ));
  ({ storyId: foreignStoryId, messageId: foreignReplyId } = await startStory(stranger.client, 'Someone else entirely'));
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
interface Route {
  method: Method;
  url: (story: string | number, message: string | number) => string;
  body?: () => unknown;
  /** Whether the message id in the path is looked up. */
  takesMessage: boolean;
}

const ROUTES: Route[] = [
  { method: 'POST', url: (s) => `/api/story/${s}/undo`, takesMessage: false },
  { method: 'POST', url: (s) => `/api/story/${s}/redo`, takesMessage: false },
  {
    method: 'POST',
    url: (s) => `/api/story/${s}/erase`,
    body: () => ({ fromMessageId: replyId }),
    takesMessage: false,
  },
  { method: 'POST', url: (s) => `/api/story/${s}/branch`, body: () => ({ messageId: replyId }), takesMessage: false },
  { method: 'GET', url: (s) => `/api/story/${s}/branches`, takesMessage: false },
  { method: 'GET', url: (s) => `/api/story/${s}/memory`, takesMessage: false },
  {
    method: 'PUT',
    url: (s) => `/api/story/${s}/memory`,
    body: () => ({ premise: 'Changed', summary: '', notes: 'x' }),
    takesMessage: false,
  },
  { method: 'GET', url: (s, m) => `/api/story/${s}/messages/${m}/versions`, takesMessage: true },
  {
    method: 'PATCH',
    url: (s, m) => `/api/story/${s}/messages/${m}`,
    body: () => ({ content: 'Overwritten' }),
    takesMessage: true,
  },
  {
    method: 'POST',
    url: (s, m) => `/api/story/${s}/messages/${m}/select`,
    body: () => ({ version: 1 }),
    takesMessage: true,
  },
];

const send = (client: TestClient, route: Route, story: string | number, message: string | number) =>
  client.request({
    method: route.method,
    url: route.url(story, message),
    ...(route.method === 'GET' ? {} : { json: route.body?.() ?? {} }),
  });

describe('path ids', () => {
  it('refuses malformed story and message ids with their message, and takes impossible ones as not found', async () => {
    const before = await storySnapshot(owner.client, storyId);
    for (const route of ROUTES) {
      for (const id of MALFORMED_IDS) {
        expectRefusal(await send(owner.client, route, id, replyId), 400, STORY_ID_INVALID);
        if (route.takesMessage) expectRefusal(await send(owner.client, route, storyId, id), 400, MESSAGE_ID_INVALID);
      }
      for (const id of ABSENT_IDS) {
        expectRefusal(await send(owner.client, route, id, replyId), 404, STORY_NOT_FOUND);
        if (route.takesMessage) expectRefusal(await send(owner.client, route, storyId, id), 404, MESSAGE_NOT_FOUND);
      }
    }
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
  });

  it('answers another player\u2019s story, and a message of another story, exactly as a missing one, changing neither story', async () => {
    const mine = await storySnapshot(owner.client, storyId);
    const theirs = await storySnapshot(stranger.client, foreignStoryId);
    for (const route of ROUTES) {
      const missingStory = await send(owner.client, route, MISSING_ID, replyId);
      expectRefusal(missingStory, 404, STORY_NOT_FOUND);
      const foreignStory = await send(owner.client, route, foreignStoryId, foreignReplyId);
      expect([foreignStory.statusCode, foreignStory.json()]).toEqual([404, missingStory.json()]);
      if (!route.takesMessage) continue;
      const missingMessage = await send(owner.client, route, storyId, MISSING_ID);
      expectRefusal(missingMessage, 404, MESSAGE_NOT_FOUND);
      for (const message of [foreignReplyId, otherReplyId]) {
        const res = await send(owner.client, route, storyId, message);
        expect([res.statusCode, res.json()]).toEqual([404, missingMessage.json()]);
      }
      // The owner's own message named under their other story.
      const crossed = await send(owner.client, route, otherStoryId, replyId);
      expect([crossed.statusCode, crossed.json()]).toEqual([404, missingMessage.json()]);
    }
    // Ids in the body: erase and branch from another player's message, or another story's.
    for (const path of ['erase', 'branch'] as const) {
      const field = path === 'erase' ? 'fromMessageId' : 'messageId';
      const missing = await owner.client.post(`/api/story/${storyId}/${path}`, { [field]: MISSING_ID });
      expectRefusal(missing, 404, MESSAGE_NOT_FOUND);
      for (const message of [foreignReplyId, otherReplyId]) {
        const res = await owner.client.post(`/api/story/${storyId}/${path}`, { [field]: message });
        expect([res.statusCode, res.json()]).toEqual([404, missing.json()]);
      }
    }
    expect(await storySnapshot(owner.client, storyId)).toEqual(mine);
    expect(await storySnapshot(stranger.client, foreignStoryId)).toEqual(theirs);
  });

  it('tells a visitor to sign in, whatever the id', async () => {
    const visitor = new TestClient(ctx.app);
    for (const route of ROUTES) {
      for (const id of [storyId, foreignStoryId, MISSING_ID])
        expectRefusal(await send(visitor, route, id, replyId), 401, 'Authentication required');
    }
  });
});

describe('bodies', () => {
  it('refuses bad message ids and versions in erase, branch and select, by field, and changes nothing', async () => {
    const before = await storySnapshot(owner.client, storyId);
    const badIds: unknown[] = [
      undefined,
      null,
      '5',
      String(replyId),
      -1,
      0,
      1.5,
      1e300,
      true,
      [replyId],
      { id: replyId },
    ];
    for (const value of badIds) {
      expectRefusal(
        await owner.client.post(`/api/story/${storyId}/erase`, { fromMessageId: value }),
        400,
        MESSAGE_ID_INVALID,
      );
      expectRefusal(
        await owner.client.post(`/api/story/${storyId}/branch`, { messageId: value }),
        400,
        MESSAGE_ID_INVALID,
      );
      expectRefusal(
        await owner.client.post(`/api/story/${storyId}/messages/${replyId}/select`, { version: value }),
        400,
        VERSION_INVALID,
      );
    }
    // Beyond PostgreSQL's integer: a message or version that cannot exist.
    expectRefusal(
      await owner.client.post(`/api/story/${storyId}/erase`, { fromMessageId: BEYOND_INT4 }),
      404,
      MESSAGE_NOT_FOUND,
    );
    expectRefusal(
      await owner.client.post(`/api/story/${storyId}/branch`, { messageId: BEYOND_INT4 }),
      404,
      MESSAGE_NOT_FOUND,
    );
    expectRefusal(
      await owner.client.post(`/api/story/${storyId}/messages/${replyId}/select`, { version: BEYOND_INT4 }),
      404,
      'That version does not exist.',
    );
    expectRefusal(
      await owner.client.post(`/api/story/${storyId}/erase`, { fromMessageId: premiseId }),
      400,
      'The opening of the story cannot be erased.',
    );
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
  });

  it('refuses edits without text, of the wrong type, too long for the message or over the body limit, and keeps every version', async () => {
    const before = await storySnapshot(owner.client, storyId);
    const edit = (messageId: number, json: unknown) =>
      owner.client.request({ method: 'PATCH', url: `/api/story/${storyId}/messages/${messageId}`, json });
    for (const content of [undefined, null, 5, true, [], ['text'], { text: 'x' }, '', '   \n\t ']) {
      expectRefusal(await edit(replyId, { content }), 400, 'Please enter the text.');
    }
    expectRefusal(
      await edit(replyId, { content: 'x'.repeat(20_001) }),
      400,
      'The text must be at most 20,000 characters.',
    );
    expectRefusal(
      await edit(premiseId, { content: 'x'.repeat(STORY_PREMISE_MAX_LENGTH + 1) }),
      400,
      `Your scenario must be at most ${STORY_PREMISE_MAX_LENGTH} characters.`,
    );
    expectRefusal(await edit(replyId, { content: 'x'.repeat(70_000) }), 413, 'Request body is too large');
    for (const baseVersion of [0, -1, 1.5, '1', null, [1], 1e300]) {
      expectRefusal(await edit(replyId, { content: 'A fine edit', baseVersion }), 400, VERSION_INVALID);
    }
    // A version the message never had is stale like any other: the answer carries the one shown.
    const stale = await edit(replyId, { content: 'A fine edit', baseVersion: BEYOND_INT4 });
    expectRefusal(stale, 409);
    expect(stale.json().current).toEqual({ version: expect.any(Number), content: 'The map is blank.' });
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
  });

  it('refuses memory panel bodies with a field of the wrong type or too long, keeping the memory', async () => {
    const before = await storySnapshot(owner.client, storyId);
    const memoryBefore = (await owner.client.get(`/api/story/${storyId}/memory`)).json();
    const put = (json: unknown) => owner.client.request({ method: 'PUT', url: `/api/story/${storyId}/memory`, json });
    // A field left out is kept as it is; one of the wrong type is refused.
    const notText = 'Premise, memory and notes must each be a text (leave one out to keep it as it is).';
    const cases: Array<[unknown, string]> = [
      [{ premise: 'Kept', summary: null, notes: '' }, notText],
      [{ premise: 'Kept', summary: '', notes: 7 }, notText],
      [{ premise: 'Kept', summary: ['a'], notes: '' }, notText],
      [{ premise: 'Kept', summary: '', notes: { text: 'a' } }, notText],
      [{ summary: 7 }, notText],
      [{ premise: null, summary: '', notes: '' }, 'The premise cannot be empty.'],
      [{ premise: '  ', summary: '', notes: '' }, 'The premise cannot be empty.'],
      [{ premise: ['Kept'], summary: '', notes: '' }, 'The premise cannot be empty.'],
      [
        { premise: 'x'.repeat(STORY_PREMISE_MAX_LENGTH + 1), summary: '', notes: '' },
        `The premise must be at most ${STORY_PREMISE_MAX_LENGTH} characters.`,
      ],
      [{ premise: 'Kept', summary: 'x'.repeat(40_001), notes: '' }, 'The memory must be at most 40000 characters.'],
      [{ premise: 'Kept', summary: '', notes: 'x'.repeat(2_001) }, 'Notes must be at most 2000 characters.'],
    ];
    for (const [body, message] of cases) expectRefusal(await put(body), 400, message);
    expectRefusal(
      await put({ premise: 'Kept', summary: 'x'.repeat(70_000), notes: '' }),
      413,
      'Request body is too large',
    );
    expect((await owner.client.get(`/api/story/${storyId}/memory`)).json()).toEqual(memoryBefore);
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
  });

  it('ignores fields it does not know: they are neither stored nor answered', async () => {
    const { storyId: spare } = await startStory(owner.client, 'A spare story for the panel');
    const res = await owner.client.request({
      method: 'PUT',
      url: `/api/story/${spare}/memory`,
      json: JSON.stringify({
        premise: 'A new premise',
        summary: '',
        notes: 'A note',
        userId: stranger.id,
        storyId: foreignStoryId,
      }).replace(/}$/, ',"__proto__":{"polluted":true}}'),
    });
    expect([res.statusCode, res.json()]).toEqual([
      200,
      { premise: 'A new premise', summary: '', notes: 'A note', chunks: [] },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await stranger.client.get(`/api/story/${foreignStoryId}/memory`)).json().notes).toBe('');
  });
});
