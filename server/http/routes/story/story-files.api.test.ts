// A story as a file: Markdown and JSON exports (owner only), and a JSON file imported back as a new
// story with its messages, memory, notes and (for the same player) pictures. Every bad file gets one
// clear message and creates nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlePicture } from '@server/test/fake-painter';
import { registerUser, TestClient, type TestContext, createPaintingTestApp } from '@server/test/test-app';
import { STORY_FILE_VERSION } from '@shared/schemas/story-export';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createPaintingTestApp();
});
afterAll(() => ctx.close());

const PREMISE = 'A cartographer maps a valley that *moves* at night';

async function playedStory(client: TestClient, options: { pictures?: boolean } = {}) {
  if (options.pictures) await client.post('/api/preferences', { imageGeneration: true });
  const start = await client.post('/api/story/start', { prompt: PREMISE });
  expect(start.statusCode, start.body).toBe(200);
  const started = start.json();
  const turn = await client.post(`/api/story/${started.storyId}/continue`, {
    message: 'I open <b>the</b> map # and [read](it)',
  });
  // Checked here, so that a failed turn is named as such, not found later as a missing message.
  expect(turn.statusCode, turn.body).toBe(200);
  const reply = turn.json();
  if (options.pictures) {
    expect((await settlePicture(client, started.messageId)).statusCode).toBe(200);
    expect((await settlePicture(client, reply.messageId)).statusCode).toBe(200);
  }
  await client.request({
    method: 'PUT',
    url: `/api/story/${started.storyId}/memory`,
    json: { premise: PREMISE, summary: 'You met Ysolde.', notes: 'Keep it eerie.' },
  });
  await client.request({ method: 'PATCH', url: `/api/story/${started.storyId}`, json: { title: 'The Moving Valley' } });
  return started.storyId as number;
}

const importFile = (client: TestClient, payload: string) =>
  client.request({
    method: 'POST',
    url: '/api/story/import',
    payload,
    headers: { 'content-type': 'application/json' },
  });

async function storyCount(client: TestClient): Promise<number> {
  return (await client.get('/api/stories')).json().total;
}

describe('GET /api/story/{id}/export', () => {
  it('gives the owner the story as versioned JSON, as a download', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await playedStory(client);
    const res = await client.get(`/api/story/${storyId}/export?format=json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="the-moving-valley.taleweaver.json"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const file = res.json();
    expect(file).toMatchObject({
      format: 'taleweaver.story',
      version: 4,
      story: {
        title: 'The Moving Valley',
        premise: PREMISE,
        memory: 'You met Ysolde.',
        memoryCovers: 0,
        notes: 'Keep it eerie.',
        // The catalogue of one that LLM_* settings make.
        settings: { narrator: 'default' },
      },
    });
    expect(
      file.messages.map((m: { role: string; turn: number; isInitial: boolean }) => [m.role, m.turn, m.isInitial]),
    ).toEqual([
      ['user', 0, true],
      ['assistant', 0, false],
      ['user', 1, false],
      ['assistant', 1, false],
    ]);
    expect(file.messages[2].content).toBe('I open <b>the</b> map # and [read](it)');
  });

  it('gives it as readable Markdown where the story\u2019s own text cannot format or link', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await playedStory(client, { pictures: true });
    const res = await client.get(`/api/story/${storyId}/export?format=markdown`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="the-moving-valley.md"');
    const text = res.body;
    expect(text.startsWith('# The Moving Valley\n')).toBe(true);
    expect(text).toContain('*Played on Taleweaver, exported ');
    expect(text).toContain('1 turn.*');
    expect(text).toContain('> **Premise:** A cartographer maps a valley that \\*moves\\* at night');
    expect(text).toContain('**You:** I open \\<b\\>the\\</b\\> map # and \\[read\\](it)');
    expect(text).toMatch(/!\[[^\]]*\]\(http:\/\/localhost(:\d+)?\/api\/images\/[a-f0-9]{64}\.webp\)/);
  });

  it('is the owner\u2019s only and needs a known format', async () => {
    const { client } = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const storyId = await playedStory(client);
    const foreign = await other.client.get(`/api/story/${storyId}/export?format=json`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Story not found' });
    for (const query of ['', '?format=pdf']) {
      const res = await client.get(`/api/story/${storyId}/export${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Format must be markdown or json' });
    }
    expect((await ctx.app.inject({ method: 'GET', url: `/api/story/${storyId}/export?format=json` })).statusCode).toBe(
      401,
    );
  });
});

