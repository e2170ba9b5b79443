// Pictures in the story around them: every new reply illustrated when the player has pictures on
// (a preference kept on the server), story reads carrying them, the style sheet that keeps
// characters alike, shared snapshots keeping their pictures, and IMAGE_PROVIDER=none hiding it all.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseSse } from '@server/test/sse';
import {
  createTestApp,
  registerUser,
  TestClient,
  testConfig,
  type TestContext,
  createPaintingTestApp,
} from '@server/test/test-app';
import { settlePicture, type FakePainter } from '@server/test/fake-painter';

let ctx: TestContext;
let painter: FakePainter;
beforeAll(async () => {
  const painting = await createPaintingTestApp();
  ctx = painting;
  painter = painting.painter;
});
afterAll(() => ctx.close());
beforeEach(() => {
  painter.requests.length = 0;
  painter.queue.length = 0;
});

const PREMISE = 'Mix in the following genre preferences: 70% horror, 30% mystery. A night ferry to a drowned village';

async function playerWithPictures() {
  const user = await registerUser(ctx.app);
  const saved = await user.client.post('/api/preferences', { imageGeneration: true });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toMatchObject({ imageGeneration: true, contentRating: 'general' });
  return user;
}

describe('automatic pictures', () => {
  it('are off by default: replies carry no picture and nothing is painted', async () => {
    const { client } = await registerUser(ctx.app);
    expect((await client.get('/api/preferences')).json().imageGeneration).toBe(false);
    const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
    expect(started.imageMessageId).toBeUndefined();
    const state = (await client.get(`/api/story/${started.storyId}/current-state`)).json();
    expect(state.images).toEqual([]);
    expect(state.storyImage).toBeNull();
    expect(painter.requests).toHaveLength(0);
  });

  it('follow the player\u2019s flag: the opening and every streamed reply get their picture, and story reads carry them', async () => {
    const { client } = await playerWithPictures();
    const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
    expect(started.imageMessageId).toBe(started.messageId);
    const streamed = await client.request({
      method: 'POST',
      url: `/api/story/${started.storyId}/continue`,
      headers: { accept: 'text/event-stream' },
      json: { message: 'I step onto the ferry' },
    });
    const done = parseSse(streamed.body).find((e) => e.event === 'done');
    const reply = done?.data as { messageId: number; imageMessageId?: number };
    expect(reply.imageMessageId).toBe(reply.messageId);

    const opening = (await settlePicture(client, started.messageId)).json();
    await settlePicture(client, reply.messageId);
    const state = (await client.get(`/api/story/${started.storyId}/current-state`)).json();
    expect(state.images.map((i: { messageId: number; status: string }) => [i.messageId, i.status])).toEqual([
      [started.messageId, 'ready'],
      [reply.messageId, 'ready'],
    ]);
    expect(state.storyImage).toBe(opening.image);
    expect(state.messages.find((m: { messageId: number }) => m.messageId === started.messageId).image).toBe(
      opening.image,
    );
    const recovered = (await client.get(`/api/story/${started.storyId}/recover?messageId=${reply.messageId}`)).json();
    expect(recovered.story.storyImage).toBe(opening.image);
    expect(recovered.images).toHaveLength(2);
    expect(recovered.images[0]).toMatchObject({ url: opening.image, thumbnail: opening.thumbnail, status: 'ready' });
  });

  it('honours the content rating with a negative prompt', async () => {
    const { client } = await playerWithPictures();
    await client.post('/api/preferences', { contentRating: 'mature' });
    const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
    await settlePicture(client, started.messageId);
    expect(painter.requests[0].contentRating).toBe('mature');
    expect(painter.requests[0].negativePrompt).not.toContain('gore');
    expect(painter.requests[0].negativePrompt).toContain('explicit');
    const general = await playerWithPictures();
    const other = (await general.client.post('/api/story/start', { prompt: PREMISE })).json();
    await settlePicture(general.client, other.messageId);
    expect(painter.requests[1].negativePrompt).toContain('gore');
  });

  it('refuses a wrong flag value with a clear message', async () => {
    const { client } = await registerUser(ctx.app);
    const res = await client.post('/api/preferences', { imageGeneration: 'yes' });
    expect([res.statusCode, res.json().message]).toEqual([400, 'Image generation must be true or false']);
  });
});

