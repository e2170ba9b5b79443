// The image API end to end on a real queue and real storage, with a scripted painter: the three
// calls and their validation, ownership, long-polled state, stored WebP bytes and their caching,
// retries and failures, the hourly limit, the ledger, the style sheet and automatic pictures.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

const PREMISE = 'A lighthouse keeper named Mara Venn guards a stormy northern coast';

async function start(client: TestClient) {
  const res = await client.post('/api/story/start', { prompt: PREMISE });
  expect(res.statusCode).toBe(200);
  return res.json() as { storyId: number; messageId: number; message: string };
}

describe('POST /api/story/message/{messageId}/generate-image', () => {
  it('accepts the job at once, paints it behind and serves the stored WebP to its owner only', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await start(client);
    const asked = await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ imageMessageId: story.messageId });

    const ready = await settlePicture(client, story.messageId);
    expect(ready.statusCode).toBe(200);
    const body = ready.json();
    expect(body.image).toMatch(/^\/api\/images\/[0-9a-f]{64}\.webp$/);
    expect(body.thumbnail).toBe(body.image.replace('.webp', '.thumb.webp'));
    expect([body.width, body.height]).toEqual([320, 180]);
    expect(story.message.replace(/\s+/g, ' ')).toContain(body.alt.replace(/…$/, '').slice(0, 60));

    const bytes = await client.get(body.image);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/webp');
    expect(bytes.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(bytes.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    expect(bytes.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    const thumb = await client.get(body.thumbnail);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.rawPayload.length).toBeLessThan(bytes.rawPayload.length + 1);
    const again = await client.request({
      method: 'GET',
      url: body.image,
      headers: { 'if-none-match': String(bytes.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const stranger = await registerUser(ctx.app);
    expect((await stranger.client.get(body.image)).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/story/message/${story.messageId}/image`)).statusCode).toBe(404);
    expect((await new TestClient(ctx.app).get(body.image)).statusCode).toBe(401);

    // Asking again for a painted reply answers the picture and starts nothing.
    const twice = await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toEqual({ imageMessageId: story.messageId, image: body.image });
    expect(painter.requests).toHaveLength(1);
  });

  it('illustrates the reply it is asked for and nothing else: the prompt holds that scene, not what came after', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await start(client);
    const next = (
      await client.post(`/api/story/${story.storyId}/continue`, {
        message: 'I climb the spiral stairs to the lamp room',
      })
    ).json();
    await client.post(`/api/story/message/${story.messageId}/generate-initial-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    await settlePicture(client, story.messageId);
    const [request] = painter.requests;
    expect(request.sceneText.length).toBeGreaterThan(40);
    expect(story.message.replace(/\s+/g, ' ')).toContain(request.sceneText.slice(0, 80));
    expect(request.prompt).toContain(request.sceneText);
    expect(request.prompt).not.toContain(next.message.slice(0, 60));
    expect(request.prompt).not.toContain('spiral stairs');
    expect(request.prompt.indexOf('Art style:')).toBe(0);
  });

  it('refuses bad input with the spec messages, and other players\u2019 stories and messages as not found', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await start(client);
    const url = `/api/story/message/${story.messageId}/generate-image`;
    const cases: Array<[unknown, number, string]> = [
      [{ storyId: story.storyId }, 400, 'No content available for image generation'],
      [{ content: '   ', storyId: story.storyId }, 400, 'No content available for image generation'],
      [{ content: 'A scene' }, 400, 'Cannot generate image: Story not properly initialized'],
      [{ content: 'A scene', storyId: 'abc' }, 400, 'Cannot generate image: Story not properly initialized'],
      [{ content: 'A scene', storyId: 0 }, 400, 'Cannot generate image: Story not properly initialized'],
    ];
    for (const [body, status, message] of cases) {
      const res = await client.post(url, body);
      expect([res.statusCode, res.json().message]).toEqual([status, message]);
    }
    const premiseId = story.messageId - 1;
    const userMessage = await client.post(`/api/story/message/${premiseId}/generate-image`, {
      content: 'x',
      storyId: story.storyId,
    });
    expect([userMessage.statusCode, userMessage.json().message]).toEqual([
      404,
      'Could not find message to generate image for',
    ]);
    const missing = await client.post('/api/story/message/99999999/generate-image', {
      content: 'x',
      storyId: story.storyId,
    });
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'Could not find message to generate image for']);
    const badId = await client.post('/api/story/message/abc/generate-image', { content: 'x', storyId: story.storyId });
    expect(badId.statusCode).toBe(400);

    const stranger = await registerUser(ctx.app);
    const foreign = await stranger.client.post(url, { content: story.message, storyId: story.storyId });
    expect([foreign.statusCode, foreign.json().message]).toEqual([
      404,
      'Cannot generate image: Story not properly initialized',
    ]);
    const ownStory = await start(stranger.client);
    const crossed = await stranger.client.post(url, { content: story.message, storyId: ownStory.storyId });
    expect([crossed.statusCode, crossed.json().message]).toEqual([404, 'Could not find message to generate image for']);
    expect((await new TestClient(ctx.app).post(url, { content: 'x', storyId: story.storyId })).statusCode).toBe(401);
    expect(painter.requests).toHaveLength(0);
  });
});

describe('failures', () => {
  it('retries a passing failure once, then fails with the reason the player reads', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await start(client);
    painter.queue.push({ kind: 'fail', failure: 'unavailable' }, { kind: 'fail', failure: 'unavailable' });
    await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    const res = await settlePicture(client, story.messageId);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'The painter is unavailable right now.', code: 'IMAGE_FAILED' });
    expect(painter.requests).toHaveLength(2);
    const state = (await client.get(`/api/story/${story.storyId}/current-state`)).json();
    expect(state.images).toEqual([
      expect.objectContaining({
        messageId: story.messageId,
        status: 'failed',
        error: 'The painter is unavailable right now.',
      }),
    ]);

    // Asking again after a failure starts a fresh job, which now succeeds.
    await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    expect((await settlePicture(client, story.messageId)).statusCode).toBe(200);
    expect(painter.requests).toHaveLength(3);
  });

  it('recovers from one passing failure without the player noticing', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await start(client);
    painter.queue.push({ kind: 'fail', failure: 'timeout' });
    await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    expect((await settlePicture(client, story.messageId)).statusCode).toBe(200);
    expect(painter.requests).toHaveLength(2);
  });

  it('does not retry what a retry cannot mend: a bad key says "Image generation failed", garbage says so too', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await start(client);
    painter.queue.push({ kind: 'fail', failure: 'misconfigured', detail: '401 Incorrect API key' });
    await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    const res = await settlePicture(client, story.messageId);
    expect([res.statusCode, res.json().message]).toEqual([422, 'Image generation failed']);
    expect(painter.requests).toHaveLength(1);

    const second = (await client.post(`/api/story/${story.storyId}/continue`, { message: 'I light the lamp' })).json();
    painter.queue.push({ kind: 'bytes', bytes: new TextEncoder().encode('<html>not a picture</html>') });
    await client.post(`/api/story/message/${second.messageId}/generate-image`, {
      content: second.message,
      storyId: story.storyId,
    });
    const garbage = await settlePicture(client, second.messageId);
    expect([garbage.statusCode, garbage.json().message]).toEqual([
      422,
      'The painter sent back something that is not a picture.',
    ]);
  });
});

