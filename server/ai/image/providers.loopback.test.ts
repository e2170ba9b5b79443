// The OpenAI-compatible and automatic1111 adapters against a local fake speaking each real wire
// protocol: what the request carries, both answer forms, usage as reported, and every failure
// mapped to the right kind (bad key, unknown model, 5xx, 429, hang, dropped connection, garbage,
// missing data, not an image, too large), with the key never in what is logged. Also the registry.
import { createServer } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoKeys, failureOf as failureOfKind } from '@server/test/failure-of';
import { startFakeImageServer, type FakeImageServer } from '@server/test/fake-image-server';
import { createImageProvider, describeImageProvider } from './registry';
import { toStoredImage } from './stored-image';
import { ImageError, type ImageConfig, type ImageProvider, type ImageRequest } from './types';
import { listenOnLoopback } from '@server/test/listen-on-loopback';

const KEY = 'sk-test-key-0123456789';

type RemoteId = 'openai' | 'automatic1111';

function configFor(
  provider: ImageConfig['provider'],
  baseUrl: string,
  overrides: Partial<ImageConfig> = {},
): ImageConfig {
  return {
    provider,
    baseUrl,
    apiKey: KEY,
    model: 'image-model-1',
    timeoutMs: 5000,
    concurrency: 1,
    maxPerHour: 30,
    width: 1024,
    height: 576,
    steps: 23,
    ...overrides,
  };
}

function request(overrides: Partial<ImageRequest> = {}): ImageRequest {
  return {
    prompt: 'Painterly high-fantasy illustration. Ada, red hair, green cloak. A lantern in the fog by the harbour.',
    negativePrompt: 'gore, nudity',
    sceneText: 'A lantern in the fog by the harbour.',
    styleSheet: {
      artStyle: 'painterly high-fantasy illustration',
      player: 'Ada, red hair, green cloak',
      characters: [],
    },
    contentRating: 'general',
    seed: 424242,
    width: 1024,
    height: 576,
    signal: new AbortController().signal,
    ...overrides,
  };
}

const failureOf = (promise: Promise<unknown>) => failureOfKind(promise, ImageError);

/** A port nothing listens on: bound once, then released. (Port 1 is refused by fetch itself.) */
async function closedPort(): Promise<number> {
  const server = createServer();
  const { port } = await listenOnLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function expectPng(bytes: Uint8Array) {
  expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 64, height: 36 });
}

