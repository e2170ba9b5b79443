// Scenarios through the API, on both databases: a draft made with its defaults, its setup questions
// found in every text it holds, edited, published (public, then unlisted) with its version raised on
// each change others see, unpublished and deleted; a draft is 404 to everyone but its author, a
// published one readable by visitors; writes are the author's only; bad cards, deep choices, an
// unknown narrator and a full account are refused with what to do; a draft made from a story takes
// its premise, note, cards and settings, never its turns; a remix is the remixer's new draft whose
// lineage outlives the original.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
const MAX = 3;
const PUBLISHES = 4;

beforeAll(async () => {
  ctx = await createTestApp({ scenarios: { maxPerUser: MAX, publishPerHour: PUBLISHES } });
});
afterAll(() => ctx.close());

const DRAFT = {
  title: 'The Glass Harbour',
  premise: 'You are ${Your name[Aria]}, a courier arriving in ${City}.',
  cards: [
    { name: 'The harbour master', keys: ['harbour master'], content: '${Your name} owes the harbour master a favour.' },
  ],
};

const make = (client: TestClient, body: object = DRAFT) => client.post('/api/scenarios', body);
const read = (client: TestClient | null, id: string) =>
  client ? client.get(`/api/scenarios/${id}`) : ctx.app.inject({ method: 'GET', url: `/api/scenarios/${id}` });

