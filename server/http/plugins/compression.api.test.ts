// Compressed delivery: the build's .br/.gz files (made here by the build's own precompressDir over a
// fake client) served by Accept-Encoding with the usual caching headers, JSON over 1 KB compressed
// per request and smaller JSON not, and what must never be compressed: a story turn's event
// stream (read over a real socket while the narrator is still writing), pictures, small files.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNarratorProvider } from '@server/ai/llm/registry';
import type { NarratorProvider } from '@server/ai/llm/types';
import { settlePicture } from '@server/test/fake-painter';
import { parseSse } from '@server/test/sse';
import { createTestApp, registerUser, testConfig, type TestContext } from '@server/test/test-app';
import { SAMPLE_SHARE_ID } from '@shared/schemas/sharing';
import { precompressDir } from '../../../scripts/build/vite-precompress';
import { isCompressible } from './compression';
import { listenAppOnLoopback } from '@server/test/listen-on-loopback';

const APP_JS = 'assets/index-Ab12Cd34.js';
const APP_CSS = 'assets/index-Ef56Gh78.css';
const TINY_JS = 'assets/tiny-Ij90Kl12.js';
const PICTURE = 'assets/cover-Mn34Op56.png';

/** Narrates with the builtin narrator, but can hold a turn after its first words until released. */
function holdingNarrator() {
  const builtin = createNarratorProvider(testConfig().llm);
  const state = { hold: false, release: () => {} };
  const narrator: NarratorProvider = {
    id: builtin.id,
    model: builtin.model,
    async generate(request, onDelta) {
      if (!state.hold || request.task.kind !== 'turn' || !onDelta) return builtin.generate(request, onDelta);
      onDelta('The door swings open');
      await new Promise<void>((resolve) => (state.release = resolve));
      onDelta(' onto a hall of mirrors.');
      return { text: 'The door swings open onto a hall of mirrors.', usage: { inputTokens: 10, outputTokens: 9 } };
    },
  };
  return { narrator, state };
}

let ctx: TestContext;
let clientDir: string;
let files: Record<string, Buffer>;
const held = holdingNarrator();

