// A story's narrator, through the API and the wire of a fake OpenAI-compatible server: two narrators
// of the catalogue with their own model names and windows; a story on each sends its model's name
// and its own reply cap, and its prompt fits its own window; a player picks only what is open to them
// (a 400 names those they may); a story whose narrator left the catalogue falls back to the default;
// a branch and the story's file keep its narrator; a player's preferences name the narrator their new
// stories start with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPACTION_SYSTEM_PROMPT, SUMMARY_SYSTEM_PROMPT, TITLE_SYSTEM_PROMPT } from '@server/ai/llm/prompts';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { STYLE_SYSTEM_PROMPT } from '@server/domains/images/style-sheet';
import { catalogueConfig } from '@server/test/config-env';
import { startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

const KEY = 'sk-narrators-secret';
let fake: FakeLlmServer;
let ctx: TestContext;

const SMALL = { contextTokens: 4096, maxOutputTokens: 300 };
const BIG = { contextTokens: 32768, maxOutputTokens: 800 };

/** A narrator of the catalogue on the fake server, its label its id capitalised. */
const narrator = (id: string, model: string, window = SMALL, access = 'everyone') => ({
  id,
  label: id[0].toUpperCase() + id.slice(1),
  provider: 'openai',
  baseUrl: fake.baseUrl,
  apiKeyEnv: 'FAKE_KEY',
  model,
  ...window,
  access,
});

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const writer = proseWriter(45);
  fake.fallback = () => ({ kind: 'ok', text: writer.reply() });
  const catalogue = catalogueConfig(
    {
      default: 'swift',
      narrators: [
        narrator('swift', 'small-model', SMALL),
        narrator('deep', 'big-model', BIG),
        narrator('lab', 'lab-model', SMALL, 'admins'),
      ],
    },
    { FAKE_KEY: KEY },
  );
  ctx = await createTestApp({ ...catalogue, adminUsernames: ['boss', 'chief'] });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const settingsOf = async (client: TestClient, storyId: number) =>
  (await client.get(`/api/story/${storyId}/settings`)).json();
const pick = (client: TestClient, storyId: number, narrator: string) =>
  client.patch(`/api/story/${storyId}/settings`, { narrator });

async function newStory(username?: string) {
  const player = await registerUser(ctx.app, username ? { username } : {});
  const res = await player.client.post('/api/story/start', {
    prompt: 'A lighthouse keeper hears a bell under the sea',
  });
  expect(res.statusCode).toBe(200);
  return { ...player, storyId: res.json().storyId as number };
}

/** The turn request the provider got for the next action. */
async function turnSent(
  client: TestClient,
  storyId: number,
  message = 'I row out to the bell',
): Promise<RecordedRequest> {
  const before = fake.requests.length;
  expect((await client.post(`/api/story/${storyId}/continue`, { message })).statusCode).toBe(200);
  return fake.requests[before];
}

const promptTokens = async (request: RecordedRequest) => {
  const count = await loadTokenCounter();
  return request.body.messages.reduce((sum, message) => sum + count(String(message.content)), 0);
};

describe("a story's narrator", () => {
  it('is the default until the player picks another, which writes from the next turn with its own model and cap', async () => {
    const { client, storyId } = await newStory();
    expect(await settingsOf(client, storyId)).toMatchObject({ narrator: 'swift', narratorFellBack: false });
    const first = await turnSent(client, storyId);
    expect(first.body.model).toBe('small-model');
    expect(first.body.max_tokens ?? first.body.max_completion_tokens).toBe(SMALL.maxOutputTokens);

    const picked = await pick(client, storyId, 'deep');
    expect(picked.statusCode).toBe(200);
    expect(picked.json()).toMatchObject({ narrator: 'deep', narratorFellBack: false, replyLength: 'medium' });
    expect(await settingsOf(client, storyId)).toMatchObject({ narrator: 'deep' });
    const next = await turnSent(client, storyId, 'I ring the bell back');
    expect(next.body.model).toBe('big-model');
    expect(next.body.max_tokens ?? next.body.max_completion_tokens).toBe(BIG.maxOutputTokens);

    // Each reply's context record names the narrator that wrote it.
    const messages = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
      role: string;
    }>;
    const replies = messages.filter((message) => message.role === 'assistant');
    const contextOf = async (messageId: number) =>
      (await client.get(`/api/story/${storyId}/messages/${messageId}/context`)).json();
    expect((await contextOf(replies[1].messageId)).narrator).toEqual({ id: 'swift', label: 'Swift' });
    expect((await contextOf(replies[2].messageId)).narrator).toEqual({ id: 'deep', label: 'Deep' });
  });

  it("fits each story's prompt into its own narrator's window", async () => {
    const small = await newStory();
    const big = await newStory();
    expect((await pick(big.client, big.storyId, 'deep')).statusCode).toBe(200);
    // Long actions, turn after turn, until the small window cannot hold them all.
    const action = (n: number) =>
      `I search the cove for the bell's rope, step ${n}. ${'The tide pulls at my boots. '.repeat(60)}`;
    let smallTurn: RecordedRequest | undefined;
    let bigTurn: RecordedRequest | undefined;
    for (let n = 1; n <= 14; n += 1) {
      smallTurn = await turnSent(small.client, small.storyId, action(n));
      bigTurn = await turnSent(big.client, big.storyId, action(n));
    }
    const smallTokens = await promptTokens(smallTurn as RecordedRequest);
    const bigTokens = await promptTokens(bigTurn as RecordedRequest);
    expect(smallTokens).toBeLessThanOrEqual(SMALL.contextTokens - SMALL.maxOutputTokens);
    // The big window kept every turn the small one had to leave out.
    expect(bigTokens).toBeGreaterThan(SMALL.contextTokens);
    expect(bigTokens).toBeLessThanOrEqual(BIG.contextTokens - BIG.maxOutputTokens);
  });

  it('is one the player may pick: a 400 names those they may, and an admin may pick every one', async () => {
    const { client, storyId } = await newStory();
    for (const narrator of ['lab', 'nowhere']) {
      const refused = await pick(client, storyId, narrator);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'Unknown narrator. Choose one of: swift, deep.',
      });
    }
    const malformed = await pick(client, storyId, 'Not An Id!');
    expect(malformed.statusCode).toBe(400);
    expect(await settingsOf(client, storyId)).toMatchObject({ narrator: 'swift' });

    const admin = await newStory('boss');
    const lab = await pick(admin.client, admin.storyId, 'lab');
    expect(lab.statusCode).toBe(200);
    expect((await turnSent(admin.client, admin.storyId)).body.model).toBe('lab-model');
  });

  it('falls back to the default, with a notice in its settings, when its narrator left the catalogue', async () => {
    const { client, storyId } = await newStory();
    expect((await pick(client, storyId, 'deep')).statusCode).toBe(200);
    // As after the operator removed 'deep' from the file and restarted.
    await ctx.database.executeSql(`update stories set narrator = 'retired' where id = $1`, [storyId]);
    expect(await settingsOf(client, storyId)).toMatchObject({ narrator: 'swift', narratorFellBack: true });
    expect((await turnSent(client, storyId)).body.model).toBe('small-model');
  });

  it('is named when it fails, by id in the answer and by label in the sentence', async () => {
    const { client, storyId } = await newStory();
    expect((await pick(client, storyId, 'deep')).statusCode).toBe(200);
    fake.queue.push({ kind: 'status', status: 500 });
    const failed = await client.post(`/api/story/${storyId}/continue`, { message: 'I dive for the bell' });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({
      message: 'The narrator Deep is unavailable right now. Please try again.',
      code: 'NARRATOR_UNAVAILABLE',
      narrator: 'deep',
    });
  });

  it('is kept by a branch', async () => {
    const { client, storyId } = await newStory();
    expect((await pick(client, storyId, 'deep')).statusCode).toBe(200);
    const opening = (await client.get(`/api/story/${storyId}/current-state`)).json().messages[1].messageId;
    const branch = await client.post(`/api/story/${storyId}/branch`, { messageId: opening });
    expect(branch.statusCode).toBe(201);
    expect(await settingsOf(client, branch.json().storyId)).toMatchObject({ narrator: 'deep' });
  });

  it("is carried by the story's file, and kept by an import where the importer may pick it", async () => {
    const { client, storyId } = await newStory();
    expect((await pick(client, storyId, 'deep')).statusCode).toBe(200);
    const exported = await client.get(`/api/story/${storyId}/export?format=json`);
    const file = exported.json();
    expect(file).toMatchObject({ version: 4, story: { settings: { narrator: 'deep' } } });

    const importAs = async (importer: TestClient, narrator: string) => {
      const payload = JSON.stringify({
        ...file,
        story: { ...file.story, settings: { ...file.story.settings, narrator } },
      });
      const res = await importer.request({
        method: 'POST',
        url: '/api/story/import',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(201);
      return settingsOf(importer, res.json().storyId);
    };
    const other = await registerUser(ctx.app);
    expect(await importAs(other.client, 'deep')).toMatchObject({ narrator: 'deep', narratorFellBack: false });
    // One closed to the importer, or that this server does not have: the default writes it.
    expect(await importAs(other.client, 'lab')).toMatchObject({ narrator: 'swift', narratorFellBack: false });
    expect(await importAs(other.client, 'nowhere')).toMatchObject({ narrator: 'swift', narratorFellBack: false });
  });

  it('never shows a key, its variable or an address in the settings or the list', async () => {
    const { client, storyId } = await newStory();
    const answers = [
      (await client.get(`/api/story/${storyId}/settings`)).body,
      (await pick(client, storyId, 'lab')).body,
      (await client.get('/api/narrators')).body,
    ].join('\n');
    for (const secret of [KEY, 'FAKE_KEY', fake.baseUrl, 'small-model']) expect(answers).not.toContain(secret);
  });
});