describe('a scenario', () => {
  it('is a draft of its author, with defaults and the setup questions its texts ask', async () => {
    const { client } = await registerUser(ctx.app);
    const made = await make(client, {
      ...DRAFT,
      tags: ['Harbour', 'mystery', 'harbour'],
      options: [{ title: 'By sea', premise: 'You come by ${Ship[the Gull]}.' }],
    });
    expect(made.statusCode).toBe(201);
    const { scenario } = made.json();
    expect(scenario.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(scenario).toMatchObject({
      title: 'The Glass Harbour',
      description: '',
      instructions: '',
      authorsNote: '',
      // A tag once, whatever its case.
      tags: ['Harbour', 'mystery'],
      genre: null,
      contentRating: 'general',
      visibility: 'draft',
      version: 0,
      mine: true,
      replyLength: null,
      temperature: null,
      narrator: null,
      questions: [
        { name: 'Your name', default: 'Aria' },
        { name: 'City', default: null },
        { name: 'Ship', default: 'the Gull' },
      ],
    });
    // The card takes a card's defaults; the choice gets an id.
    expect(scenario.cards[0]).toMatchObject({ alwaysOn: false, enabled: true, scanDepth: 4 });
    expect(scenario.options[0]).toMatchObject({ title: 'By sea', cards: [], options: [] });
    expect(scenario.options[0].id).toMatch(/^[a-z0-9]{1,12}$/);
    expect((await client.get('/api/scenarios/mine')).json().scenarios).toMatchObject([
      { id: scenario.id, title: 'The Glass Harbour', visibility: 'draft', version: 0 },
    ]);
  });

  it('is 404 to everyone but its author while a draft, and readable by anyone once published', async () => {
    const author = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { id } = (await make(author.client)).json().scenario;
    for (const reader of [other.client, null]) expect((await read(reader, id)).statusCode).toBe(404);
    expect((await read(other.client, 'AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await read(other.client, 'not-an-id')).statusCode).toBe(404);

    const published = await author.client.post(`/api/scenarios/${id}/publish`, { visibility: 'public' });
    expect(published.statusCode).toBe(200);
    expect(published.json().scenario).toMatchObject({ visibility: 'public', version: 1 });
    const seen = await read(null, id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().scenario).toMatchObject({
      title: 'The Glass Harbour',
      mine: false,
      author: { username: author.username },
    });

    // An edit of a published scenario is its next version; unlisted is another publish.
    const edited = await author.client.patch(`/api/scenarios/${id}`, { description: 'Bells at night.' });
    expect(edited.json().scenario).toMatchObject({ description: 'Bells at night.', version: 2 });
    const unlisted = await author.client.post(`/api/scenarios/${id}/publish`, { visibility: 'unlisted' });
    expect(unlisted.json().scenario).toMatchObject({ visibility: 'unlisted', version: 3 });
    expect((await read(other.client, id)).json().scenario.visibility).toBe('unlisted');

    const back = await author.client.post(`/api/scenarios/${id}/unpublish`);
    expect(back.json().scenario).toMatchObject({ visibility: 'draft', version: 3 });
    expect((await read(other.client, id)).statusCode).toBe(404);
    // A draft's edit is no new version.
    expect((await author.client.patch(`/api/scenarios/${id}`, { title: 'Glass' })).json().scenario.version).toBe(3);
  });

  it("is changed, published and deleted by its author only: another player's answer is 404", async () => {
    const author = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { id } = (await make(author.client)).json().scenario;
    const attempts = [
      other.client.patch(`/api/scenarios/${id}`, { title: 'Mine now' }),
      other.client.post(`/api/scenarios/${id}/publish`, { visibility: 'public' }),
      other.client.post(`/api/scenarios/${id}/unpublish`),
      other.client.delete(`/api/scenarios/${id}`),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ message: 'Scenario not found', code: 'NOT_FOUND' });
    }
    expect((await read(author.client, id)).json().scenario.title).toBe('The Glass Harbour');
    expect((await other.client.get('/api/scenarios/mine')).json().scenarios).toEqual([]);
    const visitor = await ctx.app.inject({ method: 'POST', url: '/api/scenarios', payload: DRAFT });
    expect(visitor.statusCode).toBe(401);

    expect((await author.client.delete(`/api/scenarios/${id}`)).json()).toEqual({ success: true });
    expect((await read(author.client, id)).statusCode).toBe(404);
  });

  it('refuses what could not be played: bad cards, choices too deep, an unknown narrator, a bad body', async () => {
    const { client } = await registerUser(ctx.app);
    /** Refused with 400: `message` the sentence, or a pattern the sentence or a detail's path matches. */
    const refusal = async (body: object, message: RegExp | string) => {
      const res = await make(client, body);
      expect(res.statusCode, res.body).toBe(400);
      const { message: said, details = [] } = res.json() as { message: string; details?: { path: string }[] };
      if (typeof message === 'string') expect(said).toBe(message);
      else
        expect(
          [said, ...details.map((d) => d.path)].some((text) => message.test(text)),
          res.body,
        ).toBe(true);
    };
    await refusal({ ...DRAFT, cards: [{ name: 'Ghost', keys: [], content: 'Never sent.' }] }, /at least one key/);
    await refusal(
      { ...DRAFT, cards: [{ name: 'Bad', keys: ['/(unclosed/'], content: 'x' }] },
      /^Bad: The key '\/\(unclosed\/'/,
    );
    const deep = (n: number): object => ({ title: `Level ${n}`, options: n > 1 ? [deep(n - 1)] : [] });
    await refusal({ ...DRAFT, options: [deep(4)] }, 'Choices nest at most 3 levels deep.');
    await refusal({ ...DRAFT, narrator: 'nowhere' }, 'Unknown narrator. Choose one of: default.');
    await refusal({ premise: 'No title' }, /title/);
    await refusal({ ...DRAFT, contentRating: 'adult' }, /contentRating/);
    await refusal({ ...DRAFT, tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, /tags/);
    expect((await client.get('/api/scenarios/mine')).json().scenarios).toEqual([]);
    // Three levels are fine.
    expect((await make(client, { ...DRAFT, options: [deep(3)] })).statusCode).toBe(201);
    const { id } = (await client.get('/api/scenarios/mine')).json().scenarios[0];
    // A recommended narrator that has since left the file does not stop an edit of anything else.
    expect((await client.patch(`/api/scenarios/${id}`, { narrator: 'default' })).statusCode).toBe(200);
    await ctx.database.executeSql(`update scenarios set narrator = 'retired' where id = $1`, [id]);
    expect((await client.patch(`/api/scenarios/${id}`, { description: 'Still here.' })).statusCode).toBe(200);
    expect((await client.patch(`/api/scenarios/${id}`, { narrator: 'retired' })).statusCode).toBe(400);
    const nothing = await client.patch(`/api/scenarios/${id}`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe('Send a field of the scenario to change.');
  });

  it('is one of at most USER_MAX_SCENARIOS an account keeps, and published at most SCENARIO_PUBLISH_PER_HOUR times an hour', async () => {
    const { client } = await registerUser(ctx.app);
    const made = await Promise.all(Array.from({ length: MAX + 2 }, () => make(client)));
    expect(made.map((res) => res.statusCode).sort()).toEqual([201, 201, 201, 429, 429]);
    const full = made.find((res) => res.statusCode === 429)!;
    expect(full.json()).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: `You can keep at most ${MAX} scenarios. Delete one to make another.`,
    });
    const { id } = made.find((res) => res.statusCode === 201)!.json().scenario;
    for (let i = 0; i < PUBLISHES; i += 1)
      expect(
        (await client.post(`/api/scenarios/${id}/publish`, { visibility: i % 2 ? 'public' : 'unlisted' })).statusCode,
      ).toBe(200);
    const limited = await client.post(`/api/scenarios/${id}/publish`, { visibility: 'public' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('You have published too many scenarios this hour. Please try again later.');
  });

  it("is made from the player's own story: its premise, note, cards and settings, never its turns", async () => {
    const { client } = await registerUser(ctx.app);
    const started = await client.post('/api/story/start', {
      prompt: 'A cartographer maps a valley that moves at night',
    });
    const storyId = started.json().storyId as number;
    expect(
      (await client.post(`/api/story/${storyId}/continue`, { message: 'I follow the river north' })).statusCode,
    ).toBe(200);
    const noted = await client.request({
      method: 'PUT',
      url: `/api/story/${storyId}/memory`,
      json: { notes: 'Keep it eerie.' },
    });
    expect(noted.statusCode).toBe(200);
    await client.post(`/api/story/${storyId}/cards`, {
      name: 'Ysolde',
      keys: ['Ysolde'],
      content: 'A ferrywoman who owes you a favour.',
    });
    await client.patch(`/api/story/${storyId}/settings`, { replyLength: 'short', temperature: 0.5 });

    const made = await client.post(`/api/story/${storyId}/scenario`);
    expect(made.statusCode).toBe(201);
    const { scenario } = made.json();
    expect(scenario).toMatchObject({
      premise: 'A cartographer maps a valley that moves at night',
      authorsNote: 'Keep it eerie.',
      visibility: 'draft',
      replyLength: 'short',
      temperature: 0.5,
      narrator: null,
      cards: [{ name: 'Ysolde', keys: ['Ysolde'], content: 'A ferrywoman who owes you a favour.' }],
    });
    expect(scenario.title.length).toBeGreaterThan(0);
    // No turn of the story is in it.
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    for (const message of state.messages.slice(1)) expect(JSON.stringify(scenario)).not.toContain(message.content);

    const other = await registerUser(ctx.app);
    expect((await other.client.post(`/api/story/${storyId}/scenario`)).statusCode).toBe(404);
  });

  it("is remixed into the remixer's own draft, its lineage kept after the original is deleted", async () => {
    const author = await registerUser(ctx.app);
    const remixer = await registerUser(ctx.app);
    const { id } = (await make(author.client, { ...DRAFT, description: 'Bells at night.' })).json().scenario;
    // A draft cannot be remixed by another player: it is not there for them.
    expect((await remixer.client.post(`/api/scenarios/${id}/remix`)).statusCode).toBe(404);
    await author.client.post(`/api/scenarios/${id}/publish`, { visibility: 'unlisted' });

    const remixed = await remixer.client.post(`/api/scenarios/${id}/remix`);
    expect(remixed.statusCode).toBe(201);
    const copy = remixed.json().scenario;
    expect(copy.id).not.toBe(id);
    expect(copy).toMatchObject({
      title: 'The Glass Harbour',
      description: 'Bells at night.',
      premise: DRAFT.premise,
      visibility: 'draft',
      version: 0,
      mine: true,
      author: { username: remixer.username },
      remixOf: { id, title: 'The Glass Harbour', author: author.username },
    });
    expect(copy.cards).toHaveLength(1);
    expect((await remixer.client.get('/api/scenarios/mine')).json().scenarios[0].remixOf).toEqual({
      id,
      title: 'The Glass Harbour',
      author: author.username,
    });

    expect((await author.client.delete(`/api/scenarios/${id}`)).statusCode).toBe(200);
    expect((await remixer.client.get(`/api/scenarios/${copy.id}`)).json().scenario.remixOf).toEqual({
      id: null,
      title: 'The Glass Harbour',
      author: author.username,
      deleted: true,
    });
    expect((await remixer.client.post(`/api/scenarios/${id}/remix`)).statusCode).toBe(404);
  });
});
