// Server voices end to end, through the real OpenAI-compatible adapter against the wire-protocol
// fake: a reply spoken sentence by sentence, the bytes the voice made, the clip kept and replayed
// without a second call or ledger row, ETag revalidation, ownership, every refusal with its
// message, provider faults (details in the log, never the key) and the hourly limit. Also what
// GET /api/features says about speech and ads, both ways.
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '@server/kernel/config';
import { createRepositories } from '@server/db/repositories';
import { withFakeSpeechApp } from '@server/test/fake-speech-app';
import { silentMp3 } from '@server/test/fake-speech-server';
import { createTestApp, registerUser, TestClient, testConfig, type TestContext } from '@server/test/test-app';
import { splitSentences } from '@shared/speech/sentences';

const KEY = 'sk-speech-test-key-0123456789';
const PREMISE = 'A lighthouse keeper named Mara Venn guards a stormy northern coast';

const suite = withFakeSpeechApp(KEY, () => speechConfig({ timeoutMs: 400 }));
const { appLog } = suite;

function speechConfig(overrides: Partial<AppConfig['tts']> = {}): Partial<AppConfig> {
  return {
    tts: {
      ...testConfig().tts,
      provider: 'openai',
      baseUrl: suite.fake.baseUrl,
      apiKey: KEY,
      model: 'tts-1',
      voices: ['nova', 'af_bella'],
      ...overrides,
    },
  };
}

async function start(client: TestClient) {
  const res = await client.post('/api/story/start', { prompt: PREMISE });
  expect(res.statusCode).toBe(200);
  const story = res.json() as { storyId: number; messageId: number; message: string };
  return {
    ...story,
    sentences: splitSentences(story.message),
    url: (part: number, voice = 'nova') =>
      `/api/story/${story.storyId}/messages/${story.messageId}/speech/${part}?voice=${voice}`,
  };
}

const speechRows = async (context: TestContext, storyId: number) =>
  (await createRepositories(context.database.db).usage.listForStory(storyId)).filter((row) => row.kind === 'speech');