describe("a player's narrator for new stories", () => {
  const preferences = (client: TestClient) => client.get('/api/preferences');
  const prefer = (client: TestClient, narrator: string) => client.post('/api/preferences', { narrator });

  it('is the default until they choose one, which then writes their new stories from the opening', async () => {
    const visitor = await ctx.app.inject({ method: 'GET', url: '/api/preferences' });
    expect(visitor.json()).toMatchObject({ narrator: 'swift' });
    const { client } = await registerUser(ctx.app);
    expect((await preferences(client)).json()).toMatchObject({ narrator: 'swift', contentRating: 'general' });

    const chosen = await prefer(client, 'deep');
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ narrator: 'deep', contentRating: 'general' });
    const before = fake.requests.length;
    const started = await client.post('/api/story/start', { prompt: 'A diver finds a door in the reef' });
    expect(started.statusCode).toBe(200);
    expect(fake.requests[before].body.model).toBe('big-model');
    expect(await settingsOf(client, started.json().storyId)).toMatchObject({
      narrator: 'deep',
      narratorFellBack: false,
    });
  });

  it('is one they may pick (a 400 names those), and the default again once it left the catalogue', async () => {
    const { client, id } = await registerUser(ctx.app);
    const refused = await prefer(client, 'lab');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'Unknown narrator. Choose one of: swift, deep.' });
    expect((await preferences(client)).json()).toMatchObject({ narrator: 'swift' });

    expect((await prefer(client, 'deep')).statusCode).toBe(200);
    // As after the operator removed 'deep' from the file and restarted.
    await ctx.database.executeSql(`update user_preferences set narrator = 'retired' where user_id = $1`, [id]);
    expect((await preferences(client)).json()).toMatchObject({ narrator: 'swift' });
    const before = fake.requests.length;
    const started = await client.post('/api/story/start', { prompt: 'A diver finds a door in the reef' });
    expect(fake.requests[before].body.model).toBe('small-model');
    expect(await settingsOf(client, started.json().storyId)).toMatchObject({
      narrator: 'swift',
      narratorFellBack: false,
    });
  });

  it("is an admin's to choose among every narrator", async () => {
    const { client } = await registerUser(ctx.app, { username: 'chief' });
    expect((await prefer(client, 'lab')).json()).toMatchObject({ narrator: 'lab' });
    const started = await client.post('/api/story/start', { prompt: 'A diver finds a door in the reef' });
    expect(await settingsOf(client, started.json().storyId)).toMatchObject({ narrator: 'lab' });
  });
});