describe('POST /api/story/import', () => {
  it('brings an exported story back as a new story, memory, notes and pictures included, and it plays on', async () => {
    const { client } = await registerUser(ctx.app);
    const original = await playedStory(client, { pictures: true });
    const exported = (await client.get(`/api/story/${original}/export?format=json`)).body;
    // The memory covers the opening: it comes back covering the same messages.
    const file = JSON.parse(exported);
    file.story.memoryCovers = 2;
    const res = await importFile(client, JSON.stringify(file));
    expect(res.statusCode).toBe(201);
    const { storyId, title } = res.json();
    expect(title).toBe('The Moving Valley');
    expect(storyId).not.toBe(original);

    const [before, after] = await Promise.all([
      client.get(`/api/story/${original}/current-state`),
      client.get(`/api/story/${storyId}/current-state`),
    ]);
    const shape = (state: { messages: Array<{ role: string; content: string; image?: string }> }) =>
      state.messages.map((m) => [m.role, m.content, m.image ?? null]);
    expect(shape(after.json())).toEqual(shape(before.json()));
    expect(after.json().images.filter((i: { status: string }) => i.status === 'ready')).toHaveLength(2);
    expect((await client.get(`/api/story/${storyId}/memory`)).json()).toEqual({
      premise: PREMISE,
      summary: 'You met Ysolde.',
      notes: 'Keep it eerie.',
      chunks: ['You met Ysolde.'],
    });
    const reach = await ctx.database.executeSql('select memory_through_id from stories where id = $1', [storyId]);
    expect(reach.rows[0]).toEqual({ memory_through_id: after.json().messages[1].messageId });
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I fold the map' })).statusCode).toBe(200);
    expect((await client.get('/api/stories')).json().stories[0]).toMatchObject({
      id: storyId,
      title: 'The Moving Valley',
      turns: 2,
    });
  });

  it('keeps every message\u2019s versions through export and import (version 2), and still reads version 1 files', async () => {
    const { client } = await registerUser(ctx.app);
    const original = await playedStory(client);
    const state = (await client.get(`/api/story/${original}/current-state`)).json();
    const reply = state.messages[3];
    await client.post(`/api/story/${original}/retry`);
    await client.request({
      method: 'PATCH',
      url: `/api/story/${original}/messages/${reply.messageId}`,
      json: { content: 'An edited reply.' },
    });
    await client.post(`/api/story/${original}/messages/${reply.messageId}/select`, { version: 2 });
    const file = (await client.get(`/api/story/${original}/export?format=json`)).json();
    expect(file.messages[3].version).toBe(2);
    expect(file.messages[3].versions.map((v: { kind: string }) => v.kind)).toEqual(['original', 'alternative', 'edit']);
    expect(file.messages[3].versions[0].content).toBe(reply.content);
    expect(file.messages[2].versions).toBeUndefined();

    const imported = (await importFile(client, JSON.stringify(file))).json().storyId;
    const copy = (await client.get(`/api/story/${imported}/current-state`)).json().messages;
    expect(copy[3]).toMatchObject({ content: file.messages[3].content, version: 2, versions: 3 });
    const history = (await client.get(`/api/story/${imported}/messages/${copy[3].messageId}/versions`)).json().versions;
    expect(history.map((v: { kind: string; content: string }) => [v.kind, v.content])).toEqual(
      file.messages[3].versions.map((v: { kind: string; content: string }) => [v.kind, v.content]),
    );

    const { version: _shown, versions: _all, ...plain } = file.messages[3];
    const v1 = { ...file, version: 1, messages: [...file.messages.slice(0, 3), plain] };
    const older = await importFile(client, JSON.stringify(v1));
    expect(older.statusCode).toBe(201);
    expect(
      (await client.get(`/api/story/${older.json().storyId}/current-state`)).json().messages[3].versions,
    ).toBeUndefined();
  });

  it('does not hand another player\u2019s pictures to whoever imports their file', async () => {
    const owner = await registerUser(ctx.app);
    const stranger = await registerUser(ctx.app);
    const original = await playedStory(owner.client, { pictures: true });
    const exported = (await owner.client.get(`/api/story/${original}/export?format=json`)).body;
    expect(JSON.parse(exported).messages.map((m: { image?: unknown }) => Boolean(m.image))).toEqual([
      false,
      true,
      false,
      true,
    ]);
    const res = await importFile(stranger.client, exported);
    expect(res.statusCode).toBe(201);
    const state = (await stranger.client.get(`/api/story/${res.json().storyId}/current-state`)).json();
    expect(state.messages).toHaveLength(4);
    expect(state.images).toEqual([]);
    expect(state.messages.some((m: { image?: string }) => m.image)).toBe(false);
  });

  it('refuses a bad file with one clear message and creates nothing', async () => {
    const { client } = await registerUser(ctx.app);
    const good = JSON.parse((await client.get(`/api/story/${await playedStory(client)}/export?format=json`)).body);
    const count = await storyCount(client);
    const bad: Array<[string, number, string]> = [
      ['{"format": "taleweaver.story", "vers', 400, 'Request body is not valid JSON'],
      [
        JSON.stringify({ hello: 'world' }),
        400,
        'This file is not a story exported from Taleweaver, or it is damaged (Invalid input: expected "taleweaver.story" at format).',
      ],
      [
        JSON.stringify({ ...good, version: STORY_FILE_VERSION + 1 }),
        400,
        'This story file was made by a newer Taleweaver. Update Taleweaver to import it.',
      ],
      [
        JSON.stringify({ ...good, messages: [good.messages[0], { ...good.messages[1], version: 2 }] }),
        400,
        'versions and version go together at messages.1.version',
      ],
      [
        JSON.stringify({
          ...good,
          messages: [
            good.messages[0],
            {
              ...good.messages[1],
              version: 2,
              versions: [
                { kind: 'original', content: 'A', createdAt: good.exportedAt },
                { kind: 'edit', content: 'B', createdAt: good.exportedAt },
              ],
            },
          ],
        }),
        400,
        'the version shown must be one of the versions, with the same content at messages.1.version',
      ],
      [JSON.stringify({ ...good, messages: [good.messages[0], { ...good.messages[1], role: 'narrator' }] }), 400, ''],
      [
        JSON.stringify({ ...good, messages: good.messages.slice(1) }),
        400,
        'the first message must be the premise (role user, turn 0, isInitial true) at messages.0',
      ],
      [
        JSON.stringify({ ...good, story: { ...good.story, memoryCovers: 99 } }),
        400,
        'covers more messages than the file holds at story.memoryCovers',
      ],
      [JSON.stringify({ ...good, story: { ...good.story, notes: 'n'.repeat(2001) } }), 400, 'at story.notes'],
    ];
    for (const [payload, status, message] of bad) {
      const res = await importFile(client, payload);
      expect(res.statusCode, payload.slice(0, 80)).toBe(status);
      expect(res.json().message).toContain(message);
      if (status === 400 && message !== 'Request body is not valid JSON' && !message.startsWith('This story file'))
        expect(res.json().message).toMatch(/^This file is not a story exported from Taleweaver, or it is damaged \(/);
    }
    // Numbers past what the database holds (int4) are refused by the file's own bounds, not a 500.
    const last = good.messages.length - 1;
    const bounded: Array<[unknown, string]> = [
      [
        { ...good, messages: good.messages.map((m: object, i: number) => (i === last ? { ...m, turn: 2 ** 31 } : m)) },
        `Too big: expected number to be <=10000 at messages.${last}.turn`,
      ],
      [
        { ...good, messages: good.messages.map((m: object, i: number) => (i === last ? { ...m, turn: 1e300 } : m)) },
        `at messages.${last}.turn`,
      ],
      [
        { ...good, story: { ...good.story, memoryCovers: 2 ** 40 } },
        'Too big: expected number to be <=10000 at story.memoryCovers',
      ],
      [
        {
          ...good,
          messages: good.messages.map((m: object, i: number) =>
            i === last ? { ...m, version: 2 ** 31, versions: [] } : m,
          ),
        },
        `at messages.${last}.version`,
      ],
    ];
    for (const [file, message] of bounded) {
      const res = await importFile(client, JSON.stringify(file));
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.json().message).toMatch(/^This file is not a story exported from Taleweaver, or it is damaged \(/);
      expect(res.json().message).toContain(message);
    }
    const huge = JSON.stringify({ ...good, padding: 'x'.repeat(5 * 1024 * 1024) });
    const tooLarge = await importFile(client, huge);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The file is larger than 5 MB.' });
    expect(await storyCount(client)).toBe(count);
    const visitor = await ctx.app.inject({
      method: 'POST',
      url: '/api/story/import',
      payload: JSON.stringify(good),
      headers: { 'content-type': 'application/json' },
    });
    expect(visitor.statusCode).toBe(401);
  });

  it('takes at most 30 files an hour from one player, and says so', async () => {
    const { client } = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const file = (await client.get(`/api/story/${await playedStory(client)}/export?format=json`)).body;
    // Refused files count too: each one is read and checked.
    for (let i = 0; i < 30; i += 1)
      expect((await importFile(client, i % 2 ? file : '{}')).statusCode).toBe(i % 2 ? 201 : 400);
    const refused = await importFile(client, file);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'You can import at most 30 stories an hour. Please try again later.',
    });
    expect(refused.headers['retry-after']).toBe('3600');
    expect((await importFile(other.client, file)).statusCode).toBe(201);
    ctx.clock.advance(3_600_000);
    expect((await importFile(client, file)).statusCode).toBe(201);
  });
});
