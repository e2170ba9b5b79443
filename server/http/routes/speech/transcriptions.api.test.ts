// Server transcription end to end, through the real OpenAI-compatible adapter against the
// wire-protocol fake: the recording reaches the transcriber byte for byte, the text comes back
// trimmed and lands in the ledger by characters; every refusal (type, size, empty, not audio,
// visitor, switched off, hourly limit) and provider fault has its status and message; the route's
// audio exception to the JSON-only write rule stays on this route alone.
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '@server/kernel/config';
import { createRepositories } from '@server/db/repositories';
import { withFakeSpeechApp } from '@server/test/fake-speech-app';
import { DEFAULT_TRANSCRIPT, silentMp3 } from '@server/test/fake-speech-server';
import { createTestApp, registerUser, TestClient, testConfig, type TestContext } from '@server/test/test-app';
import { MAX_RECORDING_BYTES } from '@shared/schemas/speech';

const KEY = 'sk-stt-test-key-0123456789';
const URL = '/api/speech/transcriptions';
/** What MediaRecorder gives in Chromium: a WebM (EBML) file. */
const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]),
  Buffer.alloc(4096, 3),
]);
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(2048, 1)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from('ftypM4A '), Buffer.alloc(2048, 2)]);
const WAV = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0x08, 0, 0]),
  Buffer.from('WAVEfmt '),
  Buffer.alloc(2048),
]);

// The upper bound of one transcription here: a hang answers 504 after it, and it must be long enough
// for a recording at the size limit to reach the fake transcriber on a busy machine (400 ms once was not).
const suite = withFakeSpeechApp(KEY, () => sttConfig({ timeoutMs: 2_000 }));
const { appLog } = suite;

function sttConfig(overrides: Partial<AppConfig['stt']> = {}): Partial<AppConfig> {
  return {
    stt: {
      ...testConfig().stt,
      provider: 'openai',
      baseUrl: suite.fake.baseUrl,
      apiKey: KEY,
      model: 'whisper-1',
      ...overrides,
    },
  };
}

/** `type` null sends no Content-Type at all. */
const send = (client: TestClient, body: Buffer | string, type: string | null = 'audio/webm') =>
  client.request({ method: 'POST', url: URL, headers: type === null ? {} : { 'content-type': type }, payload: body });

const transcriptionRows = async (context: TestContext, userId: number) =>
  (await createRepositories(context.database.db).usage.listForUser(userId)).filter(
    (row) => row.kind === 'transcription',
  );

