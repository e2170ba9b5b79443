// The reads that send every message of a story (current state, undo, redo, erase, recover) are
// written as JSON bytes around texts kept by (message, version): each answer parses against its
// shared schema with every text byte for byte, and an edit or a choice of version made through
// another instance on the same database shows at once (a version's text never changes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storyRecoverResponseSchema, storyStateResponseSchema } from '@shared/schemas/story';
import { createRepositories } from '@server/db/repositories';
import { captureLog } from '@server/test/captured-log';
import { play, startStory } from '@server/test/story-turns';
import { createStoryJson } from './story-json';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** Text JSON must escape, and text it must not mangle. */
const TRICKY = 'She said "run" \\ then\nleft.\t</script><b>&amp; ’ “” é 🐉 \u2028 end';

const edit = (client: TestClient, storyId: number, messageId: number, content: string) =>
  client.request({ method: 'PATCH', url: `/api/story/${storyId}/messages/${messageId}`, json: { content } });

describe('a story read as JSON bytes', () => {
  it('is the shared schema exactly, every text byte for byte, with a true Content-Length', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A clockmaker whose clocks tell the future');
    const reply = await play(client, storyId, 'I wind the smallest clock');
    expect((await edit(client, storyId, reply.messageId, TRICKY)).statusCode).toBe(200);

    const res = await client.get(`/api/story/${storyId}/current-state`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const body = res.json();
    expect(storyStateResponseSchema.strict().parse(body)).toEqual(body);
    for (const message of body.messages)
      expect(Object.keys(storyStateResponseSchema.shape.messages.element.strict().parse(message))).toEqual(
        Object.keys(message),
      );
    expect(body.messages.map((m: { content: string }) => m.content)).toEqual([
      'A clockmaker whose clocks tell the future',
      expect.any(String),
      'I wind the smallest clock',
      TRICKY,
    ]);
    expect(body.messages[3]).toMatchObject({
      messageId: reply.messageId,
      role: 'assistant',
      version: 2,
      versions: 2,
      isInitialMessage: false,
    });
    expect(body.messages[0]).toMatchObject({ role: 'user', isInitialMessage: true });
    expect(body.messages[0]).not.toHaveProperty('version');
    expect(new Date(body.messages[3].createdAt).toISOString()).toBe(body.messages[3].createdAt);
    expect(body).toMatchObject({ replying: false, images: [], storyImage: null, canRedo: false });

    const undone = await client.post(`/api/story/${storyId}/undo`);
    expect(undone.statusCode).toBe(200);
    expect(storyStateResponseSchema.parse(undone.json()).messages).toHaveLength(2);
    const redone = (await client.post(`/api/story/${storyId}/redo`)).json();
    expect(redone.messages.at(-1).content).toBe(TRICKY);
  });

  it('recovers the same messages, and 404 for an id outside the story', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(client, 'A lighthouse that keeps every ship it has guided');
    const last = await play(client, storyId, 'I climb the stairs');
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    const recovered = await client.get(`/api/story/${storyId}/recover?messageId=${messageId}`);
    expect(recovered.statusCode).toBe(200);
    expect(storyRecoverResponseSchema.strict().parse(recovered.json())).toEqual(recovered.json());
    expect(recovered.json().messages).toEqual(state.messages);
    expect(recovered.json().story).toEqual({ id: storyId, title: expect.any(String), storyImage: null });
    expect((await client.get(`/api/story/${storyId}/recover?messageId=${last.messageId + 1000}`)).statusCode).toBe(404);
  });

  it('shows an edit or a choice of version made through another instance at once', async () => {
    const other = await createTestApp({}, { database: ctx.database });
    try {
      const { client } = await registerUser(ctx.app);
      const { storyId } = await startStory(client, 'A baker whose bread remembers');
      const reply = await play(client, storyId, 'I taste the crust');
      const shown = async () =>
        (await client.get(`/api/story/${storyId}/current-state`)).json().messages.at(-1).content as string;
      expect(await shown()).toBe(reply.message);

      const elsewhere = new TestClient(other.app);
      for (const [name, value] of client.cookies) elsewhere.cookies.set(name, value);
      expect((await edit(elsewhere, storyId, reply.messageId, 'The crust tastes of summer.')).statusCode).toBe(200);
      expect(await shown()).toBe('The crust tastes of summer.');
      expect(
        (await elsewhere.post(`/api/story/${storyId}/messages/${reply.messageId}/select`, { version: 1 })).statusCode,
      ).toBe(200);
      expect(await shown()).toBe(reply.message);
    } finally {
      await other.app.close();
    }
  });

  it('drops the least recently read texts past its capacity, and still answers every text', async () => {
    const { client } = await registerUser(ctx.app);
    const first = await startStory(client, 'A cartographer mapping a city that moves at night');
    await play(client, first.storyId, 'I unroll the newest map');
    const second = await startStory(client, 'A beekeeper whose bees carry letters');
    await play(client, second.storyId, 'I open the oldest hive');
    const repos = createRepositories(ctx.database.db);
    const contents = async (storyId: number) =>
      (await client.get(`/api/story/${storyId}/current-state`))
        .json()
        .messages.map((m: { content: string }) => JSON.stringify(m.content));
    const asRead = (bodies: Buffer[]) => bodies.map((b) => b.toString('utf8'));

    const sizing = createStoryJson(repos);
    await sizing.read(first.storyId);
    const firstBytes = sizing.stats().bytes;
    await sizing.read(second.storyId);
    const bothBytes = sizing.stats().bytes;
    expect(sizing.stats().texts).toBe(8);

    // Room for both stories less one byte: reading the second drops texts of the first (read less
    // recently), and none of the second's.
    let textReads = 0;
    const counted = {
      ...repos,
      stories: {
        ...repos.stories,
        messageTexts: (...args: Parameters<typeof repos.stories.messageTexts>) => (
          textReads++,
          repos.stories.messageTexts(...args)
        ),
      },
    };
    const json = createStoryJson(counted, bothBytes - 1);
    expect(asRead((await json.read(first.storyId)).bodies)).toEqual(await contents(first.storyId));
    expect(json.stats()).toEqual({ texts: 4, bytes: firstBytes });
    expect(asRead((await json.read(second.storyId)).bodies)).toEqual(await contents(second.storyId));
    expect(json.stats().texts).toBeLessThan(8);
    expect(json.stats().bytes).toBeLessThanOrEqual(bothBytes - 1);
    expect(textReads).toBe(2);
    await json.read(second.storyId);
    expect(textReads).toBe(2);
    // The first story again: its texts left are the least recently read, and the one dropped is
    // fetched; making room must not drop the others this same read needs.
    expect(asRead((await json.read(first.storyId)).bodies)).toEqual(await contents(first.storyId));
    expect(textReads).toBe(3);
    // Smaller than one story: every read still answers every text, read again from the database.
    const tiny = createStoryJson(repos, 10);
    for (let i = 0; i < 2; i += 1)
      expect(asRead((await tiny.read(first.storyId)).bodies)).toEqual(await contents(first.storyId));
    expect(tiny.stats().bytes).toBeLessThanOrEqual(10);
  });

  it('answers each of those calls (and a shared read) once: no second send, nothing warned or logged as an error', async () => {
    // A handler that sent the bytes without returning the reply had Fastify send again (an empty
    // answer) while the first send's hooks were still running: the player got the first, the log
    // an error with a stack on every undo, redo and erase, and the second could have won.
    const appLog = captureLog('warn');
    const watched = await createTestApp({}, { database: ctx.database, logger: appLog.logger });
    try {
      const { client } = await registerUser(watched.app);
      const { storyId, messageId } = await startStory(client, 'A ferryman who keeps the names of his passengers');
      const last = await play(client, storyId, 'I ask the ferryman my own name');
      const calls = [
        await client.get(`/api/story/${storyId}/current-state`),
        await client.get(`/api/story/${storyId}/recover?messageId=${messageId}`),
        await client.post(`/api/story/${storyId}/undo`),
        await client.post(`/api/story/${storyId}/redo`),
        await client.post(`/api/story/${storyId}/erase`, { fromMessageId: last.messageId - 1 }),
        await client.post(`/api/story/${storyId}/redo`),
      ];
      // A shared read, first loaded (the async way), then from memory (answered at once).
      const { shareId } = (await client.post(`/api/story/${storyId}/share`, { title: 'The Ferryman' })).json();
      calls.push(await client.get(`/api/shared/${shareId}`), await client.get(`/api/shared/${shareId}`));
      for (const res of calls) {
        expect(res.statusCode).toBe(200);
        expect(res.json().messages.length).toBeGreaterThan(0);
      }
      await new Promise((resolve) => setTimeout(resolve, 50)); // a second send's error comes after the answer
      expect(appLog.lines.map((line) => line.msg)).toEqual([]);
    } finally {
      await watched.app.close();
    }
  });
});
