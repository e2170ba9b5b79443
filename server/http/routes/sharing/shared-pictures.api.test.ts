// A shared story's pictures as readers get them: counted per IP (an IPv6 /64 as one) in a bucket of
// their own, so a gallery neither uses up nor is stopped by the story reads; past it a 429 that
// says so; cached for a minute like the snapshot, not for a year, so a stopped share stops showing
// them once that minute is over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlePicture } from '@server/test/fake-painter';
import { registerUser, TestClient, type TestContext, createPaintingTestApp } from '@server/test/test-app';

const PICTURES_PER_MINUTE = 3;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createPaintingTestApp({ sharedPicturesPerMinute: PICTURES_PER_MINUTE, sharedReadsPerMinute: 100 });
});
afterAll(() => ctx.close());

/** A story with one picture, shared: the picture's public address and the share's id. */
async function sharedPicture(): Promise<{ shareId: string; picture: string; thumbnail: string; owner: TestClient }> {
  const { client } = await registerUser(ctx.app);
  await client.post('/api/preferences', { imageGeneration: true });
  const started = (await client.post('/api/story/start', { prompt: 'A lantern-maker sells light to ghosts' })).json();
  await settlePicture(client, started.messageId);
  const { shareId } = (await client.post(`/api/story/${started.storyId}/share`, { title: 'Lanterns' })).json();
  const message = (await new TestClient(ctx.app, '10.80.0.250').get(`/api/shared/${shareId}`))
    .json()
    .messages.find((m: { image?: string }) => m.image);
  return { shareId, picture: message.image, thumbnail: message.thumbnail, owner: client };
}

describe('GET /api/shared/{shareId}/images/{file}', () => {
  it('is cached for a minute, without immutable, and revalidates to a 304', async () => {
    const { picture } = await sharedPicture();
    const reader = new TestClient(ctx.app, '10.80.0.1');
    const first = await reader.get(picture);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await reader.request({
      method: 'GET',
      url: picture,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('public, max-age=60');
  });

  it('counts pictures per IP in their own bucket and refuses past it with a clear 429', async () => {
    const { shareId, picture, thumbnail } = await sharedPicture();
    const reader = new TestClient(ctx.app, '2001:db8:80:1::1');
    for (let i = 0; i < PICTURES_PER_MINUTE; i += 1)
      expect((await reader.get(i % 2 ? thumbnail : picture)).statusCode).toBe(200);
    const refused = await reader.get(picture);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many shared pictures requested. Please wait a minute and try again.',
      code: 'RATE_LIMITED',
    });
    expect(refused.headers['retry-after']).toBe('60');
    // The same /64 is the same reader; pictures that do not exist count too (no guessing for free).
    expect((await new TestClient(ctx.app, '2001:db8:80:1:ffff::9').get(thumbnail)).statusCode).toBe(429);
    expect(
      (await new TestClient(ctx.app, '2001:db8:80:1::2').get(`/api/shared/${shareId}/images/${'0'.repeat(64)}.webp`))
        .statusCode,
    ).toBe(429);
    // The story itself is still readable from there: its reads are counted apart.
    expect((await reader.get(`/api/shared/${shareId}`)).statusCode).toBe(200);
    // Another address is untouched, and the window ends after a minute.
    expect((await new TestClient(ctx.app, '2001:db8:80:2::1').get(picture)).statusCode).toBe(200);
    ctx.clock.advance(61_000);
    expect((await reader.get(picture)).statusCode).toBe(200);
  });

  it('stops showing a stopped share\u2019s pictures', async () => {
    const { shareId, picture, owner } = await sharedPicture();
    const reader = new TestClient(ctx.app, '10.80.0.3');
    expect((await reader.get(picture)).statusCode).toBe(200);
    expect((await owner.request({ method: 'DELETE', url: `/api/shared/${shareId}`, json: {} })).statusCode).toBe(200);
    expect((await reader.get(picture)).statusCode).toBe(404);
  });
});
