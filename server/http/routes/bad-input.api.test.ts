// Bad input every write added since the first release must refuse the same way: bodies
// that are not JSON, not an object or absurdly nested, a body type other than JSON, text holding
// U+0000 (PostgreSQL cannot store it; once a 500 everywhere it reached a query), and paths that are
// not valid percent-encoding. Each is a 4xx with the API's `{message, code}` and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKEN_ENCODING, expectRefusal, sendRaw, storySnapshot, TRANSPORT_JUNK } from '@server/test/bad-input';
import { play, startStory } from '@server/test/story-turns';
import {
  registerUser,
  TestClient,
  type RegisteredUser,
  type TestContext,
  createPaintingTestApp,
} from '@server/test/test-app';

const NUL_MESSAGE = 'Text cannot contain the NUL character (U+0000). Remove it and try again.';
const BAD_URL_MESSAGE = 'This address is not valid. Check the link and try again.';

let ctx: TestContext;
let owner: RegisteredUser;
let admin: RegisteredUser;
let storyId: number;
let replyId: number;

beforeAll(async () => {
  ctx = await createPaintingTestApp({ adminUsernames: ['boss'] });
  owner = await registerUser(ctx.app);
  admin = await registerUser(ctx.app, { username: 'boss' });
  ({ storyId } = await startStory(owner.client, 'A lighthouse keeper finds a door in the rock'));
  replyId = (await play(owner.client, storyId, 'I open the door')).messageId;
  await play(owner.client, storyId, 'I go down the stairs');
});
afterAll(() => ctx.close());

const now = () => new Date().toISOString();
/** A valid story file whose title is `title`. */
const storyFile = (title: string) => ({
  format: 'taleweaver.story',
  version: 2,
  exportedAt: now(),
  story: { title, premise: 'A premise', memory: '', memoryCovers: 0, notes: '', createdAt: now() },
  messages: [{ role: 'user', content: 'A premise', turn: 0, isInitial: true, createdAt: now() }],
});

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Write {
  name: string;
  method: Method;
  url: () => string;
  /** Bodies that would be accepted but for the U+0000 in one of their texts. */
  withNul: () => unknown[];
  /** The refusal's words when they are the route's own (a story file names the field, like its other problems). */
  nulMessage?: string;
}

const NUL = 'before\u0000after';
const WRITES: Write[] = [
  {
    name: 'memory panel',
    method: 'PUT',
    url: () => `/api/story/${storyId}/memory`,
    withNul: () => [
      { premise: NUL, summary: '', notes: '' },
      { premise: 'A premise', summary: NUL, notes: '' },
      { premise: 'A premise', summary: '', notes: NUL },
    ],
  },
  {
    name: 'erase',
    method: 'POST',
    url: () => `/api/story/${storyId}/erase`,
    withNul: () => [{ fromMessageId: replyId, [NUL]: 1 }],
  },
  {
    name: 'branch',
    method: 'POST',
    url: () => `/api/story/${storyId}/branch`,
    withNul: () => [{ messageId: replyId, note: NUL }],
  },
  {
    name: 'edit',
    method: 'PATCH',
    url: () => `/api/story/${storyId}/messages/${replyId}`,
    withNul: () => [{ content: NUL }, { content: 'ok', baseVersion: 1, note: [NUL] }],
  },
  {
    name: 'select',
    method: 'POST',
    url: () => `/api/story/${storyId}/messages/${replyId}/select`,
    withNul: () => [{ version: 1, note: NUL }],
  },
  { name: 'rename', method: 'PATCH', url: () => `/api/story/${storyId}`, withNul: () => [{ title: NUL }] },
  {
    name: 'style sheet',
    method: 'PUT',
    url: () => `/api/story/${storyId}/style-sheet`,
    withNul: () => [
      { artStyle: NUL, player: '', characters: [] },
      { artStyle: '', player: '', characters: [{ name: NUL }] },
    ],
  },
  {
    name: 'generate-image',
    method: 'POST',
    url: () => `/api/story/message/${replyId}/generate-image`,
    withNul: () => [{ content: NUL, storyId }],
  },
  {
    name: 'generate-initial-image',
    method: 'POST',
    url: () => `/api/story/message/${replyId}/generate-initial-image`,
    withNul: () => [{ content: NUL, storyId }],
  },
  {
    name: 'import',
    method: 'POST',
    url: () => '/api/story/import',
    withNul: () => [storyFile(NUL)],
    nulMessage:
      'This file is not a story exported from Taleweaver, or it is damaged (must not contain the NUL character (U+0000) at story.title).',
  },
  { name: 'delete account', method: 'DELETE', url: () => '/api/user', withNul: () => [{ password: NUL }] },
];

