// A local stand-in for OpenAI's speech APIs on 127.0.0.1, speaking the real wire protocol:
// POST /v1/audio/speech (JSON in, MP3 out: real, silent MPEG-1 Layer III frames, as long as the
// text would take to say) and POST /v1/audio/transcriptions (multipart in, `{text}` out). It checks
// the key like the real service, records what it was sent, and fails per path on demand: an error
// status, a hang, a connection dropped mid-body, or a garbage body. For browser journeys it also
// serves GET /sponsor (a sponsor page), GET /__requests (what it was sent), POST /__reset and
// POST /__queue (the next request to a path fails or answers as told).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyServer, json, masked, sendOpenAiError as sendError, sleep } from './fake-openai-answers';

export type SpeechPath = 'speech' | 'transcriptions';

export type SpeechBehaviour =
  | { kind: 'ok'; latencyMs?: number; text?: string }
  | { kind: 'status'; status: number; message?: string }
  | { kind: 'hang' }
  | { kind: 'drop' }
  /** 200 whose body is not what its Content-Type says (an HTML error page). */
  | { kind: 'garbage' }
  /** 200 with the right Content-Type and no body at all. */
  | { kind: 'empty' };

export interface RecordedSpeechRequest {
  path: SpeechPath;
  authorization: string | null;
  /** /audio/speech: the JSON body. */
  json?: { model?: string; voice?: string; input?: string; response_format?: string; [key: string]: unknown };
  /** /audio/transcriptions: the form's text fields. */
  form?: Record<string, string>;
  /** /audio/transcriptions: the uploaded file. */
  file?: { name: string; type: string; bytes: number };
  /** The uploaded audio itself (left out of GET /__requests). */
  audio?: Buffer;
}

