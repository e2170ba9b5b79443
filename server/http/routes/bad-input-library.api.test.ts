// Bad input to the story library and a story as a file: GET /api/stories (paging and
// search), PATCH /api/story/{id} (rename), DELETE /api/story/{id}, GET /api/story/{id}/export and
// POST /api/story/import. Each refusal is a 4xx with the API's error and a message naming the
// field; other players' stories are the same 404 as a missing one; nothing is renamed, deleted or
// imported by a refused request. (An imported `turn` past int4 is another suite's.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ABSENT_IDS,
  expectRefusal,
  MALFORMED_IDS,
  MISSING_ID,
  sendRaw,
  STORY_ID_INVALID,
  STORY_NOT_FOUND,
  storySnapshot,
} from '@server/test/bad-input';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, TestClient, type RegisteredUser, type TestContext } from '@server/test/test-app';
import { STORY_TITLE_MAX_LENGTH } from '@shared/constants';
import { LIBRARY_MESSAGES } from '@shared/schemas/library';
import { STORY_FILE_MESSAGES, STORY_FILE_VERSION, STORY_IMPORT_MAX_BYTES } from '@shared/schemas/story-export';

let ctx: TestContext;
let owner: RegisteredUser;
let stranger: RegisteredUser;
let storyId: number;
let foreignStoryId: number;
const TITLE = 'The Lighthouse Door';

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await registerUser(ctx.app);
  stranger = await registerUser(ctx.app);
  ({ storyId } = await startStory(owner.client, 'A lighthouse keeper finds a door in the rock'));
  await play(owner.client, storyId, 'I open the door');
  expect(
    (await owner.client.request({ method: 'PATCH', url: `/api/story/${storyId}`, json: { title: TITLE } })).statusCode,
  ).toBe(200);
  ({ storyId: foreignStoryId } = await startStory(stranger.client, 'Someone else entirely'));
});
afterAll(() => ctx.close());

const rename = (client: TestClient, id: number | string, json: unknown) =>
  client.request({ method: 'PATCH', url: `/api/story/${id}`, json });
const remove = (client: TestClient, id: number | string) =>
  client.request({ method: 'DELETE', url: `/api/story/${id}`, json: {} });
const exportStory = (client: TestClient, id: number | string, format = 'json') =>
  client.get(`/api/story/${id}/export?format=${format}`);

