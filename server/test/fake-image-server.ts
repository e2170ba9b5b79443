// A local stand-in for the image APIs on 127.0.0.1, speaking their real wire protocols: OpenAI
// images (POST /v1/images/generations, answering base64 or a URL it also serves under /files/)
// and the Stable Diffusion WebUI (POST /sdapi/v1/txt2img). It checks the key like the real
// services and fails the way they do: an error status, a hang, a dropped connection, a body that
// is not JSON, base64 that is not a picture, or a picture past the size limit. Its /files/ also
// redirect (`/files/redirect?to=URL`) and serve pictures past the size limit (`/files/huge.png`
// with its length declared, `/files/huge-stream.png` without), for the download rules.
import type { IncomingMessage, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { bodyServer, json, masked, openAiError, sleep } from './fake-openai-answers';
import { listenOnLoopback } from './listen-on-loopback';

export interface FakeImageUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens?: number;
}

export type ImageBehaviour =
  /** `urlOrigin` puts a URL answer's file under another origin than the fake's own (e.g. http://localhost:port). */
  | {
      kind: 'ok';
      latencyMs?: number;
      form?: 'b64' | 'url' | 'dataUrl';
      usage?: FakeImageUsage;
      image?: Buffer;
      urlOrigin?: string;
    }
  /** 200 with `data[0].url` exactly this (OpenAI only). */
  | { kind: 'url'; url: string }
  | { kind: 'status'; status: number; message?: string }
  | { kind: 'hang' }
  | { kind: 'drop' }
  | { kind: 'garbage' }
  | { kind: 'notImage' }
  | { kind: 'huge' }
  /** 200 with valid JSON but no picture in it (`data: []`, `images: []`). */
  | { kind: 'empty' };

export interface RecordedImageRequest {
  protocol: 'openai' | 'automatic1111';
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    prompt?: string;
    n?: number;
    size?: string;
    response_format?: string;
    negative_prompt?: string;
    seed?: number;
    steps?: number;
    width?: number;
    height?: number;
    sampler_name?: string;
    cfg_scale?: number;
    batch_size?: number;
    n_iter?: number;
  };
}

export interface FakeImageServer {
  /** IMAGE_BASE_URL for IMAGE_PROVIDER=openai (ends in /v1). */
  openaiBaseUrl: string;
  /** IMAGE_BASE_URL for IMAGE_PROVIDER=automatic1111 (the origin). */
  a1111BaseUrl: string;
  requests: RecordedImageRequest[];
  /** Paths of the picture files fetched after a URL answer. */
  downloads: string[];
  /** Behaviours used by the next requests, in order; afterwards `fallback`. */
  queue: ImageBehaviour[];
  fallback: ImageBehaviour | ((request: RecordedImageRequest) => ImageBehaviour);
  /** The key the fake expects; null accepts any request, like a WebUI without --api-auth. */
  apiKey: string | null;
  /** Connections the fake saw closed by the client before it answered (hangs). */
  abandoned: number;
  /** Serves `bytes` at /files/{name}. */
  putFile(name: string, bytes: Buffer): void;
  close(): Promise<void>;
}

/** Just past the 20 MB a provider may send, PNG magic first; built once, on first use. */
const HUGE_IMAGE_BYTES = 20 * 1024 * 1024 + 64 * 1024;
let hugeBase64: string | undefined;
function hugeImageBase64(): string {
  if (!hugeBase64) {
    const bytes = Buffer.alloc(HUGE_IMAGE_BYTES, 0x41);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    hugeBase64 = bytes.toString('base64');
  }
  return hugeBase64;
}