describe('the style sheet', () => {
  it('is filled from the premise, editable by the owner only, and its edits reach the next picture', async () => {
    const { client } = await playerWithPictures();
    const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
    await settlePicture(client, started.messageId);
    const sheet = (await client.get(`/api/story/${started.storyId}/style-sheet`)).json();
    expect(sheet.artStyle).toMatch(/horror/);
    expect(sheet.artStyle).toMatch(/all ages/);
    expect(sheet.player.length).toBeGreaterThan(10);
    expect(painter.requests[0].prompt).toContain(sheet.artStyle);
    expect(painter.requests[0].seed).toBe(sheet.seed);

    const edited = {
      artStyle: 'ink and watercolour, muted greens',
      player: 'a tall ferryman in a yellow oilskin',
      characters: [{ name: 'Old Tom', face: 'a white beard', hair: 'bald', clothes: 'a blue fisherman jumper' }],
    };
    const saved = await client.request({
      method: 'PUT',
      url: `/api/story/${started.storyId}/style-sheet`,
      json: edited,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ ...edited, seed: sheet.seed });

    const next = (
      await client.post(`/api/story/${started.storyId}/continue`, { message: 'I ask Old Tom about the village' })
    ).json();
    await settlePicture(client, next.messageId);
    const prompt = painter.requests[1].prompt;
    expect(prompt).toContain('ink and watercolour, muted greens');
    expect(prompt).toContain('a tall ferryman in a yellow oilskin');
    expect(painter.requests[1].seed).toBe(sheet.seed);

    const stranger = await registerUser(ctx.app);
    expect((await stranger.client.get(`/api/story/${started.storyId}/style-sheet`)).statusCode).toBe(404);
    expect(
      (await stranger.client.request({ method: 'PUT', url: `/api/story/${started.storyId}/style-sheet`, json: edited }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses an oversized sheet with the reason', async () => {
    const { client } = await registerUser(ctx.app);
    const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
    const many = Array.from({ length: 13 }, (_, i) => ({ name: `Person${i}`, face: '', hair: '', clothes: '' }));
    const tooMany = await client.request({
      method: 'PUT',
      url: `/api/story/${started.storyId}/style-sheet`,
      json: { artStyle: 'x', player: 'y', characters: many },
    });
    expect([tooMany.statusCode, tooMany.json().message]).toEqual([400, 'A style sheet holds at most 12 characters.']);
    const nameless = await client.request({
      method: 'PUT',
      url: `/api/story/${started.storyId}/style-sheet`,
      json: { artStyle: 'x', player: 'y', characters: [{ name: ' ' }] },
    });
    expect([nameless.statusCode, nameless.json().message]).toEqual([400, 'Every character needs a name.']);
    const long = await client.request({
      method: 'PUT',
      url: `/api/story/${started.storyId}/style-sheet`,
      json: { artStyle: 'x'.repeat(301), player: 'y', characters: [] },
    });
    expect([long.statusCode, long.json().message]).toEqual([
      400,
      'Keep each style sheet entry under its length limit.',
    ]);
  });
});

describe('sharing', () => {
  it('keeps the pictures a snapshot was shared with, readable through the link only', async () => {
    const { client } = await playerWithPictures();
    const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
    const owned = (await settlePicture(client, started.messageId)).json();
    const { shareId } = (
      await client.post(`/api/story/${started.storyId}/share`, { title: 'The Drowned Village' })
    ).json();
    const shared = (await new TestClient(ctx.app, '10.9.9.9').get(`/api/shared/${shareId}`)).json();
    const pictured = shared.messages.find((m: { image?: string }) => m.image);
    const hash = owned.image.match(/([0-9a-f]{64})/)[1];
    expect(pictured).toMatchObject({
      role: 'assistant',
      image: `/api/shared/${shareId}/images/${hash}.webp`,
      thumbnail: `/api/shared/${shareId}/images/${hash}.thumb.webp`,
    });
    expect(pictured.imageAlt.length).toBeGreaterThan(10);
    const visitor = new TestClient(ctx.app, '10.9.9.9');
    const bytes = await visitor.get(pictured.image);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['cache-control']).toBe('public, max-age=60');
    expect(bytes.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    expect((await visitor.get(`/api/shared/${shareId}/images/${'0'.repeat(64)}.webp`)).statusCode).toBe(404);
    expect((await visitor.get(`/api/shared/nosuchshare1234/images/${hash}.webp`)).statusCode).toBe(404);
    // The owner's own address for the same picture still needs the owner's session.
    expect((await visitor.get(owned.image)).statusCode).toBe(401);
  });
});

describe('IMAGE_PROVIDER=none', () => {
  it('hides pictures everywhere', async () => {
    const off = await createTestApp({ image: { ...testConfig().image, provider: 'none' } }, { painter: null });
    try {
      expect((await new TestClient(off.app).get('/api/features')).json()).toMatchObject({ images: false });
      const { client } = await registerUser(off.app);
      await client.post('/api/preferences', { imageGeneration: true });
      const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
      expect(started.imageMessageId).toBeUndefined();
      const asked = await client.post(`/api/story/message/${started.messageId}/generate-image`, {
        content: 'x',
        storyId: started.storyId,
      });
      expect([asked.statusCode, asked.json().code]).toEqual([404, 'IMAGES_DISABLED']);
      expect((await client.get(`/api/story/${started.storyId}/current-state`)).json()).toMatchObject({
        images: [],
        storyImage: null,
      });
    } finally {
      await off.close();
    }
    expect((await new TestClient(ctx.app).get('/api/features')).json()).toMatchObject({ images: true });
  });

  it('a spent monthly allowance stops pictures too', async () => {
    const capped = await createTestApp({ userMonthlyTokenLimit: 50 }, { painter });
    try {
      const { client } = await registerUser(capped.app);
      const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
      const asked = await client.post(`/api/story/message/${started.messageId}/generate-image`, {
        content: 'x',
        storyId: started.storyId,
      });
      expect([asked.statusCode, asked.json().message]).toEqual([429, "You have used this month's story allowance."]);
    } finally {
      await capped.close();
    }
  });
});