describe('GET /api/stories', () => {
  it('refuses bad pages, limits and searches with their message', async () => {
    const cases: Array<[string, string]> = [
      ['page=0', LIBRARY_MESSAGES.pageInvalid],
      ['page=-1', LIBRARY_MESSAGES.pageInvalid],
      ['page=1.5', LIBRARY_MESSAGES.pageInvalid],
      ['page=abc', LIBRARY_MESSAGES.pageInvalid],
      ['page=', LIBRARY_MESSAGES.pageInvalid],
      ['page=1e3', LIBRARY_MESSAGES.pageInvalid],
      ['page=100001', LIBRARY_MESSAGES.pageInvalid],
      ['page=2147483648', LIBRARY_MESSAGES.pageInvalid],
      [`page=${'9'.repeat(400)}`, LIBRARY_MESSAGES.pageInvalid],
      ['page=1&page=2', LIBRARY_MESSAGES.pageInvalid],
      ['limit=0', LIBRARY_MESSAGES.limitInvalid],
      ['limit=51', LIBRARY_MESSAGES.limitInvalid],
      ['limit=-5', LIBRARY_MESSAGES.limitInvalid],
      ['limit=%205', LIBRARY_MESSAGES.limitInvalid],
      ['limit=0x10', LIBRARY_MESSAGES.limitInvalid],
      ['limit=1&limit=2', LIBRARY_MESSAGES.limitInvalid],
      [`q=${'x'.repeat(101)}`, LIBRARY_MESSAGES.queryTooLong],
      [`q=${'%C3%A9'.repeat(101)}`, LIBRARY_MESSAGES.queryTooLong],
      ['q=lamp&q=door', LIBRARY_MESSAGES.queryInvalid],
    ];
    for (const [query, message] of cases) expectRefusal(await owner.client.get(`/api/stories?${query}`), 400, message);
  });

  it('answers only the player\u2019s own stories whatever else the query names, and a page past the end as empty', async () => {
    const own = (await owner.client.get('/api/stories')).json();
    expect(own.stories.map((s: { id: number }) => s.id)).toEqual([storyId]);
    for (const query of [
      `userId=${stranger.id}`,
      `user=${stranger.username}`,
      'q=',
      'q=%25',
      'q=_',
      'q=%5C',
      'q=%E0%A4%A',
      'page[]=2',
      'sort=id%3Bdrop',
    ]) {
      const res = await owner.client.get(`/api/stories?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(
        res.json().stories.every((s: { id: number }) => s.id === storyId),
        query,
      ).toBe(true);
    }
    expect((await owner.client.get('/api/stories?page=100000&limit=50')).json()).toMatchObject({
      stories: [],
      page: 100000,
      total: 1,
    });
    expectRefusal(await new TestClient(ctx.app).get('/api/stories'), 401, 'Authentication required');
  });
});

describe('PATCH and DELETE /api/story/{id}', () => {
  it('refuses malformed ids, answers impossible and other players\u2019 ids as missing, and renames or deletes nothing', async () => {
    const mine = await storySnapshot(owner.client, storyId);
    const theirs = await storySnapshot(stranger.client, foreignStoryId);
    for (const id of MALFORMED_IDS) {
      expectRefusal(await rename(owner.client, id, { title: 'Renamed' }), 400, STORY_ID_INVALID);
      expectRefusal(await remove(owner.client, id), 400, STORY_ID_INVALID);
    }
    for (const id of ABSENT_IDS) {
      expectRefusal(await rename(owner.client, id, { title: 'Renamed' }), 404, STORY_NOT_FOUND);
      expectRefusal(await remove(owner.client, id), 404, STORY_NOT_FOUND);
    }
    const missingRename = await rename(owner.client, MISSING_ID, { title: 'Renamed' });
    const missingDelete = await remove(owner.client, MISSING_ID);
    expect([missingRename.statusCode, missingDelete.statusCode]).toEqual([404, 404]);
    const foreignRename = await rename(owner.client, foreignStoryId, { title: 'Renamed' });
    const foreignDelete = await remove(owner.client, foreignStoryId);
    expect([foreignRename.statusCode, foreignRename.json()]).toEqual([404, missingRename.json()]);
    expect([foreignDelete.statusCode, foreignDelete.json()]).toEqual([404, missingDelete.json()]);
    // A delete's body is never read: it cannot name another story.
    expect(
      (await owner.client.request({ method: 'DELETE', url: `/api/story/${MISSING_ID}`, json: { storyId } })).statusCode,
    ).toBe(404);
    expectRefusal(await sendRaw(owner.client, 'DELETE', `/api/story/${storyId}`, '', 'text/plain'), 415);
    expect(await storySnapshot(owner.client, storyId)).toEqual(mine);
    expect(await storySnapshot(stranger.client, foreignStoryId)).toEqual(theirs);
  });

  it('refuses a title that is missing, not text, blank or too long, and keeps the title', async () => {
    const before = await storySnapshot(owner.client, storyId);
    for (const title of [undefined, null, 5, true, ['A title'], { text: 'A title' }, '', '  \n ']) {
      expectRefusal(await rename(owner.client, storyId, { title }), 400, LIBRARY_MESSAGES.titleRequired);
    }
    expectRefusal(
      await rename(owner.client, storyId, { title: 'x'.repeat(STORY_TITLE_MAX_LENGTH + 1) }),
      400,
      LIBRARY_MESSAGES.titleTooLong,
    );
    expectRefusal(
      await rename(owner.client, storyId, { title: 'x'.repeat(100_000) }),
      413,
      'Request body is too large',
    );
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
    const listed = (await owner.client.get('/api/stories')).json().stories[0];
    expect(listed.title).toBe(TITLE);
  });
});

describe('GET /api/story/{id}/export', () => {
  it('refuses a format it does not make and malformed ids; other players\u2019 stories are missing ones', async () => {
    for (const format of ['', 'xml', 'JSON', 'json&format=markdown', 'x'.repeat(5000)]) {
      expectRefusal(await exportStory(owner.client, storyId, format), 400, STORY_FILE_MESSAGES.formatInvalid);
    }
    expectRefusal(await owner.client.get(`/api/story/${storyId}/export`), 400, STORY_FILE_MESSAGES.formatInvalid);
    for (const id of MALFORMED_IDS) expectRefusal(await exportStory(owner.client, id), 400, STORY_ID_INVALID);
    for (const id of ABSENT_IDS) expectRefusal(await exportStory(owner.client, id, 'markdown'), 404, STORY_NOT_FOUND);
    const missing = await exportStory(owner.client, MISSING_ID);
    for (const format of ['json', 'markdown']) {
      const foreign = await exportStory(owner.client, foreignStoryId, format);
      expect([foreign.statusCode, foreign.json()]).toEqual([404, missing.json()]);
      expect(foreign.headers['content-disposition']).toBeUndefined();
    }
    expectRefusal(await exportStory(new TestClient(ctx.app), storyId), 401, 'Authentication required');
  });
});

describe('POST /api/story/import', () => {
  it('refuses what is not a story file with a message, and imports nothing', async () => {
    // Its own player: every import attempt counts toward the hourly limit (30).
    const importer = await registerUser(ctx.app);
    const now = new Date().toISOString();
    const valid = {
      format: 'taleweaver.story',
      version: 2,
      exportedAt: now,
      story: { title: 'Imported', premise: 'A premise', memory: '', memoryCovers: 0, notes: '', createdAt: now },
      messages: [{ role: 'user', content: 'A premise', turn: 0, isInitial: true, createdAt: now }],
    };
    const damaged: unknown[] = [
      {},
      { ...valid, format: 'other.story' },
      { ...valid, version: '2' },
      { ...valid, version: 0 },
      { ...valid, version: -2 },
      { ...valid, exportedAt: 'yesterday' },
      { ...valid, story: null },
      { ...valid, story: [] },
      { ...valid, story: { ...valid.story, title: '   ' } },
      { ...valid, story: { ...valid.story, title: 'x'.repeat(STORY_TITLE_MAX_LENGTH + 1) } },
      { ...valid, story: { ...valid.story, premise: 42 } },
      { ...valid, story: { ...valid.story, memoryCovers: -1 } },
      { ...valid, story: { ...valid.story, memoryCovers: 2 } },
      { ...valid, messages: [] },
      { ...valid, messages: {} },
      { ...valid, messages: [null] },
      { ...valid, messages: [{ ...valid.messages[0], role: 'system' }] },
      { ...valid, messages: [{ ...valid.messages[0], isInitial: false }] },
      { ...valid, messages: [{ ...valid.messages[0], content: '' }] },
      { ...valid, messages: [valid.messages[0], { ...valid.messages[0], turn: 1 }] },
      { ...valid, messages: [{ ...valid.messages[0], image: { hash: '../../etc/passwd', alt: '' } }] },
    ];
    for (const file of damaged) {
      const res = await importer.client.post('/api/story/import', file);
      expectRefusal(res, 400);
      expect(res.json().message.startsWith(STORY_FILE_MESSAGES.notAStoryFile), res.body).toBe(true);
    }
    expectRefusal(
      await importer.client.post('/api/story/import', { ...valid, version: STORY_FILE_VERSION + 1 }),
      400,
      STORY_FILE_MESSAGES.newerVersion,
    );
    expectRefusal(
      await sendRaw(importer.client, 'POST', '/api/story/import', 'x'.repeat(STORY_IMPORT_MAX_BYTES + 1)),
      413,
      STORY_FILE_MESSAGES.tooLarge,
    );
    expectRefusal(
      await sendRaw(importer.client, 'POST', '/api/story/import', JSON.stringify(valid), 'text/markdown'),
      415,
    );
    expectRefusal(await new TestClient(ctx.app).post('/api/story/import', valid), 401, 'Authentication required');
    expect((await importer.client.get('/api/stories')).json()).toMatchObject({ stories: [], total: 0 });
  });
});