export interface FakeSpeechServer {
  /** TTS_BASE_URL / STT_BASE_URL (ends in /v1). */
  baseUrl: string;
  origin: string;
  requests: RecordedSpeechRequest[];
  /** Behaviours used by the next requests to each path, in order; afterwards `fallback`. */
  queue: Record<SpeechPath, SpeechBehaviour[]>;
  fallback: Record<SpeechPath, SpeechBehaviour>;
  /** The key the fake expects; null accepts any request, like a local Kokoro or faster-whisper. */
  apiKey: string | null;
  /** What a transcription answers unless its behaviour names another text. */
  transcript: string;
  /** Connections the fake saw closed by the client before it answered (hangs). */
  abandoned: number;
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_TRANSCRIPT = 'I light the lantern and follow the stairs down into the dark.';

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, joint stereo, no CRC: 144 × 128000 / 44100 = 417 bytes a frame. */
const FRAME_HEADER = [0xff, 0xfb, 0x90, 0x64];
export const MP3_FRAME_BYTES = 417;
/** Each frame holds 1152 samples: 26.1 ms, so about 38 frames a second. */
const FRAMES_PER_SECOND = 44_100 / 1152;
/** A relaxed narrator's pace. */
const CHARACTERS_PER_SECOND = 14;
const MIN_FRAMES = 10;

/**
 * Silent MP3 as long as `text` would take to say: frames whose side information and main data are
 * all zero, which every decoder plays as silence. Browsers can decode and time it like real speech.
 */
export function silentMp3(text: string): Buffer {
  const frames = Math.max(MIN_FRAMES, Math.ceil((text.length / CHARACTERS_PER_SECOND) * FRAMES_PER_SECOND));
  const audio = Buffer.alloc(frames * MP3_FRAME_BYTES);
  for (let i = 0; i < frames; i += 1) Buffer.from(FRAME_HEADER).copy(audio, i * MP3_FRAME_BYTES);
  return audio;
}

const BEHAVIOURS = new Set<string>(['ok', 'status', 'hang', 'drop', 'garbage', 'empty']);

const SPONSOR_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sponsor</title></head><body><h1>Sponsor</h1><p>Thank you for supporting Taleweaver.</p></body></html>';

/** `port` 0 (the default) takes any free port; the browser journeys give a fixed one so specs can reach /__requests. */
export async function startFakeSpeechServer(
  options: { apiKey?: string | null; port?: number } = {},
): Promise<FakeSpeechServer> {
  const fake: FakeSpeechServer = {
    baseUrl: '',
    origin: '',
    requests: [],
    queue: { speech: [], transcriptions: [] },
    fallback: { speech: { kind: 'ok' }, transcriptions: { kind: 'ok' } },
    apiKey: options.apiKey === undefined ? 'sk-test-key' : options.apiKey,
    transcript: DEFAULT_TRANSCRIPT,
    abandoned: 0,
    reset() {
      fake.requests.length = 0;
      fake.queue = { speech: [], transcriptions: [] };
      fake.fallback = { speech: { kind: 'ok' }, transcriptions: { kind: 'ok' } };
      fake.transcript = DEFAULT_TRANSCRIPT;
      fake.abandoned = 0;
    },
    close: async () => {},
  };

  const server = bodyServer(handle, (res, error) => {
    sendError(res, 500, String(error));
  });

  /** Parses the body as the real service would; null after answering 400 when it cannot. */
  async function parse(
    req: IncomingMessage,
    res: ServerResponse,
    path: SpeechPath,
    raw: Buffer,
  ): Promise<RecordedSpeechRequest | null> {
    const authorization = req.headers.authorization ?? null;
    if (path === 'speech') {
      try {
        return { path, authorization, json: JSON.parse(raw.toString('utf8')) as RecordedSpeechRequest['json'] };
      } catch {
        sendError(res, 400, 'We could not parse the JSON body of your request.');
        return null;
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    let form: FormData;
    try {
      form = await new Request('http://fake.local/', { method: 'POST', headers, body: new Uint8Array(raw) }).formData();
    } catch {
      sendError(res, 400, 'Could not parse multipart form');
      return null;
    }
    const fields: Record<string, string> = {};
    let file: RecordedSpeechRequest['file'];
    let audio: Buffer | undefined;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else if (name === 'file') {
        audio = Buffer.from(await value.arrayBuffer());
        file = { name: value.name, type: value.type, bytes: audio.length };
      }
    }
    return { path, authorization, form: fields, file, audio };
  }

  /** The 400s OpenAI answers for a request missing what it needs. */
  function invalid(recorded: RecordedSpeechRequest): string | null {
    if (recorded.path === 'speech') {
      const body = recorded.json ?? {};
      for (const field of ['model', 'voice', 'input'] as const)
        if (typeof body[field] !== 'string' || !body[field]) return `Missing required parameter: '${field}'.`;
      if ((body.input ?? '').length > 4096)
        return "Invalid 'input': string too long. Expected a string with maximum length 4096.";
      if (body.response_format !== undefined && body.response_format !== 'mp3') return 'This fake only speaks mp3.';
      return null;
    }
    if (!recorded.file) return "Missing required parameter: 'file'.";
    if (!recorded.form?.model) return "Missing required parameter: 'model'.";
    if (recorded.file.bytes === 0) return 'Audio file might be corrupted or unsupported';
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const url = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && url === '/sponsor') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SPONSOR_PAGE);
      return;
    }
    if (req.method === 'GET' && url === '/__requests')
      return json(
        res,
        200,
        fake.requests.map(({ audio: _audio, ...rest }) => rest),
      );
    if (req.method === 'POST' && url === '/__reset') {
      fake.reset();
      return json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && url === '/__queue') {
      // {"path": "speech" | "transcriptions", "kind": …}: the next request to that path behaves so (browser journeys' faults).
      const body = JSON.parse(raw.toString('utf8') || '{}') as { path?: string } & SpeechBehaviour;
      const { path: target, ...behaviour } = body;
      if ((target !== 'speech' && target !== 'transcriptions') || !BEHAVIOURS.has(behaviour.kind))
        return json(res, 400, {
          error: {
            message: 'path must be speech or transcriptions; kind one of ok, status, hang, drop, garbage, empty',
          },
        });
      fake.queue[target].push(behaviour);
      return json(res, 200, { ok: true });
    }
    const path: SpeechPath | null =
      url === '/v1/audio/speech' ? 'speech' : url === '/v1/audio/transcriptions' ? 'transcriptions' : null;
    if (!path || req.method !== 'POST') return sendError(res, 404, `Invalid URL (${req.method} ${url})`);
    const recorded = await parse(req, res, path, raw);
    if (!recorded) return;
    fake.requests.push(recorded);
    const presented = (recorded.authorization ?? '').replace(/^Bearer /, '');
    if (fake.apiKey !== null && presented !== fake.apiKey) {
      return sendError(
        res,
        401,
        `Incorrect API key provided: ${masked(presented)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      );
    }
    const problem = invalid(recorded);
    if (problem) return sendError(res, 400, problem);

    const next = fake.queue[path].shift() ?? fake.fallback[path];
    const type = path === 'speech' ? 'audio/mpeg' : 'application/json';
    switch (next.kind) {
      case 'status':
        return sendError(res, next.status, next.message ?? 'The server had an error while processing your request.');
      case 'hang':
        res.on('close', () => {
          fake.abandoned += 1;
        });
        return;
      case 'drop':
        res.writeHead(200, { 'content-type': type, 'content-length': '100000' });
        res.write(path === 'speech' ? silentMp3('A few words').subarray(0, 2000) : '{"text":"I light the lan');
        await sleep(20);
        res.socket?.destroy();
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': type }).end('<html><body>502 Bad Gateway</body></html>');
        return;
      case 'empty':
        res.writeHead(200, { 'content-type': type, 'content-length': '0' }).end();
        return;
      case 'ok': {
        if (next.latencyMs) await sleep(next.latencyMs);
        if (path === 'transcriptions') return json(res, 200, { text: next.text ?? fake.transcript });
        const audio = silentMp3(recorded.json?.input ?? '');
        res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(audio.length) }).end(audio);
        return;
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.baseUrl = `${fake.origin}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
