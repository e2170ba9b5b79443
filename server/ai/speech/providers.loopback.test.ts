// The OpenAI-compatible speech and transcription adapters against a local fake speaking the real
// wire protocol: what each request carries, the answers as they come, and every fault (bad key,
// unknown model or path, 5xx, 429, hang, cancelled, dropped connection, unreachable, garbage, empty,
// not audio, too large) mapped to the right kind, with the key never in what is logged. Also the registry.
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoKeys, failureOf as failureOfKind } from '@server/test/failure-of';
import {
  DEFAULT_TRANSCRIPT,
  silentMp3,
  startFakeSpeechServer,
  type FakeSpeechServer,
  type SpeechPath,
} from '@server/test/fake-speech-server';
import { MAX_SPEECH_BYTES, MAX_SPEECH_INPUT_CHARS, speechInput } from './openai-tts';
import { createSttProvider, createTtsProvider } from './registry';
import { SpeechError, type SttConfig, type TtsConfig } from './types';
import { listenOnLoopback } from '@server/test/listen-on-loopback';

const KEY = 'sk-test-key-0123456789';
const SENTENCE = 'The lantern gutters as you step inside the lighthouse.';
/** A WebM recording's first bytes (EBML magic) and some payload. */
const RECORDING = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(3000, 7)]);

const ttsConfig = (baseUrl: string, overrides: Partial<TtsConfig> = {}): TtsConfig => ({
  provider: 'openai',
  baseUrl,
  apiKey: KEY,
  model: 'tts-1',
  voices: ['nova'],
  timeoutMs: 5000,
  maxPerHour: 600,
  ...overrides,
});
const sttConfig = (baseUrl: string, overrides: Partial<SttConfig> = {}): SttConfig => ({
  provider: 'openai',
  baseUrl,
  apiKey: KEY,
  model: 'whisper-1',
  timeoutMs: 5000,
  maxPerHour: 60,
  ...overrides,
});

