// POST /api/story/import reads its file off the event loop: the body arrives as bytes and is parsed
// and checked whole in a worker thread, never by JSON.parse or the file schema on the server's own
// thread; the answers (the story made, or the one sentence of what is wrong) are those the app's
// JSON parser and the schema gave. A file at the size limit, thousands of versions long, comes
// back in parts and is imported whole. Text holding U+0000 anywhere in the file is refused by
// where it is, with nothing created.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storyFileSchema, STORY_FILE_FORMAT } from '@shared/schemas/story-export';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { painter: null });
});
afterAll(() => ctx.close());

const at = '2026-01-01T00:00:00.000Z';
const importFile = (client: TestClient, payload: string) =>
  client.request({
    method: 'POST',
    url: '/api/story/import',
    payload,
    headers: { 'content-type': 'application/json' },
  });

/** A valid file of `turns` turns; each reply with `versions` versions when more than one. */
function storyFile(turns: number, versions = 1) {
  const messages: object[] = [
    {
      role: 'user',
      content: 'A salt merchant hears the sea ask for its salt back',
      turn: 0,
      isInitial: true,
      createdAt: at,
    },
  ];
  for (let turn = 0; turn <= turns; turn += 1) {
    if (turn > 0)
      messages.push({ role: 'user', content: `I answer the sea, ${turn}`, turn, isInitial: false, createdAt: at });
    const history = Array.from({ length: versions }, (_, v) => ({
      kind: v === 0 ? 'original' : 'edit',
      content: `Reply ${turn}, version ${v + 1}`,
      createdAt: at,
    }));
    messages.push({
      role: 'assistant',
      content: history[versions - 1].content,
      turn,
      isInitial: false,
      createdAt: at,
      ...(versions > 1 ? { versions: history, version: versions } : {}),
    });
  }
  return {
    format: STORY_FILE_FORMAT,
    version: 2,
    exportedAt: at,
    story: {
      title: 'The Salt Sea',
      premise: 'A salt merchant hears the sea ask for its salt back',
      memory: '',
      memoryCovers: 0,
      notes: '',
      createdAt: at,
    },
    messages,
  };
}

const count = async (sql: string, values: unknown[]) =>
  ((await ctx.database.executeSql(sql, values)).rows[0] as { n: number }).n;

describe('POST /api/story/import, off the event loop', () => {
  it('never parses nor checks the file on the server\u2019s own thread', async () => {
    const { client } = await registerUser(ctx.app);
    const text = JSON.stringify(storyFile(300));
    const parse = vi.spyOn(JSON, 'parse');
    const check = vi.spyOn(storyFileSchema, 'safeParse');
    const checkThrowing = vi.spyOn(storyFileSchema, 'parse');
    try {
      const res = await importFile(client, text);
      expect(res.statusCode).toBe(201);
      expect(parse.mock.calls.filter(([input]) => typeof input === 'string' && input.length >= text.length)).toEqual(
        [],
      );
      expect(check).not.toHaveBeenCalled();
      expect(checkThrowing).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      check.mockRestore();
      checkThrowing.mockRestore();
    }
  });

  it('imports a file at the size limit whose many versions come back from the worker in parts', async () => {
    const { client } = await registerUser(ctx.app);
    const file = storyFile(290, 180);
    const text = JSON.stringify(file);
    expect(text.length).toBeGreaterThan(4.5 * 1024 * 1024);
    expect(text.length).toBeLessThan(5 * 1024 * 1024);
    const res = await importFile(client, text);
    expect(res.statusCode).toBe(201);
    const { storyId } = res.json();
    expect(await count('select count(*)::int as n from story_messages where story_id = $1', [storyId])).toBe(
      file.messages.length,
    );
    expect(
      await count(
        'select count(*)::int as n from message_versions v join story_messages m on m.id = v.message_id where m.story_id = $1',
        [storyId],
      ),
    ).toBe(291 * 180);
  });

  it('refuses a text holding U+0000 by name, where it was a 500, and creates nothing', async () => {
    const { client } = await registerUser(ctx.app);
    const before = await count('select count(*)::int as n from stories', []);
    const file = storyFile(2);
    (file.messages[1] as { content: string }).content = 'A reply with \u0000 in it';
    const res = await importFile(client, JSON.stringify(file));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message:
        'This file is not a story exported from Taleweaver, or it is damaged (must not contain the NUL character (U+0000) at messages.1.content).',
    });
    expect(await count('select count(*)::int as n from stories', [])).toBe(before);
  });

  it('refuses U+0000 wherever the file holds it, a card or a fact of the story bible too, where it was a 500', async () => {
    const { client } = await registerUser(ctx.app);
    const before = await count('select count(*)::int as n from stories', []);
    const refusal = (where: string) =>
      `This file is not a story exported from Taleweaver, or it is damaged (must not contain the NUL character (U+0000) at ${where}).`;
    const withCard = { ...storyFile(2), version: 3, cards: [{ name: 'Salt', keys: ['salt'], content: 'Sa\0lt.' }] };
    const fact = { message: 2, turn: 1, entity: 'the sea', attribute: 'na\0me', value: 'Mother', pinned: false };
    const withFact = { ...storyFile(2), version: 3, bible: [fact] };
    const withKey = { ...storyFile(2), version: 3, extra: { 'un\0used': true } };
    for (const [file, where] of [
      [withCard, 'cards.0.content'],
      [withFact, 'bible.0.attribute'],
      [withKey, 'extra.un\\u0000used'],
    ] as const) {
      const res = await importFile(client, JSON.stringify(file));
      expect([res.statusCode, res.json()]).toEqual([400, { code: 'VALIDATION_ERROR', message: refusal(where) }]);
    }
    expect(await count('select count(*)::int as n from stories', [])).toBe(before);
  });

  it('answers a body that is not JSON, or empty, as the app\u2019s JSON parser did', async () => {
    const { client } = await registerUser(ctx.app);
    const broken = await importFile(client, '{"format": "taleweaver.story", "vers');
    expect([broken.statusCode, broken.json()]).toEqual([
      400,
      { code: 'BAD_JSON', message: 'Request body is not valid JSON' },
    ]);
    const empty = await importFile(client, '  ');
    expect([empty.statusCode, empty.json().message]).toEqual([
      400,
      'This file is not a story exported from Taleweaver, or it is damaged (Invalid input: expected "taleweaver.story" at format).',
    ]);
  });
});