beforeAll(async () => {
  clientDir = await mkdtemp(join(tmpdir(), 'tw-compress-'));
  await mkdir(join(clientDir, 'assets'));
  const lines = Array.from(
    { length: 300 },
    (_, i) => `export const line${i} = { id: ${i}, label: "Chapter ${i} of the tale", visible: ${i % 2 === 0} };`,
  );
  const index = (await readFile('client/index.html', 'utf8')).replace(
    '</head>',
    `<!-- ${'padding '.repeat(200)}-->\n</head>`,
  );
  files = {
    'index.html': Buffer.from(index),
    [APP_JS]: Buffer.from(lines.join('\n')),
    [APP_CSS]: Buffer.from(
      Array.from(
        { length: 200 },
        (_, i) =>
          `.story-line-${i} { margin: ${i}px; color: #${(i * 4111).toString(16).padStart(6, '0').slice(0, 6)}; }`,
      ).join('\n'),
    ),
    [TINY_JS]: Buffer.from('export const tiny = "a file under a kilobyte";\n'),
    [PICTURE]: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 7)]),
  };
  for (const [path, bytes] of Object.entries(files)) await writeFile(join(clientDir, path), bytes);
  await precompressDir(clientDir);
  ctx = await createTestApp(
    { serveClient: true, clientDir, adminUsernames: ['zipadmin'] },
    { narrator: held.narrator },
  );
});
afterAll(async () => {
  await ctx?.close();
  await rm(clientDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

describe('the build (precompressDir)', () => {
  it('writes brotli and gzip beside each text file over 1 KB, and leaves small files and pictures alone', async () => {
    for (const path of ['index.html', APP_JS, APP_CSS]) {
      expect(brotliDecompressSync(await readFile(join(clientDir, `${path}.br`)))).toEqual(files[path]);
      expect(gunzipSync(await readFile(join(clientDir, `${path}.gz`)))).toEqual(files[path]);
      expect(await readFile(join(clientDir, path))).toEqual(files[path]);
    }
    for (const path of [TINY_JS, PICTURE]) {
      await expect(readFile(join(clientDir, `${path}.br`))).rejects.toThrow(/ENOENT/);
      await expect(readFile(join(clientDir, `${path}.gz`))).rejects.toThrow(/ENOENT/);
    }
  });
});

describe('static files', () => {
  it('sends the brotli file to a client that accepts br, with the immutable caching of hashed assets', async () => {
    const res = await get(`/${APP_JS}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(files[APP_JS].length / 3);
    expect(brotliDecompressSync(res.rawPayload)).toEqual(files[APP_JS]);
  });

  it('sends the gzip file to a client that accepts only gzip', async () => {
    const res = await get(`/${APP_CSS}`, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(gunzipSync(res.rawPayload)).toEqual(files[APP_CSS]);
  });

  it('sends the original bytes to a client that accepts no encoding, still varying on it', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Array<Record<string, string>>) {
      const res = await get(`/${APP_JS}`, headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload).toEqual(files[APP_JS]);
    }
  });

  it('compresses index.html, for / and for client routes alike, and keeps it no-cache', async () => {
    for (const url of ['/', '/story/12', '/admin']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload), url).toEqual(files['index.html']);
    }
  });

  it('sends small files and pictures as they are, never compressing them per request', async () => {
    for (const path of [TINY_JS, PICTURE]) {
      const res = await get(`/${path}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBeUndefined();
      expect(res.rawPayload, path).toEqual(files[path]);
      expect(Number(res.headers['content-length']), path).toBe(files[path].length);
    }
  });

  it('answers conditional requests for a compressed file with 304', async () => {
    const first = await get(`/${APP_JS}`, { 'accept-encoding': 'br' });
    const again = await get(`/${APP_JS}`, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('does not serve the .br and .gz files under their own names', async () => {
    const res = await get(`/${APP_JS}.br`, { 'accept-encoding': 'br' });
    // An unknown path: the SPA's page, as for any client route.
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('API answers', () => {
  it('compresses JSON over 1 KB with the encoding the client prefers', async () => {
    const plain = await get(`/api/shared/${SAMPLE_SHARE_ID}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await get(`/api/shared/${SAMPLE_SHARE_ID}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
    const gzip = await get(`/api/shared/${SAMPLE_SHARE_ID}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('leaves JSON under 1 KB uncompressed', async () => {
    const res = await get('/api/features', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toBeTypeOf('object');
  });

  it("keeps a shared story's ETag: a revalidation is a bare 304", async () => {
    const first = await get(`/api/shared/${SAMPLE_SHARE_ID}`, { 'accept-encoding': 'br' });
    expect(first.headers.etag).toBeTruthy();
    const again = await get(`/api/shared/${SAMPLE_SHARE_ID}`, {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the shared-story page, which is built per request', async () => {
    const res = await get(`/shared/${SAMPLE_SHARE_ID}`, { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toContain('<div id="root"></div>');
  });

  it('never compresses pictures', async () => {
    const { client } = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const started = (
      await client.post('/api/story/start', { prompt: 'A lighthouse on a stormy coast at night' })
    ).json();
    const picture = (await settlePicture(client, started.messageId)).json();
    const res = await client.request({
      method: 'GET',
      url: picture.image,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('still sends the users CSV, compressed, to an admin', async () => {
    const admin = await registerUser(ctx.app, { username: 'zipadmin' });
    const res = await admin.client.request({
      method: 'GET',
      url: '/api/admin/users/download',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString('utf8')).toContain('zipadmin');
  });

  it('tells compressible types from the rest', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'text/html; charset=utf-8',
      'text/csv; charset=utf-8',
      'image/svg+xml',
      'application/problem+json',
    ]) {
      expect(isCompressible(type), type).toBe(true);
    }
    for (const type of [
      'text/event-stream',
      'image/webp',
      'image/png',
      'image/jpeg',
      'audio/mpeg',
      'audio/wav',
      'font/woff2',
    ]) {
      expect(isCompressible(type), type).toBe(false);
    }
  });
});

/** Reads a response into `received` until `until` holds for what has arrived. */
function readUntil(res: IncomingMessage, received: { text: string }, until: (text: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    if (until(received.text)) return resolve();
    const onData = (chunk: Buffer) => {
      received.text += chunk.toString('utf8');
      if (until(received.text)) {
        res.off('data', onData);
        resolve();
      }
    };
    res.on('data', onData);
    res.once('end', () =>
      until(received.text) ? resolve() : reject(new Error(`stream ended first: ${received.text}`)),
    );
    res.once('error', reject);
  });
}

describe('a story turn streamed as server-sent events', () => {
  it(
    'is never compressed, so each event reaches the reader while the narrator is still writing',
    { timeout: 20_000 },
    async () => {
      const { client } = await registerUser(ctx.app);
      const { storyId } = (await client.post('/api/story/start', { prompt: 'A house of many doors' })).json();
      const { port } = await listenAppOnLoopback(ctx.app);
      const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      held.state.hold = true;
      const body = JSON.stringify({ message: 'I open the red door' });
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `/api/story/${storyId}/continue`,
            headers: {
              accept: 'text/event-stream',
              'accept-encoding': 'gzip, deflate, br',
              'content-type': 'application/json',
              cookie,
              'content-length': Buffer.byteLength(body),
            },
          },
          resolve,
        );
        req.on('error', reject);
        req.end(body);
      });
      try {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/event-stream');
        expect(res.headers['content-encoding']).toBeUndefined();
        // A compressor would sit on these bytes until the end: the narrator is held until they arrive.
        const received = { text: '' };
        await readUntil(res, received, (text) => text.includes('The door swings open'));
        held.state.release();
        await readUntil(res, received, (text) => text.includes('event: done'));
        await finished(res.resume());
        const events = parseSse(received.text);
        expect(events[0]).toEqual({ event: 'story', data: { storyId } });
        const deltas = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text);
        expect(deltas.join('')).toBe('The door swings open onto a hall of mirrors.');
        expect(events.at(-1)?.event).toBe('done');
      } finally {
        held.state.hold = false;
        held.state.release();
      }
    },
  );
});

describe('COMPRESSION=false', () => {
  it('sends every answer as it is', async () => {
    const plain = await createTestApp({ serveClient: true, clientDir, compression: false });
    try {
      const headers = { 'accept-encoding': 'gzip, deflate, br' };
      const asset = await plain.app.inject({ method: 'GET', url: `/${APP_JS}`, headers });
      expect(asset.headers['content-encoding']).toBeUndefined();
      expect(asset.rawPayload).toEqual(files[APP_JS]);
      const json = await plain.app.inject({ method: 'GET', url: `/api/shared/${SAMPLE_SHARE_ID}`, headers });
      expect(json.headers['content-encoding']).toBeUndefined();
      expect(json.rawPayload.length).toBeGreaterThan(1024);
    } finally {
      await plain.close();
    }
  });
});