describe('POST /api/speech/transcriptions', () => {
  it('sends the recording to the transcriber and answers its text, trimmed, counted in the ledger by characters', async () => {
    const { client, id } = await registerUser(suite.ctx.app);
    const before = (await client.get('/api/user')).json().tokenUsage;
    suite.fake.queue.transcriptions.push({ kind: 'ok', text: `  ${DEFAULT_TRANSCRIPT}\n` });
    const res = await send(client, WEBM, 'audio/webm;codecs=opus');
    expect([res.statusCode, res.json()]).toEqual([200, { text: DEFAULT_TRANSCRIPT }]);
    expect(suite.fake.requests).toHaveLength(1);
    const [sent] = suite.fake.requests;
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.form).toEqual({ model: 'whisper-1', response_format: 'json', language: 'en' });
    expect(sent.file).toEqual({ name: 'recording.webm', type: 'audio/webm', bytes: WEBM.length });
    expect(sent.audio?.equals(WEBM)).toBe(true);
    expect(await transcriptionRows(suite.ctx, id)).toEqual([
      {
        userId: id,
        kind: 'transcription',
        provider: 'openai',
        model: 'whisper-1',
        // No narrator made the call.
        narrator: 'default',
        inputTokens: 0,
        cachedInputTokens: 0,
        outputTokens: 0,
        imageTokens: 0,
        characters: DEFAULT_TRANSCRIPT.length,
      },
    ]);
    expect((await client.get('/api/user')).json().tokenUsage).toEqual(before);
    expect(res.body).not.toContain(KEY);
  });

  it('takes every recording type browsers make, and names the file after what the bytes really are', async () => {
    const { client } = await registerUser(suite.ctx.app);
    const cases: Array<[Buffer, string, string]> = [
      [OGG, 'audio/ogg; codecs=opus', 'recording.ogg'],
      [MP4, 'audio/mp4', 'recording.mp4'],
      [silentMp3('Hello there.'), 'audio/mpeg', 'recording.mp3'],
      [WAV, 'audio/wav', 'recording.wav'],
      [WAV, 'audio/x-wav', 'recording.wav'],
      // Safari's MP4 sent under a generic type still reaches the transcriber as MP4.
      [MP4, 'audio/webm', 'recording.mp4'],
    ];
    for (const [body, type] of cases) expect([type, (await send(client, body, type)).statusCode]).toEqual([type, 200]);
    expect(suite.fake.requests.map((r) => r.file?.name)).toEqual(cases.map(([, , name]) => name));
  });

  it('refuses what is not a recording with the messages the player reads, before the transcriber sees it', async () => {
    const { client } = await registerUser(suite.ctx.app);
    const audioType = {
      message: 'Send the recording as WebM, Ogg, MP4, MPEG or WAV audio.',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    };
    const cases: Array<[Buffer | string, string | null, number, object]> = [
      [WEBM, 'audio/flac', 415, audioType],
      [WEBM, 'application/octet-stream', 415, audioType],
      [JSON.stringify({ audio: 'x' }), 'application/json', 415, audioType],
      ['hello', 'text/plain', 415, audioType],
      [WEBM, null, 415, audioType],
      // The header says WebM; the bytes are an HTML page.
      ['<html><body>not audio</body></html>', 'audio/webm', 415, audioType],
      ['', 'audio/webm', 400, { message: 'The recording was empty. Please try again.', code: 'VALIDATION_ERROR' }],
      [
        Buffer.alloc(MAX_RECORDING_BYTES + 1, 0x1a),
        'audio/webm',
        413,
        { message: 'A recording can be at most 10 MB.', code: 'PAYLOAD_TOO_LARGE' },
      ],
    ];
    for (const [body, type, status, error] of cases) {
      const res = await send(client, body, type);
      expect([type, res.statusCode, res.json()]).toEqual([type, status, error]);
    }
    // Exactly the limit is accepted.
    const atLimit = Buffer.concat([WEBM, Buffer.alloc(MAX_RECORDING_BYTES - WEBM.length)]);
    expect((await send(client, atLimit)).statusCode).toBe(200);
    expect(suite.fake.requests.map((r) => r.file?.bytes)).toEqual([MAX_RECORDING_BYTES]);
  });

  it('answers 401 to a visitor and 503 STT_DISABLED when server transcription is off', async () => {
    const visitor = await send(new TestClient(suite.ctx.app), WEBM);
    expect([visitor.statusCode, visitor.json()]).toEqual([
      401,
      { message: 'Authentication required', code: 'UNAUTHENTICATED' },
    ]);
    const off = await createTestApp();
    try {
      const { client } = await registerUser(off.app);
      const res = await send(client, WEBM);
      expect([res.statusCode, res.json()]).toEqual([
        503,
        { message: 'Server transcription is turned off on this server.', code: 'STT_DISABLED' },
      ]);
    } finally {
      await off.close();
    }
    expect(suite.fake.requests).toHaveLength(0);
  });

  it.each([
    ['an error status', { kind: 'status', status: 500 }, 502, 'TRANSCRIPTION_FAILED'],
    ['a garbage body', { kind: 'garbage' }, 502, 'TRANSCRIPTION_FAILED'],
    ['a dropped connection', { kind: 'drop' }, 502, 'TRANSCRIPTION_FAILED'],
    ['a hang past STT_TIMEOUT_MS', { kind: 'hang' }, 504, 'TRANSCRIPTION_TIMEOUT'],
  ] as const)(
    'answers %s from the transcriber with the spec message, records nothing and logs the detail',
    async (_name, behaviour, status, code) => {
      const { client, id } = await registerUser(suite.ctx.app);
      suite.fake.queue.transcriptions.push(behaviour);
      appLog.clear();
      const res = await send(client, WEBM);
      expect([res.statusCode, res.json()]).toEqual([
        status,
        { message: 'Failed to record audio. Please try again.', code },
      ]);
      expect(await transcriptionRows(suite.ctx, id)).toHaveLength(0);
      expect(appLog.text()).toMatch(/transcription provider call failed/);
      expect(appLog.text()).not.toContain(KEY);
    },
  );

  it('answers 502 for a wrong key, without the key in the answer', async () => {
    const wrong = await createTestApp(sttConfig({ apiKey: 'sk-wrong-stt-key-9876' }));
    try {
      const { client } = await registerUser(wrong.app);
      const res = await send(client, WEBM);
      expect([res.statusCode, res.json()]).toEqual([
        502,
        { message: 'Failed to record audio. Please try again.', code: 'TRANSCRIPTION_FAILED' },
      ]);
      expect(res.body).not.toContain('sk-wrong-stt-key-9876');
    } finally {
      await wrong.close();
    }
  });

  it('answers 429 past STT_MAX_PER_HOUR; refused recordings are not counted', async () => {
    const limited = await createTestApp(sttConfig({ maxPerHour: 2 }));
    try {
      const { client } = await registerUser(limited.app);
      expect((await send(client, '', 'audio/webm')).statusCode).toBe(400);
      expect((await send(client, 'not audio', 'audio/webm')).statusCode).toBe(415);
      expect((await send(client, WEBM)).statusCode).toBe(200);
      expect((await send(client, WEBM)).statusCode).toBe(200);
      const over = await send(client, WEBM);
      expect([over.statusCode, over.json()]).toEqual([
        429,
        {
          message: 'You have sent too many recordings this hour. Please wait a little before speaking again.',
          code: 'RATE_LIMITED',
        },
      ]);
      expect(suite.fake.requests).toHaveLength(2);
      limited.clock.advance(3_600_001);
      expect((await send(client, WEBM)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the JSON-only write rule', () => {
  it('still refuses audio on every other write, with the JSON message', async () => {
    const { client } = await registerUser(suite.ctx.app);
    for (const url of ['/api/story/start', '/api/bookmarks', '/api/preferences']) {
      const res = await client.request({
        method: 'POST',
        url,
        headers: { 'content-type': 'audio/webm' },
        payload: WEBM,
      });
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        415,
        { message: 'Request body must be JSON (Content-Type: application/json)', code: 'UNSUPPORTED_MEDIA_TYPE' },
      ]);
    }
    const tooLarge = await client.request({
      method: 'POST',
      url: '/api/story/start',
      payload: JSON.stringify({ prompt: 'x'.repeat(70 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect([tooLarge.statusCode, tooLarge.json().message]).toEqual([413, 'Request body is too large']);
  });
});