describe("the operator's narrators for side calls", () => {
  it("write the memory's summaries, the title and the style sheet, while the story's narrator writes its turns", async () => {
    const tasks = await createTestApp(
      catalogueConfig(
        {
          default: 'swift',
          tasks: { summary: 'scribe', title: 'scribe', style: 'scribe' },
          narrators: [narrator('swift', 'small-model'), narrator('scribe', 'scribe-model')],
        },
        { FAKE_KEY: KEY },
      ),
    );
    try {
      const player = await registerUser(tasks.app);
      const before = fake.requests.length;
      const started = await player.client.post('/api/story/start', { prompt: 'A cartographer maps a moving island' });
      const storyId = started.json().storyId as number;
      expect((await player.client.get(`/api/story/${storyId}/generate-title`)).statusCode).toBe(200);
      expect((await player.client.get(`/api/story/${storyId}/style-sheet`)).statusCode).toBe(200);
      // Long turns until the small window folds the oldest into the memory.
      for (let n = 1; n <= 10; n += 1) {
        const message = `I walk the shore, step ${n}. ${'The island drifts under my feet. '.repeat(50)}`;
        expect((await player.client.post(`/api/story/${storyId}/continue`, { message })).statusCode).toBe(200);
      }
      await tasks.app.turns.idle();
      const sent = fake.requests.slice(before);
      const system = (request: RecordedRequest) => String(request.body.messages[0].content);
      const modelsOf = (prompt: string) =>
        new Set(sent.filter((request) => system(request).startsWith(prompt.slice(0, 40))).map((r) => r.body.model));
      expect(modelsOf(TITLE_SYSTEM_PROMPT)).toEqual(new Set(['scribe-model']));
      expect(modelsOf(STYLE_SYSTEM_PROMPT)).toEqual(new Set(['scribe-model']));
      expect(modelsOf(SUMMARY_SYSTEM_PROMPT)).toEqual(new Set(['scribe-model']));
      const sides = [TITLE_SYSTEM_PROMPT, STYLE_SYSTEM_PROMPT, SUMMARY_SYSTEM_PROMPT, COMPACTION_SYSTEM_PROMPT];
      const turns = sent.filter((request) => !sides.some((prompt) => system(request).startsWith(prompt.slice(0, 40))));
      // The opening and ten turns.
      expect(turns).toHaveLength(11);
      expect(new Set(turns.map((request) => request.body.model))).toEqual(new Set(['small-model']));
    } finally {
      await tasks.close();
    }
  });
});