describe.each(['openai', 'automatic1111'] as const)('%s adapter', (protocol: RemoteId) => {
  let fake: FakeImageServer;
  beforeAll(async () => {
    fake = await startFakeImageServer({ apiKey: KEY });
  });
  afterAll(() => fake.close());

  const baseUrl = () => (protocol === 'openai' ? fake.openaiBaseUrl : fake.a1111BaseUrl);
  const provider = (overrides: Partial<ImageConfig> = {}): ImageProvider =>
    createImageProvider(configFor(protocol, baseUrl(), overrides))!;
  const last = () => fake.requests.at(-1)!;

  it('returns the picture and sends the prompt, size and key', async () => {
    fake.queue.push({ kind: 'ok' });
    const result = await provider().generate(request());
    await expectPng(result.bytes);
    expect(last().protocol).toBe(protocol);
    expect(last().headers.authorization).toBe(`Bearer ${KEY}`);
    const body = last().body;
    if (protocol === 'openai') {
      expect(body).toEqual({
        model: 'image-model-1',
        prompt: `${request().prompt} Avoid: gore, nudity.`,
        n: 1,
        size: '1024x576',
      });
    } else {
      expect(body).toEqual({
        prompt: request().prompt,
        negative_prompt: 'gore, nudity',
        seed: 424242,
        steps: 23,
        width: 1024,
        height: 576,
        sampler_name: 'Euler a',
        cfg_scale: 7,
        batch_size: 1,
        n_iter: 1,
      });
      expect(result.imageTokens).toBeUndefined();
    }
  });

  it('sends no Authorization header when no key is set', async () => {
    const open = await startFakeImageServer({ apiKey: null });
    try {
      const url = protocol === 'openai' ? open.openaiBaseUrl : open.a1111BaseUrl;
      await expectPng(
        (await createImageProvider(configFor(protocol, url, { apiKey: undefined }))!.generate(request())).bytes,
      );
      expect(open.requests).toHaveLength(1);
      expect(open.requests[0].headers.authorization).toBeUndefined();
    } finally {
      await open.close();
    }
  });

  it('maps a wrong key to misconfigured without the key in the detail or message', async () => {
    const wrongKey = 'sk-wrong-key-9876543210';
    const error = await failureOf(provider({ apiKey: wrongKey }).generate(request()));
    expect(error.failure).toBe('misconfigured');
    expect(error.detail).toMatch(/HTTP 401/);
    expect(error.detail).toMatch(
      protocol === 'openai' ? /Incorrect API key provided/ : /Incorrect username or password/,
    );
    expectNoKeys(error, [wrongKey, KEY]);
  });

  it('scrubs the key even when the provider echoes it back', async () => {
    fake.queue.push({ kind: 'status', status: 400, message: `Invalid request for key ${KEY}` });
    const error = await failureOf(provider().generate(request()));
    expect(error.failure).toBe('misconfigured');
    expect(error.detail).toContain('Invalid request for key [redacted]');
    expect(error.message).not.toContain(KEY);
  });

  it('maps an unknown model or path (404) and a forbidden call (403) to misconfigured', async () => {
    fake.queue.push(
      { kind: 'status', status: 404, message: 'The model `image-model-1` does not exist.' },
      { kind: 'status', status: 403 },
    );
    const notFound = await failureOf(provider().generate(request()));
    expect(notFound.failure).toBe('misconfigured');
    expect(notFound.detail).toMatch(/HTTP 404 .*does not exist/);
    expect((await failureOf(provider().generate(request()))).failure).toBe('misconfigured');
    const wrongPath = await failureOf(provider({ baseUrl: `${baseUrl()}/nowhere` }).generate(request()));
    expect(wrongPath.failure).toBe('misconfigured');
    expect(wrongPath.detail).toMatch(/HTTP 404/);
  });

  it.each([500, 503, 429])('maps HTTP %i to unavailable', async (status) => {
    fake.queue.push({ kind: 'status', status, message: 'Engine overloaded' });
    const error = await failureOf(provider().generate(request()));
    expect(error.failure).toBe('unavailable');
    expect(error.detail).toContain(`HTTP ${status}`);
    expect(error.detail).toContain('Engine overloaded');
  });

  it('gives up on a hung provider at the timeout and hangs up on it', async () => {
    fake.queue.push({ kind: 'hang' });
    const before = fake.abandoned;
    const started = Date.now();
    const error = await failureOf(provider({ timeoutMs: 300 }).generate(request()));
    expect(error.failure).toBe('timeout');
    expect(error.detail).toMatch(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
    await expect.poll(() => fake.abandoned).toBe(before + 1);
  });

  it("stops when the caller's own signal aborts", async () => {
    fake.queue.push({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failureOf(provider().generate(request({ signal: controller.signal })));
    expect(error.failure).toBe('timeout');
    expect(error.detail).toMatch(/cancelled/);
  });

  it('maps a connection dropped mid-answer and an unreachable server to unavailable', async () => {
    fake.queue.push({ kind: 'drop' });
    const dropped = await failureOf(provider().generate(request()));
    expect(dropped.failure).toBe('unavailable');
    expect(dropped.detail).toMatch(/terminated|other side closed|socket/i);
    const unreachable = await failureOf(
      provider({ baseUrl: `http://127.0.0.1:${await closedPort()}` }).generate(request()),
    );
    expect(unreachable.failure).toBe('unavailable');
    expect(unreachable.detail).toMatch(/ECONNREFUSED/);
  });

  it('maps a body that is not JSON and an answer without a picture to invalid_output', async () => {
    fake.queue.push({ kind: 'garbage' }, { kind: 'empty' });
    const garbage = await failureOf(provider().generate(request()));
    expect(garbage.failure).toBe('invalid_output');
    expect(garbage.detail).toMatch(/not JSON/);
    const empty = await failureOf(provider().generate(request()));
    expect(empty.failure).toBe('invalid_output');
    expect(empty.detail).toMatch(protocol === 'openai' ? /no data\[0\]/ : /no images\[0\]/);
  });

  it('passes on base64 that is not a picture, which storing then refuses', async () => {
    fake.queue.push({ kind: 'notImage' });
    const result = await provider().generate(request());
    expect(Buffer.from(result.bytes).toString()).toBe('hello');
    const error = await failureOf(toStoredImage(result.bytes));
    expect(error.failure).toBe('invalid_output');
  });

  it('refuses a picture over the size limit as invalid_output, saying it is too large', async () => {
    fake.queue.push({ kind: 'huge' });
    const error = await failureOf(provider().generate(request()));
    expect(error.failure).toBe('invalid_output');
    expect(error.detail).toMatch(/too large/);
  });
});

describe('openai adapter specifics', () => {
  let fake: FakeImageServer;
  beforeAll(async () => {
    fake = await startFakeImageServer({ apiKey: KEY });
  });
  afterAll(() => fake.close());
  const provider = (overrides: Partial<ImageConfig> = {}) =>
    createImageProvider(configFor('openai', fake.openaiBaseUrl, overrides))!;

  it('fetches the picture when answered with a URL, or decodes a data: URL', async () => {
    fake.queue.push({ kind: 'ok', form: 'url' });
    const downloads = fake.downloads.length;
    await expectPng((await provider().generate(request())).bytes);
    expect(fake.downloads.slice(downloads)).toEqual([expect.stringMatching(/^\/files\/img-\d+\.png$/)]);
    fake.queue.push({ kind: 'ok', form: 'dataUrl' });
    await expectPng((await provider().generate(request())).bytes);
  });

  it('reports the image tokens a gpt-image model counted: total, else output', async () => {
    fake.queue.push({ kind: 'ok', usage: { input_tokens: 50, output_tokens: 1056, total_tokens: 1106 } });
    expect((await provider({ model: 'gpt-image-1' }).generate(request())).imageTokens).toBe(1106);
    fake.queue.push({ kind: 'ok', usage: { input_tokens: 50, output_tokens: 272 } });
    expect((await provider().generate(request())).imageTokens).toBe(272);
    fake.queue.push({ kind: 'ok' });
    expect((await provider().generate(request())).imageTokens).toBeUndefined();
  });

  it('asks dall-e for base64 but never gpt-image, and sends OpenAI sizes those models accept', async () => {
    await provider({ model: 'gpt-image-1' }).generate(request());
    expect(fake.requests.at(-1)!.body).toMatchObject({ model: 'gpt-image-1', size: '1536x1024' });
    expect(fake.requests.at(-1)!.body.response_format).toBeUndefined();
    await provider({ model: 'dall-e-3' }).generate(request());
    expect(fake.requests.at(-1)!.body).toMatchObject({
      model: 'dall-e-3',
      size: '1792x1024',
      response_format: 'b64_json',
    });
  });

  it('keeps the prompt within the model limit and leaves out an empty avoid sentence', async () => {
    await provider({ model: 'dall-e-3' }).generate(request({ prompt: 'x'.repeat(5000) }));
    const sent = fake.requests.at(-1)!.body.prompt!;
    expect(sent.length).toBeLessThanOrEqual(4000);
    expect(sent.endsWith(' Avoid: gore, nudity.')).toBe(true);
    await provider().generate(request({ negativePrompt: '  ' }));
    expect(fake.requests.at(-1)!.body.prompt).toBe(request().prompt);
  });
});

describe('automatic1111 adapter specifics', () => {
  it('sends a user:password key as HTTP Basic and names the model', async () => {
    const fake = await startFakeImageServer({ apiKey: 'painter:s3cret-pass' });
    try {
      const provider = createImageProvider(
        configFor('automatic1111', fake.a1111BaseUrl, { apiKey: 'painter:s3cret-pass', model: '' }),
      )!;
      expect(provider.model).toBe('automatic1111');
      await expectPng((await provider.generate(request())).bytes);
      expect(fake.requests[0].headers.authorization).toBe(
        `Basic ${Buffer.from('painter:s3cret-pass').toString('base64')}`,
      );
      const wrong = await failureOf(
        createImageProvider(configFor('automatic1111', fake.a1111BaseUrl, { apiKey: 'painter:wrong-pass' }))!.generate(
          request(),
        ),
      );
      expect(wrong.failure).toBe('misconfigured');
      expect(wrong.detail).not.toContain('wrong-pass');
      expect(wrong.detail).not.toContain(Buffer.from('painter:wrong-pass').toString('base64'));
    } finally {
      await fake.close();
    }
  });
});

describe('image registry', () => {
  it('makes one painter per IMAGE_PROVIDER and none when images are off', () => {
    expect(createImageProvider(configFor('none', ''))).toBeNull();
    expect(createImageProvider(configFor('builtin', '', { model: 'taleweaver-painter' }))).toMatchObject({
      id: 'builtin',
      model: 'taleweaver-painter',
    });
    expect(createImageProvider(configFor('openai', 'http://127.0.0.1:1/v1'))).toMatchObject({
      id: 'openai',
      model: 'image-model-1',
    });
    expect(createImageProvider(configFor('automatic1111', 'http://127.0.0.1:1'))).toMatchObject({
      id: 'automatic1111',
      model: 'image-model-1',
    });
  });

  it('describes each painter for the admin card, with a notice only for the demo painter', () => {
    const builtin = describeImageProvider(configFor('builtin', ''));
    expect(builtin.provider).toBe('Offline demo painter (builtin)');
    expect(builtin.notice).toMatch(/offline demo painter, not an AI model/);
    expect(builtin.notice).toMatch(/IMAGE_PROVIDER=openai/);
    expect(builtin.notice).toMatch(/automatic1111/);
    for (const name of ['IMAGE_BASE_URL', 'IMAGE_API_KEY', 'IMAGE_MODEL']) expect(builtin.notice).toContain(name);
    expect(describeImageProvider(configFor('openai', '', { model: 'gpt-image-1' }))).toEqual({
      provider: 'OpenAI-compatible images (gpt-image-1)',
      notice: null,
    });
    expect(describeImageProvider(configFor('automatic1111', '', { model: '' }))).toEqual({
      provider: 'Stable Diffusion WebUI (automatic1111)',
      notice: null,
    });
    expect(describeImageProvider(configFor('none', ''))).toEqual({ provider: 'Scene images off', notice: null });
  });
});