describe('GET /api/story/{storyId}/messages/{messageId}/speech/{part}', () => {
  it('speaks one sentence in the chosen voice, keeps it and replays it without a second call or ledger row', async () => {
    const { client, id } = await registerUser(suite.ctx.app);
    const story = await start(client);
    expect(story.sentences.length).toBeGreaterThan(2);
    const before = (await client.get('/api/user')).json().tokenUsage;

    const first = await client.get(story.url(0));
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mpeg');
    expect(first.headers['x-speech-parts']).toBe(String(story.sentences.length));
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.rawPayload.equals(silentMp3(story.sentences[0]))).toBe(true);
    expect(suite.fake.requests).toEqual([
      {
        path: 'speech',
        authorization: `Bearer ${KEY}`,
        json: { model: 'tts-1', voice: 'nova', input: story.sentences[0], response_format: 'mp3' },
      },
    ]);
    expect(await speechRows(suite.ctx, story.storyId)).toEqual([
      {
        userId: id,
        kind: 'speech',
        provider: 'openai',
        model: 'tts-1',
        // No narrator made the call.
        narrator: 'default',
        inputTokens: 0,
        cachedInputTokens: 0,
        outputTokens: 0,
        imageTokens: 0,
        characters: story.sentences[0].length,
      },
    ]);

    const replay = await client.get(story.url(0));
    expect(replay.statusCode).toBe(200);
    expect(replay.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(replay.headers.etag).toBe(first.headers.etag);
    expect(suite.fake.requests).toHaveLength(1);
    expect(await speechRows(suite.ctx, story.storyId)).toHaveLength(1);

    const revalidated = await client.request({
      method: 'GET',
      url: story.url(0),
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers['x-speech-parts']).toBe(String(story.sentences.length));
    expect(revalidated.headers.etag).toBe(first.headers.etag);

    // Speech is counted in characters: the token figures the player and admins see are unchanged.
    expect((await client.get('/api/user')).json().tokenUsage).toEqual(before);
  });

  it('speaks the last part, refuses the one past it, and makes a separate clip per voice', async () => {
    const { client } = await registerUser(suite.ctx.app);
    const story = await start(client);
    const last = story.sentences.length - 1;
    const lastPart = await client.get(story.url(last, 'af_bella'));
    expect(lastPart.statusCode).toBe(200);
    expect(lastPart.rawPayload.equals(silentMp3(story.sentences[last]))).toBe(true);
    expect(suite.fake.requests.map((r) => [r.json?.voice, r.json?.input])).toEqual([
      ['af_bella', story.sentences[last]],
    ]);
    const past = await client.get(story.url(last + 1));
    expect([past.statusCode, past.json()]).toEqual([
      404,
      { message: 'That part of the reply does not exist.', code: 'NOT_FOUND' },
    ]);
    expect((await client.get(story.url(last, 'nova'))).statusCode).toBe(200);
    expect(suite.fake.requests).toHaveLength(2);
  });

  it('makes a clip asked for twice at once only once', async () => {
    const { client } = await registerUser(suite.ctx.app);
    const story = await start(client);
    suite.fake.queue.speech.push({ kind: 'ok', latencyMs: 200 });
    const [a, b] = await Promise.all([client.get(story.url(1)), client.get(story.url(1))]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
    expect(suite.fake.requests).toHaveLength(1);
    expect(await speechRows(suite.ctx, story.storyId)).toHaveLength(1);
  });

  it('answers HEAD with the number of parts, without paying for a clip', async () => {
    const { client } = await registerUser(suite.ctx.app);
    const story = await start(client);
    const head = await client.request({ method: 'HEAD', url: story.url(1) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['x-speech-parts']).toBe(String(story.sentences.length));
    expect(suite.fake.requests).toHaveLength(0);
  });

  it("is the owner's only: visitors 401, other players' stories and messages 404", async () => {
    const owner = await registerUser(suite.ctx.app);
    const story = await start(owner.client);
    const stranger = await registerUser(suite.ctx.app);
    const strangers = await start(stranger.client);
    const notFound = { message: 'Message not found', code: 'NOT_FOUND' };

    const visitor = await new TestClient(suite.ctx.app).get(story.url(0));
    expect([visitor.statusCode, visitor.json()]).toEqual([
      401,
      { message: 'Authentication required', code: 'UNAUTHENTICATED' },
    ]);
    const foreign = await stranger.client.get(story.url(0));
    expect([foreign.statusCode, foreign.json()]).toEqual([404, notFound]);
    // The stranger's own story with the owner's message in it, and the owner's story with the stranger's message.
    const crossed = await stranger.client.get(
      `/api/story/${strangers.storyId}/messages/${story.messageId}/speech/0?voice=nova`,
    );
    expect([crossed.statusCode, crossed.json()]).toEqual([404, notFound]);
    const mixed = await owner.client.get(
      `/api/story/${story.storyId}/messages/${strangers.messageId}/speech/0?voice=nova`,
    );
    expect([mixed.statusCode, mixed.json()]).toEqual([404, notFound]);
    // The owner's own message, asked for under another of the owner's stories.
    const other = await start(owner.client);
    const wrongStory = await owner.client.get(
      `/api/story/${other.storyId}/messages/${story.messageId}/speech/0?voice=nova`,
    );
    expect([wrongStory.statusCode, wrongStory.json()]).toEqual([404, notFound]);
    const missing = await owner.client.get(`/api/story/${story.storyId}/messages/99999999999/speech/0?voice=nova`);
    expect([missing.statusCode, missing.json()]).toEqual([404, notFound]);
    expect(suite.fake.requests).toHaveLength(0);
  });

  it('refuses what cannot be spoken with the messages the player reads', async () => {
    const { client } = await registerUser(suite.ctx.app);
    const story = await start(client);
    const base = `/api/story/${story.storyId}/messages`;
    const cases: Array<[string, number, string, string]> = [
      [story.url(0, 'shimmer'), 400, 'Choose one of the voices this server offers.', 'VALIDATION_ERROR'],
      [`${base}/${story.messageId}/speech/0`, 400, 'Choose one of the voices this server offers.', 'VALIDATION_ERROR'],
      [
        `${base}/${story.messageId}/speech/0?voice=%20`,
        400,
        'Choose one of the voices this server offers.',
        'VALIDATION_ERROR',
      ],
      // The premise is the player's message, not the narrator's.
      [
        `${base}/${story.messageId - 1}/speech/0?voice=nova`,
        400,
        "Only the narrator's replies can be read aloud.",
        'VALIDATION_ERROR',
      ],
      [
        `${base}/${story.messageId}/speech/-1?voice=nova`,
        400,
        'That part of the reply does not exist.',
        'VALIDATION_ERROR',
      ],
      [
        `${base}/${story.messageId}/speech/x?voice=nova`,
        400,
        'That part of the reply does not exist.',
        'VALIDATION_ERROR',
      ],
      [`${base}/${story.messageId}/speech/9999?voice=nova`, 404, 'That part of the reply does not exist.', 'NOT_FOUND'],
      [`/api/story/abc/messages/${story.messageId}/speech/0?voice=nova`, 400, 'Message not found', 'VALIDATION_ERROR'],
    ];
    for (const [url, status, message, code] of cases) {
      const res = await client.get(url);
      expect([url, res.statusCode, res.json().message, res.json().code]).toEqual([url, status, message, code]);
    }
    expect(suite.fake.requests).toHaveLength(0);
  });

  it.each([
    ['an error status', { kind: 'status', status: 500 }, 502, 'SPEECH_FAILED'],
    ['a garbage body', { kind: 'garbage' }, 502, 'SPEECH_FAILED'],
    ['a dropped connection', { kind: 'drop' }, 502, 'SPEECH_FAILED'],
    ['a hang past TTS_TIMEOUT_MS', { kind: 'hang' }, 504, 'SPEECH_TIMEOUT'],
  ] as const)(
    'answers %s from the voice with the spec message, keeps nothing and logs the detail',
    async (_name, behaviour, status, code) => {
      const { client } = await registerUser(suite.ctx.app);
      const story = await start(client);
      suite.fake.queue.speech.push(behaviour);
      appLog.clear();
      const failed = await client.get(story.url(0));
      expect([failed.statusCode, failed.json()]).toEqual([
        status,
        { message: 'Failed to speak the text. Please try again.', code },
      ]);
      expect(await speechRows(suite.ctx, story.storyId)).toHaveLength(0);
      expect(appLog.text()).toMatch(/speech provider call failed/);
      expect(appLog.text()).not.toContain(KEY);
      // Nothing was kept, so the next ask calls the voice again, and now succeeds.
      const retried = await client.get(story.url(0));
      expect(retried.statusCode).toBe(200);
      expect(suite.fake.requests).toHaveLength(2);
      expect(await speechRows(suite.ctx, story.storyId)).toHaveLength(1);
    },
  );

  it('answers 502 for a wrong key, without the key in the answer', async () => {
    const wrong = await createTestApp(speechConfig({ apiKey: 'sk-wrong-speech-key-9876' }));
    try {
      const { client } = await registerUser(wrong.app);
      const story = await start(client);
      const res = await client.get(story.url(0));
      expect([res.statusCode, res.json()]).toEqual([
        502,
        { message: 'Failed to speak the text. Please try again.', code: 'SPEECH_FAILED' },
      ]);
      expect(res.body).not.toContain('sk-wrong-speech-key-9876');
      expect(suite.fake.requests[0].authorization).toBe('Bearer sk-wrong-speech-key-9876');
    } finally {
      await wrong.close();
    }
  });

  it('answers 429 past TTS_MAX_PER_HOUR for new clips only; replays are never counted', async () => {
    const limited = await createTestApp(speechConfig({ maxPerHour: 2 }));
    try {
      const { client } = await registerUser(limited.app);
      const story = await start(client);
      expect((await client.get(story.url(0))).statusCode).toBe(200);
      expect((await client.get(story.url(1))).statusCode).toBe(200);
      const over = await client.get(story.url(2));
      expect([over.statusCode, over.json()]).toEqual([
        429,
        {
          message: 'You have asked for too much narration this hour. Please wait a little before listening again.',
          code: 'RATE_LIMITED',
        },
      ]);
      expect(over.headers['retry-after']).toBeDefined();
      expect([over.headers.etag, over.headers['x-speech-parts'], over.headers['cache-control']]).toEqual([
        undefined,
        undefined,
        'no-store',
      ]);
      for (let i = 0; i < 3; i += 1) expect((await client.get(story.url(i % 2))).statusCode).toBe(200);
      expect(suite.fake.requests).toHaveLength(2);
      limited.clock.advance(3_600_001);
      expect((await client.get(story.url(2))).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('answers 503 TTS_DISABLED when server voices are off', async () => {
    const off = await createTestApp();
    try {
      const { client } = await registerUser(off.app);
      const story = await start(client);
      const res = await client.get(story.url(0));
      expect([res.statusCode, res.json()]).toEqual([
        503,
        { message: 'Server voices are turned off on this server.', code: 'TTS_DISABLED' },
      ]);
    } finally {
      await off.close();
    }
  });
});

describe('GET /api/features', () => {
  it('names the server voices, transcription and the ads settings, and nothing secret', async () => {
    const on = await createTestApp({
      ...speechConfig(),
      stt: {
        ...testConfig().stt,
        provider: 'openai',
        baseUrl: suite.fake.baseUrl,
        apiKey: 'sk-stt-secret-key',
        model: 'whisper-1',
      },
      ads: { enabled: false, sponsorUrl: 'https://sponsor.example.com/tw' },
    });
    try {
      const res = await new TestClient(on.app).get('/api/features');
      expect(res.json()).toEqual({
        images: true,
        speech: { voices: ['nova', 'af_bella'], transcription: true },
        ads: { enabled: false, sponsorUrl: 'https://sponsor.example.com/tw' },
      });
      for (const secret of [KEY, 'sk-stt-secret-key', suite.fake.baseUrl, '127.0.0.1'])
        expect(res.body).not.toContain(secret);
    } finally {
      await on.close();
    }
  });

  it('offers no server voices and no transcription when they are unset, and ads with the house ad by default', async () => {
    const off = await createTestApp();
    try {
      const res = await new TestClient(off.app).get('/api/features');
      expect(res.json()).toEqual({
        images: true,
        speech: { voices: [], transcription: false },
        ads: { enabled: true, sponsorUrl: null },
      });
    } finally {
      await off.close();
    }
  });
});
