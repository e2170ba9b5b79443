// Speech and transcription inside the monthly allowance: each counts toward
// USER_MONTHLY_TOKEN_LIMIT as allowance tokens (a spoken character a quarter of a token, a
// transcript's character two, at least 25 a recording), a spent month refuses them before the
// provider is asked, and a sentence asked for by another site's page is answered only from a kept clip.
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '@server/kernel/config';
import { createRepositories } from '@server/db/repositories';
import { withFakeSpeechApp } from '@server/test/fake-speech-app';
import { DEFAULT_TRANSCRIPT } from '@server/test/fake-speech-server';
import { registerUser, TestClient, testConfig } from '@server/test/test-app';
import { splitSentences } from '@shared/speech/sentences';

const KEY = 'sk-speech-allowance-0123456789';
const LIMIT = 5_000;
const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]),
  Buffer.alloc(4096, 3),
]);
const ALLOWANCE_USED = { message: "You have used this month's story allowance.", code: 'ALLOWANCE_USED' };

const suite = withFakeSpeechApp(KEY, (): Partial<AppConfig> => {
  const base = testConfig();
  return {
    userMonthlyTokenLimit: LIMIT,
    tts: {
      ...base.tts,
      provider: 'openai',
      baseUrl: suite.fake.baseUrl,
      apiKey: KEY,
      model: 'tts-1',
      voices: ['nova'],
    },
    stt: { ...base.stt, provider: 'openai', baseUrl: suite.fake.baseUrl, apiKey: KEY, model: 'whisper-1' },
  };
});

async function start(client: TestClient) {
  const story = (
    await client.post('/api/story/start', {
      prompt: 'A lighthouse keeper named Mara Venn guards a stormy northern coast',
    })
  ).json() as { storyId: number; messageId: number; message: string };
  return {
    ...story,
    sentences: splitSentences(story.message),
    url: (part: number) => `/api/story/${story.storyId}/messages/${story.messageId}/speech/${part}?voice=nova`,
  };
}

const balanceOf = async (client: TestClient) => (await client.get('/api/user')).json().tokenUsage.balance as number;

describe('speech and transcription in the monthly allowance', () => {
  it('spends a quarter token a spoken character and two a transcript character, and shows it in the balance', async () => {
    const { client } = await registerUser(suite.ctx.app);
    const story = await start(client);
    const before = await balanceOf(client);
    expect((await client.get(story.url(0))).statusCode).toBe(200);
    expect(await balanceOf(client)).toBe(before - Math.ceil(story.sentences[0].length / 4));
    // A replay of the kept clip is free.
    expect((await client.get(story.url(0))).statusCode).toBe(200);
    expect(await balanceOf(client)).toBe(before - Math.ceil(story.sentences[0].length / 4));
    const afterSpeech = await balanceOf(client);
    suite.fake.queue.transcriptions.push({ kind: 'ok', text: DEFAULT_TRANSCRIPT });
    expect(
      (
        await client.request({
          method: 'POST',
          url: '/api/speech/transcriptions',
          headers: { 'content-type': 'audio/webm' },
          payload: WEBM,
        })
      ).statusCode,
    ).toBe(200);
    expect(await balanceOf(client)).toBe(afterSpeech - Math.max(25, 2 * DEFAULT_TRANSCRIPT.length));
  });

  it('refuses new clips and recordings once the month is spent, before the provider is asked; kept clips still play', async () => {
    const { client, id } = await registerUser(suite.ctx.app);
    const story = await start(client);
    expect((await client.get(story.url(0))).statusCode).toBe(200);
    await createRepositories(suite.ctx.database.db).usage.record({
      userId: id,
      storyId: story.storyId,
      kind: 'turn',
      provider: 'builtin',
      model: 'taleweaver-demo',
      inputTokens: LIMIT,
      createdAt: suite.ctx.clock.now,
    });
    const asked = suite.fake.requests.length;
    const clip = await client.get(story.url(1));
    expect([clip.statusCode, clip.json()]).toEqual([429, ALLOWANCE_USED]);
    const recording = await client.request({
      method: 'POST',
      url: '/api/speech/transcriptions',
      headers: { 'content-type': 'audio/webm' },
      payload: WEBM,
    });
    expect([recording.statusCode, recording.json()]).toEqual([429, ALLOWANCE_USED]);
    expect(suite.fake.requests).toHaveLength(asked);
    expect((await client.get(story.url(0))).statusCode).toBe(200);
  });

  it("answers a sentence asked for by another site's page from a kept clip only, never with a new one", async () => {
    const { client } = await registerUser(suite.ctx.app);
    const story = await start(client);
    const asked = suite.fake.requests.length;
    const foreign = await client.request({
      method: 'GET',
      url: story.url(0),
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect([foreign.statusCode, foreign.json()]).toEqual([
      403,
      { message: 'Open the story in Taleweaver to do this.', code: 'FORBIDDEN' },
    ]);
    expect(suite.fake.requests).toHaveLength(asked);
    expect((await client.get(story.url(0))).statusCode).toBe(200);
    const kept = await client.request({
      method: 'GET',
      url: story.url(0),
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect([kept.statusCode, kept.headers['content-type']]).toEqual([200, 'audio/mpeg']);
    expect(suite.fake.requests).toHaveLength(asked + 1);
  });
});
