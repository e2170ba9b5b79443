// A painter's answer that points the server at an address it must not fetch (SSRF) fails
// the picture with the reason players already know, at once and without a retry, and the server
// goes on painting: the OpenAI-compatible adapter against the local fake, on a real job queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePng, startFakeImageServer, type FakeImageServer } from '@server/test/fake-image-server';
import { settlePicture } from '@server/test/fake-painter';
import { createTestApp, registerUser, testConfig, type TestContext } from '@server/test/test-app';

const KEY = 'sk-image-url-test';
let fake: FakeImageServer;
let ctx: TestContext;
beforeAll(async () => {
  fake = await startFakeImageServer({ apiKey: KEY });
  fake.putFile('scene.png', await fakePng(3));
  const image = {
    ...testConfig().image,
    provider: 'openai' as const,
    baseUrl: fake.openaiBaseUrl,
    apiKey: KEY,
    model: 'gpt-image-1',
    timeoutMs: 5000,
  };
  ctx = await createTestApp({ image });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

describe('a picture URL the server must not fetch', () => {
  it('fails the picture with "not a picture" after one call, and the next picture is painted', async () => {
    const { client } = await registerUser(ctx.app);
    const story = (await client.post('/api/story/start', { prompt: 'A lighthouse keeper on a stormy coast' })).json();
    const port = new URL(fake.a1111BaseUrl).port;
    const calls = fake.requests.length;
    fake.queue.push({
      kind: 'url',
      url: `${fake.a1111BaseUrl}/files/redirect?to=${encodeURIComponent(`http://localhost:${port}/files/scene.png`)}`,
    });
    await client.post(`/api/story/message/${story.messageId}/generate-image`, {
      content: story.message,
      storyId: story.storyId,
    });
    const refused = await settlePicture(client, story.messageId);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: 'The painter sent back something that is not a picture.',
      code: 'IMAGE_FAILED',
    });
    expect(fake.requests.length - calls).toBe(1);
    expect(fake.downloads.filter((path) => path === '/files/scene.png')).toHaveLength(0);

    const next = (await client.post(`/api/story/${story.storyId}/continue`, { message: 'I climb the stairs' })).json();
    fake.queue.push({ kind: 'url', url: `${fake.a1111BaseUrl}/files/scene.png` });
    await client.post(`/api/story/message/${next.messageId}/generate-image`, {
      content: next.message,
      storyId: story.storyId,
    });
    expect((await settlePicture(client, next.messageId)).statusCode).toBe(200);
    expect(fake.downloads.filter((path) => path === '/files/scene.png')).toHaveLength(1);
  });
});