/** A small valid 64 × 36 PNG in a colour that changes with each answer, so answers can be told apart. */
export async function fakePng(index: number): Promise<Buffer> {
  const background = { r: (index * 67) % 256, g: (index * 131 + 40) % 256, b: (index * 29 + 90) % 256 };
  return sharp({ create: { width: 64, height: 36, channels: 3, background } })
    .png()
    .toBuffer();
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** Each API's own error shape: OpenAI's `{error:{message,type,code}}`, FastAPI's `{detail}` or `{error,errors}`. */
function sendError(res: ServerResponse, protocol: RecordedImageRequest['protocol'], status: number, message: string) {
  if (protocol === 'openai') json(res, status, openAiError(message, status));
  else if (status >= 500) json(res, status, { error: 'RuntimeError', detail: '', body: '', errors: message });
  else json(res, status, { detail: message });
}

function presentedKey(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  if (header.startsWith('Bearer ')) return header.slice('Bearer '.length);
  if (header.startsWith('Basic ')) return Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
  return '';
}

export async function startFakeImageServer(options: { apiKey?: string | null } = {}): Promise<FakeImageServer> {
  const fake: FakeImageServer = {
    openaiBaseUrl: '',
    a1111BaseUrl: '',
    requests: [],
    downloads: [],
    queue: [],
    fallback: { kind: 'ok' },
    apiKey: options.apiKey === undefined ? 'sk-test-key' : options.apiKey,
    abandoned: 0,
    putFile: (name, bytes) => files.set(name, bytes),
    close: async () => {},
  };
  const files = new Map<string, Buffer>();
  let answered = 0;

  const server = bodyServer(
    (req, res, body) => handle(req, res, body.toString('utf8')),
    (res, error) => {
      json(res, 500, { error: { message: String(error) } });
    },
  );

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path.startsWith('/files/')) {
      fake.downloads.push(path);
      if (path === '/files/redirect') {
        const to = new URL(req.url ?? '', 'http://fake').searchParams.get('to') ?? '/';
        res.writeHead(302, { location: to, 'content-length': '0' }).end();
        return;
      }
      if (path === '/files/huge.png' || path === '/files/huge-stream.png') {
        const huge = Buffer.from(hugeImageBase64(), 'base64');
        res.writeHead(200, {
          'content-type': 'image/png',
          ...(path === '/files/huge.png' ? { 'content-length': String(huge.length) } : {}),
        });
        // In pieces, so a reader that stops at the limit is seen to stop (the fake then sees a reset).
        for (let offset = 0; offset < huge.length && !res.destroyed; offset += 1024 * 1024) {
          if (!res.write(huge.subarray(offset, offset + 1024 * 1024))) await drainedOrClosed(res);
        }
        res.end();
        return;
      }
      const file = files.get(path.slice('/files/'.length));
      if (!file) return json(res, 404, { error: { message: 'file not found' } });
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(file.length) }).end(file);
      return;
    }
    const protocol =
      path === '/v1/images/generations' ? 'openai' : path === '/sdapi/v1/txt2img' ? 'automatic1111' : null;
    if (!protocol || req.method !== 'POST') return json(res, 404, { detail: 'Not Found' });
    let body: RecordedImageRequest['body'];
    try {
      body = JSON.parse(raw) as RecordedImageRequest['body'];
    } catch {
      return sendError(res, protocol, 400, 'We could not parse the JSON body of your request.');
    }
    const recorded: RecordedImageRequest = { protocol, headers: req.headers, body };
    fake.requests.push(recorded);
    if (fake.apiKey !== null && presentedKey(req) !== fake.apiKey) {
      const presented = presentedKey(req);
      const message =
        protocol === 'openai'
          ? `Incorrect API key provided: ${masked(presented)}. You can find your API key at https://platform.openai.com/account/api-keys.`
          : 'Incorrect username or password.';
      return sendError(res, protocol, 401, message);
    }
    // Like OpenAI: gpt-image models always answer in base64 and refuse the field.
    if (protocol === 'openai' && body.model?.startsWith('gpt-image') && body.response_format !== undefined) {
      return sendError(res, protocol, 400, "Unknown parameter: 'response_format'.");
    }
    const next = fake.queue.shift() ?? (typeof fake.fallback === 'function' ? fake.fallback(recorded) : fake.fallback);
    if (next.kind === 'status')
      return sendError(
        res,
        protocol,
        next.status,
        next.message ?? 'The server had an error while processing your request.',
      );
    if (next.kind === 'hang') {
      res.on('close', () => {
        fake.abandoned += 1;
      });
      return;
    }
    if (next.kind === 'drop') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write(
        protocol === 'openai' ? '{"created":1700000000,"data":[{"b64_json":"iVBORw0KGgo' : '{"images":["iVBORw0KGgo',
      );
      await sleep(20);
      res.socket?.destroy();
      return;
    }
    if (next.kind === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    if (next.kind === 'url')
      return json(res, 200, { created: Math.floor(Date.now() / 1000), data: [{ url: next.url }] });
    if (next.kind === 'empty')
      return json(
        res,
        200,
        protocol === 'openai' ? { created: 1700000000, data: [] } : { images: [], parameters: body, info: '{}' },
      );
    answered += 1;
    let b64: string;
    if (next.kind === 'notImage') b64 = Buffer.from('hello').toString('base64');
    else if (next.kind === 'huge') b64 = hugeImageBase64();
    else {
      if (next.latencyMs) await sleep(next.latencyMs);
      b64 = (next.image ?? (await fakePng(answered))).toString('base64');
    }
    if (protocol === 'automatic1111') {
      const info = {
        prompt: body.prompt,
        negative_prompt: body.negative_prompt,
        seed: body.seed,
        width: body.width,
        height: body.height,
        sampler_name: body.sampler_name,
        steps: body.steps,
        cfg_scale: body.cfg_scale,
      };
      return json(res, 200, { images: [b64], parameters: body, info: JSON.stringify(info) });
    }
    const form = next.kind === 'ok' ? (next.form ?? 'b64') : 'b64';
    let item: Record<string, string>;
    if (form === 'url') {
      const name = `img-${answered}.png`;
      files.set(name, Buffer.from(b64, 'base64'));
      item = {
        url: `${next.kind === 'ok' && next.urlOrigin ? next.urlOrigin : fake.a1111BaseUrl}/files/${name}`,
        revised_prompt: body.prompt ?? '',
      };
    } else if (form === 'dataUrl') item = { url: `data:image/png;base64,${b64}` };
    else item = { b64_json: b64 };
    const usage = next.kind === 'ok' && next.usage ? { usage: next.usage } : {};
    json(res, 200, { created: Math.floor(Date.now() / 1000), data: [item], ...usage });
  }

  const { url: origin } = await listenOnLoopback(server);
  fake.openaiBaseUrl = `${origin}/v1`;
  fake.a1111BaseUrl = origin;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