const failureOf = (promise: Promise<unknown>) => failureOfKind(promise, SpeechError);

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const { port } = await listenOnLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A one-off server answering every request with `answer`, for replies the fake does not make. */
async function oneOff(answer: (res: ServerResponse) => void): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  const { url } = await listenOnLoopback(server);
  return {
    baseUrl: `${url}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let fake: FakeSpeechServer;
beforeAll(async () => {
  fake = await startFakeSpeechServer({ apiKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** One call of the adapter serving `path`, with config overrides. */
function callAdapter(
  path: SpeechPath,
  overrides: Partial<TtsConfig & SttConfig> = {},
  signal = new AbortController().signal,
): Promise<unknown> {
  if (path === 'speech')
    return createTtsProvider(ttsConfig(fake.baseUrl, overrides))!.synthesize({ text: SENTENCE, voice: 'nova', signal });
  return createSttProvider(sttConfig(fake.baseUrl, overrides))!.transcribe({
    audio: RECORDING,
    mime: 'audio/webm',
    filename: 'recording.webm',
    signal,
  });
}

describe('OpenAI-compatible speech (POST /audio/speech)', () => {
  it('answers the MP3 the service made and sends the model, voice, sentence, format and key', async () => {
    const result = await createTtsProvider(ttsConfig(fake.baseUrl))!.synthesize({
      text: SENTENCE,
      voice: 'nova',
      signal: new AbortController().signal,
    });
    expect(result.mime).toBe('audio/mpeg');
    expect(Buffer.from(result.bytes).equals(silentMp3(SENTENCE))).toBe(true);
    expect(fake.requests).toEqual([
      {
        path: 'speech',
        authorization: `Bearer ${KEY}`,
        json: { model: 'tts-1', voice: 'nova', input: SENTENCE, response_format: 'mp3' },
      },
    ]);
  });

  it('sends no Authorization header without a key (local Kokoro, openedai-speech)', async () => {
    const open = await startFakeSpeechServer({ apiKey: null });
    try {
      await createTtsProvider(ttsConfig(open.baseUrl, { apiKey: undefined }))!.synthesize({
        text: SENTENCE,
        voice: 'af_bella',
        signal: new AbortController().signal,
      });
      expect(open.requests[0].authorization).toBeNull();
    } finally {
      await open.close();
    }
  });

  it('clips a sentence past the API limit at a word instead of being refused', async () => {
    const long = `${'word '.repeat(1000)}end.`;
    expect(speechInput(long).length).toBeLessThanOrEqual(MAX_SPEECH_INPUT_CHARS);
    expect(speechInput(long).endsWith('word')).toBe(true);
    expect(speechInput(SENTENCE)).toBe(SENTENCE);
    await createTtsProvider(ttsConfig(fake.baseUrl))!.synthesize({
      text: long,
      voice: 'nova',
      signal: new AbortController().signal,
    });
    expect(fake.requests[0].json?.input).toBe(speechInput(long));
  });

  it('maps an answer that is empty or not MP3 to invalid_output', async () => {
    fake.queue.speech.push({ kind: 'garbage' }, { kind: 'empty' });
    const garbage = await failureOf(callAdapter('speech'));
    expect([garbage.failure, garbage.detail]).toEqual(['invalid_output', expect.stringMatching(/not MP3/)]);
    const empty = await failureOf(callAdapter('speech'));
    expect([empty.failure, empty.detail]).toEqual(['invalid_output', 'answer is empty']);
  });

  it('refuses an answer typed as something other than audio, and one past the size limit', async () => {
    const html = await oneOff((res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(100)])),
    );
    const huge = await oneOff((res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(Buffer.concat([silentMp3('x'), Buffer.alloc(MAX_SPEECH_BYTES)]));
    });
    try {
      const typed = await failureOf(
        createTtsProvider(ttsConfig(html.baseUrl))!.synthesize({
          text: SENTENCE,
          voice: 'nova',
          signal: new AbortController().signal,
        }),
      );
      expect([typed.failure, typed.detail]).toEqual(['invalid_output', expect.stringMatching(/text\/html, not audio/)]);
      const large = await failureOf(
        createTtsProvider(ttsConfig(huge.baseUrl))!.synthesize({
          text: SENTENCE,
          voice: 'nova',
          signal: new AbortController().signal,
        }),
      );
      expect([large.failure, large.detail]).toEqual(['invalid_output', expect.stringMatching(/too large/)]);
    } finally {
      await Promise.all([html.close(), huge.close()]);
    }
  });

  it('takes application/octet-stream audio, as some compatible servers send it', async () => {
    const octet = await oneOff((res) =>
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(silentMp3(SENTENCE)),
    );
    try {
      const result = await createTtsProvider(ttsConfig(octet.baseUrl))!.synthesize({
        text: SENTENCE,
        voice: 'nova',
        signal: new AbortController().signal,
      });
      expect(result.bytes.length).toBe(silentMp3(SENTENCE).length);
    } finally {
      await octet.close();
    }
  });
});

describe('OpenAI-compatible transcription (POST /audio/transcriptions)', () => {
  it('answers the text and sends the recording as a file with the model, format, language and key', async () => {
    const result = await callAdapter('transcriptions');
    expect(result).toEqual({ text: DEFAULT_TRANSCRIPT });
    const [sent] = fake.requests;
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.form).toEqual({ model: 'whisper-1', response_format: 'json', language: 'en' });
    expect(sent.file).toEqual({ name: 'recording.webm', type: 'audio/webm', bytes: RECORDING.length });
    expect(sent.audio?.equals(RECORDING)).toBe(true);
  });

  it('maps garbage, an empty body and JSON without text to invalid_output', async () => {
    fake.queue.transcriptions.push({ kind: 'garbage' }, { kind: 'empty' });
    expect((await failureOf(callAdapter('transcriptions'))).detail).toMatch(/not JSON: "<html>/);
    expect((await failureOf(callAdapter('transcriptions'))).failure).toBe('invalid_output');
    const textless = await oneOff((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"segments":[]}'),
    );
    try {
      const error = await failureOf(
        createSttProvider(sttConfig(textless.baseUrl))!.transcribe({
          audio: RECORDING,
          mime: 'audio/webm',
          filename: 'recording.webm',
          signal: new AbortController().signal,
        }),
      );
      expect([error.failure, error.detail]).toEqual(['invalid_output', expect.stringMatching(/no text/)]);
    } finally {
      await textless.close();
    }
  });
});

describe.each(['speech', 'transcriptions'] as const)('faults on /audio/%s', (path) => {
  it('maps a wrong key to misconfigured without the key in the detail, message or stack', async () => {
    const wrongKey = 'sk-wrong-key-9876543210';
    const error = await failureOf(callAdapter(path, { apiKey: wrongKey }));
    expect(error.failure).toBe('misconfigured');
    expect(error.detail).toMatch(/HTTP 401 .*Incorrect API key provided/);
    expectNoKeys(error, [wrongKey, KEY]);
  });

  it('scrubs the key even when the provider echoes it back', async () => {
    fake.queue[path].push({ kind: 'status', status: 400, message: `Bad request for key ${KEY}` });
    const error = await failureOf(callAdapter(path));
    expect(error.failure).toBe('misconfigured');
    expect(error.detail).toContain('Bad request for key [redacted]');
    expect(error.message).not.toContain(KEY);
  });

  it.each([403, 404])('maps HTTP %i (unknown model, voice or path) to misconfigured', async (status) => {
    fake.queue[path].push({ kind: 'status', status, message: 'The model `tts-9` does not exist.' });
    const error = await failureOf(callAdapter(path));
    expect([error.failure, error.detail]).toEqual([
      'misconfigured',
      expect.stringMatching(new RegExp(`HTTP ${status} .*does not exist`)),
    ]);
    const wrongPath = await failureOf(callAdapter(path, { baseUrl: `${fake.origin}/nowhere` }));
    expect([wrongPath.failure, wrongPath.detail]).toEqual(['misconfigured', expect.stringMatching(/HTTP 404/)]);
  });

  it.each([500, 503, 429])('maps HTTP %i to unavailable', async (status) => {
    fake.queue[path].push({ kind: 'status', status, message: 'Engine overloaded' });
    const error = await failureOf(callAdapter(path));
    expect([error.failure, error.detail]).toEqual([
      'unavailable',
      expect.stringMatching(new RegExp(`HTTP ${status} .*Engine overloaded`)),
    ]);
  });

  it('gives up on a hung provider at the timeout and hangs up on it', async () => {
    fake.queue[path].push({ kind: 'hang' });
    const started = Date.now();
    const error = await failureOf(callAdapter(path, { timeoutMs: 300 }));
    expect([error.failure, error.detail]).toEqual(['timeout', expect.stringMatching(/within 300 ms/)]);
    expect(Date.now() - started).toBeLessThan(3000);
    await expect.poll(() => fake.abandoned).toBe(1);
  });

  it("stops when the caller's own signal aborts", async () => {
    fake.queue[path].push({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failureOf(callAdapter(path, {}, controller.signal));
    expect([error.failure, error.detail]).toEqual(['timeout', expect.stringMatching(/cancelled/)]);
  });

  it('maps a connection dropped mid-body and an unreachable server to unavailable', async () => {
    fake.queue[path].push({ kind: 'drop' });
    const dropped = await failureOf(callAdapter(path));
    expect([dropped.failure, dropped.detail]).toEqual([
      'unavailable',
      expect.stringMatching(/terminated|other side closed|socket/i),
    ]);
    const unreachable = await failureOf(callAdapter(path, { baseUrl: `http://127.0.0.1:${await closedPort()}/v1` }));
    expect([unreachable.failure, unreachable.detail]).toEqual(['unavailable', expect.stringMatching(/ECONNREFUSED/)]);
  });
});

describe('registry', () => {
  it("answers no provider for 'none' and the OpenAI-compatible one otherwise", () => {
    expect(createTtsProvider(ttsConfig('http://x', { provider: 'none' }))).toBeNull();
    expect(createSttProvider(sttConfig('http://x', { provider: 'none' }))).toBeNull();
    expect(createTtsProvider(ttsConfig('http://x', { model: 'kokoro' }))).toMatchObject({
      id: 'openai',
      model: 'kokoro',
    });
    expect(createSttProvider(sttConfig('http://x', { model: 'whisper-1' }))).toMatchObject({
      id: 'openai',
      model: 'whisper-1',
    });
  });
});
