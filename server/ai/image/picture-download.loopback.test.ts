// Picture URLs a painter answers with are fetched only where they may be (SSRF): the
// provider's own host, or a public address checked at connection time; never through a redirect,
// never another scheme, never past the size limit. Against the local fake OpenAI images server,
// whose own host is 127.0.0.1: any other name for this machine must be refused.
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf as failureOfKind } from '@server/test/failure-of';
import { fakePng, startFakeImageServer, type FakeImageServer } from '@server/test/fake-image-server';
import { isPublicAddress, publicOnlyLookup, type Resolve } from './picture-download';
import { createImageProvider } from './registry';
import { ImageError, type ImageConfig, type ImageRequest } from './types';

const KEY = 'sk-test-key-0123456789';

function config(baseUrl: string): ImageConfig {
  return {
    provider: 'openai',
    baseUrl,
    apiKey: KEY,
    model: 'gpt-image-1',
    timeoutMs: 5000,
    concurrency: 1,
    maxPerHour: 30,
    width: 1024,
    height: 576,
    steps: 20,
  };
}

function request(): ImageRequest {
  return {
    prompt: 'A lantern in the fog by the harbour.',
    negativePrompt: '',
    sceneText: 'A lantern in the fog by the harbour.',
    styleSheet: { artStyle: 'painterly', player: '', characters: [] },
    contentRating: 'general',
    seed: 1,
    width: 1024,
    height: 576,
    signal: new AbortController().signal,
  };
}

const failureOf = (promise: Promise<unknown>) => failureOfKind(promise, ImageError);

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.20',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.251',
    '239.255.255.250',
    '255.255.255.255',
    '192.0.2.10',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456:789a::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '::127.0.0.1',
    '2001:db8::1',
    '2002:a00:1::1',
    'not an address',
    'localhost',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '151.101.1.69',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('publicOnlyLookup', () => {
  const lookupWith = (answers: LookupAddress[]) => {
    const calls: string[] = [];
    const resolve: Resolve = async (hostname) => {
      calls.push(hostname);
      return answers;
    };
    const lookup = publicOnlyLookup(resolve);
    const run = (all: boolean) =>
      new Promise<{ error: Error | null; address: unknown; family?: number }>((done) =>
        lookup('pictures.example', { all }, (error, address, family) => done({ error, address, family })),
      );
    return { calls, run };
  };

  it('hands the socket exactly the checked addresses, resolving once per connection', async () => {
    const { calls, run } = lookupWith([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect(await run(false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect((await run(true)).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect(calls).toEqual(['pictures.example', 'pictures.example']);
  });

  it('refuses a name with any address that is not public, even beside public ones', async () => {
    for (const answers of [
      [{ address: '10.0.0.5', family: 4 }],
      [
        { address: '93.184.216.34', family: 4 },
        { address: '::ffff:127.0.0.1', family: 6 },
      ],
      [],
    ]) {
      const { error, address } = await lookupWith(answers).run(true);
      expect(error).toMatchObject({ code: 'ENOTPUBLIC' });
      expect(address).toBe('');
    }
  });
});

describe('picture URLs answered by the OpenAI-compatible painter', () => {
  let fake: FakeImageServer;
  let port: string;
  beforeAll(async () => {
    fake = await startFakeImageServer({ apiKey: KEY });
    port = new URL(fake.a1111BaseUrl).port;
    fake.putFile('scene.png', await fakePng(7));
  });
  afterAll(() => fake.close());
  const painter = () => createImageProvider(config(fake.openaiBaseUrl))!;

  it("fetches from the provider's own host, even though it is a private address", async () => {
    fake.queue.push({ kind: 'url', url: `${fake.a1111BaseUrl}/files/scene.png` });
    const result = await painter().generate(request());
    expect(Buffer.from(result.bytes).equals(await fakePng(7))).toBe(true);
    // A relative URL is on the provider's host too.
    fake.queue.push({ kind: 'url', url: '/files/scene.png' });
    expect((await painter().generate(request())).bytes.length).toBeGreaterThan(0);
  });

  it.each([
    ['a name for this machine', () => `http://localhost:${port}/files/scene.png`],
    ['an IPv4-mapped loopback address', () => `http://[::ffff:127.0.0.1]:${port}/files/scene.png`],
    ['another loopback address', () => `http://127.0.0.2:${port}/files/scene.png`],
    ['a private LAN address', () => 'http://192.168.1.1/admin.png'],
    ['the cloud metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s before connecting, as a bad answer', async (_name, url) => {
    const downloads = fake.downloads.length;
    fake.queue.push({ kind: 'url', url: url() });
    const error = await failureOf(painter().generate(request()));
    expect(error.failure).toBe('invalid_output');
    expect(error.detail).toMatch(/not a public address/);
    expect(fake.downloads.length).toBe(downloads);
  });

  it('never follows a redirect, even from its own host, so none can lead to a private address', async () => {
    const target = `http://localhost:${port}/files/scene.png`;
    fake.queue.push({ kind: 'url', url: `${fake.a1111BaseUrl}/files/redirect?to=${encodeURIComponent(target)}` });
    const error = await failureOf(painter().generate(request()));
    expect(error.failure).toBe('invalid_output');
    expect(error.detail).toMatch(/HTTP 302 .*redirects are not followed/);
    expect(fake.downloads.at(-1)).toBe('/files/redirect');
  });

  it.each(['/files/huge.png', '/files/huge-stream.png'])(
    'refuses a picture over the size limit at %s',
    async (path) => {
      fake.queue.push({ kind: 'url', url: `${fake.a1111BaseUrl}${path}` });
      const error = await failureOf(painter().generate(request()));
      expect(error.failure).toBe('invalid_output');
      expect(error.detail).toMatch(/too large/);
    },
  );

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/x.png', 'gopher://127.0.0.1:70/x', 'javascript:alert(1)'])(
    'refuses the scheme of %s',
    async (url) => {
      fake.queue.push({ kind: 'url', url });
      const error = await failureOf(painter().generate(request()));
      expect(error.failure).toBe('invalid_output');
      expect(error.detail).toMatch(/neither http\(s\) nor data:/);
    },
  );

  it('asks dall-e for base64, so a URL is the exception', async () => {
    await createImageProvider({ ...config(fake.openaiBaseUrl), model: 'dall-e-3' })!.generate(request());
    expect(fake.requests.at(-1)!.body.response_format).toBe('b64_json');
  });
});