describe('limits and usage', () => {
  it('counts each picture as image tokens in the ledger, the user figures and the admin card', async () => {
    const { client } = await registerUser(ctx.app);
    const before = (await client.get('/api/user')).json().tokenUsage;
    const story = await start(client);
    painter.queue.push({ kind: 'ok', imageTokens: 4160 });
    await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    await settlePicture(client, story.messageId);
    const second = (
      await client.post(`/api/story/${story.storyId}/continue`, { message: 'I wave at the ship' })
    ).json();
    await client.post(`/api/story/message/${second.messageId}/generate-image`, {
      content: second.message,
      storyId: story.storyId,
    });
    await settlePicture(client, second.messageId);
    const after = (await client.get('/api/user')).json().tokenUsage;
    // The provider's own count where it gives one, else the documented 1,000 per picture.
    expect(after.imageTokens - before.imageTokens).toBe(4160 + 1000);
  });

  it('answers 429 past IMAGE_MAX_PER_HOUR, with a clear message, and over the monthly allowance', async () => {
    const limited = await createTestApp({ image: { ...testConfig().image, maxPerHour: 2 } }, { painter });
    try {
      const { client } = await registerUser(limited.app);
      const story = await start(client);
      const ids = [story.messageId];
      for (const action of ['I look out to sea', 'I ring the bell'])
        ids.push((await client.post(`/api/story/${story.storyId}/continue`, { message: action })).json().messageId);
      const asks = [];
      for (const id of ids)
        asks.push(
          await client.post(`/api/story/message/${id}/generate-image`, { content: 'scene', storyId: story.storyId }),
        );
      expect(asks.map((r) => r.statusCode)).toEqual([202, 202, 429]);
      expect(asks[2].json().message).toBe(
        'You have asked for too many pictures this hour. Please wait a little before asking for another.',
      );
      limited.clock.advance(3_600_001);
      expect(
        (await client.post(`/api/story/message/${ids[2]}/generate-image`, { content: 'scene', storyId: story.storyId }))
          .statusCode,
      ).toBe(202);
    } finally {
      await limited.close();
    }
  });
});