describe('bodies every new JSON write refuses', () => {
  it('answers non-JSON, a non-JSON type, non-objects and deep nesting with a 4xx and the API error, changing nothing', async () => {
    const before = await storySnapshot(owner.client, storyId);
    for (const write of WRITES) {
      for (const junk of TRANSPORT_JUNK) {
        const res = await sendRaw(owner.client, write.method, write.url(), junk.payload, junk.type);
        expectRefusal(res, junk.status);
        if (junk.status === 415)
          expect(res.json().message).toBe('Request body must be JSON (Content-Type: application/json)');
        if (junk.label === 'not JSON')
          expect(res.json()).toEqual({ message: 'Request body is not valid JSON', code: 'BAD_JSON' });
      }
      // No type at all is no JSON either.
      expectRefusal(await owner.client.request({ method: write.method, url: write.url(), payload: '{}' }), 415);
    }
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
    expect((await owner.client.get('/api/user')).statusCode).toBe(200);
  });

  it('refuses U+0000 in any text of a body, a key included, with a message, and stores nothing', async () => {
    const before = await storySnapshot(owner.client, storyId);
    for (const write of WRITES) {
      for (const body of write.withNul()) {
        expectRefusal(
          await owner.client.request({ method: write.method, url: write.url(), json: body }),
          400,
          write.nulMessage ?? NUL_MESSAGE,
        );
      }
    }
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
    expect((await owner.client.get('/api/user')).statusCode).toBe(200);
  });

  it('takes the six characters \\u0000 as text: only the character itself is refused', async () => {
    const { storyId: spare } = await startStory(owner.client, 'A spare story to rename');
    const res = await owner.client.request({
      method: 'PATCH',
      url: `/api/story/${spare}`,
      json: { title: 'Escape \\u0000 kept' },
    });
    expect([res.statusCode, res.json().title]).toEqual([200, 'Escape \\u0000 kept']);
    const raw = await sendRaw(owner.client, 'PATCH', `/api/story/${spare}`, '{"title":"Two \\\\u0000 backslashes"}');
    expect([raw.statusCode, raw.json().title]).toEqual([200, 'Two \\u0000 backslashes']);
  });
});

describe('queries and paths', () => {
  it('refuses U+0000 in a search with a message instead of failing on the database', async () => {
    expectRefusal(await owner.client.get('/api/stories?q=%00'), 400, NUL_MESSAGE);
    expectRefusal(await owner.client.get('/api/stories?q=lamp%00room'), 400, NUL_MESSAGE);
    expectRefusal(await admin.client.get('/api/admin/users?q=%00'), 400, NUL_MESSAGE);
    expectRefusal(await admin.client.get('/api/admin/users?q=a&q=%00'), 400, NUL_MESSAGE);
    // %2500 is the text "%00", which is a search like any other.
    expect((await owner.client.get('/api/stories?q=%2500')).json()).toMatchObject({ stories: [], total: 0 });
  });

  it('keeps the rule for the first release\u2019s calls too: sign-in, the name check and a turn refuse U+0000 as well', async () => {
    const visitor = new TestClient(ctx.app);
    expectRefusal(await visitor.post('/api/login', { username: NUL, password: 'long enough' }), 400, NUL_MESSAGE);
    expectRefusal(await visitor.get('/api/check-username?username=ab%00cd'), 400, NUL_MESSAGE);
    const before = await storySnapshot(owner.client, storyId);
    expectRefusal(await owner.client.post(`/api/story/${storyId}/continue`, { message: NUL }), 400, NUL_MESSAGE);
    expect(await storySnapshot(owner.client, storyId)).toEqual(before);
  });

  it('answers a path that is not valid percent-encoding with the API error, not the router\u2019s', async () => {
    const urls: Array<[string, string]> = [
      ['GET', `/api/story/${BROKEN_ENCODING}/memory`],
      ['POST', `/api/story/${BROKEN_ENCODING}/undo`],
      ['PATCH', `/api/story/${storyId}/messages/${BROKEN_ENCODING}`],
      ['GET', `/api/story/${BROKEN_ENCODING}/export?format=json`],
      ['GET', `/api/images/${BROKEN_ENCODING}`],
      ['GET', `/api/story/${storyId}/messages/${replyId}/speech/${BROKEN_ENCODING}?voice=nova`],
      ['GET', `/api/admin/users/${BROKEN_ENCODING}/usage`],
    ];
    for (const [method, url] of urls) {
      const res = await owner.client.request({
        method: method as 'GET',
        url,
        ...(method === 'GET' ? {} : { json: {} }),
      });
      expectRefusal(res, 400, BAD_URL_MESSAGE);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    // A path segment over the router's 100 characters: 414 as before, in the API's words.
    const long = await owner.client.get(`/api/story/${'9'.repeat(150)}/memory`);
    expectRefusal(long, 414, BAD_URL_MESSAGE);
    expect(long.body).not.toContain('9'.repeat(150));
  });
});
