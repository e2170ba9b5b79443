// Absolute URLs never echo a Host header the operator did not vouch for: without
// PUBLIC_URL, a shared story's link-preview page and a Markdown export use the request's host only
// when it is loopback or listed in ALLOWED_HOSTS; otherwise the preview leaves out og:url and the
// image tags (title and description remain) and the export links its pictures relatively. The log
// says so once.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@server/kernel/config';
import { captureLog, type CapturedLog } from '@server/test/captured-log';
import { settlePicture } from '@server/test/fake-painter';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let clientDir: string;
const apps: TestContext[] = [];
beforeAll(async () => {
  clientDir = await mkdtemp(join(tmpdir(), 'tw-client-'));
  await copyFile('client/index.html', join(clientDir, 'index.html'));
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await rm(clientDir, { recursive: true, force: true });
});

async function appWith(overrides: Partial<AppConfig> = {}): Promise<{ ctx: TestContext; appLog: CapturedLog }> {
  const appLog = captureLog('warn');
  const ctx = await createTestApp({ serveClient: true, clientDir, ...overrides }, { logger: appLog.logger });
  apps.push(ctx);
  return { ctx, appLog };
}

/** A shared story whose opening reply has a picture, and the story's id. */
async function sharedWithPicture(ctx: TestContext) {
  const { client } = await registerUser(ctx.app);
  await client.post('/api/preferences', { imageGeneration: true });
  const started = (
    await client.post('/api/story/start', { prompt: 'A lighthouse keeper on a stormy coast at night' })
  ).json();
  expect((await settlePicture(client, started.messageId)).statusCode).toBe(200);
  const { shareId } = (await client.post(`/api/story/${started.storyId}/share`, { title: 'Storm light' })).json();
  return { client, shareId: shareId as string, storyId: started.storyId as number };
}

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];
const page = (ctx: TestContext, shareId: string, headers: Record<string, string>, ip = '10.9.0.1') =>
  new TestClient(ctx.app, ip).request({ method: 'GET', url: `/shared/${shareId}`, headers });

describe('without PUBLIC_URL', () => {
  let ctx: TestContext;
  let appLog: CapturedLog;
  let shareId: string;
  let client: TestClient;
  let storyId: number;
  beforeAll(async () => {
    ({ ctx, appLog } = await appWith({ allowedHosts: ['stories.example.com', 'tales.example:8443'] }));
    ({ shareId, client, storyId } = await sharedWithPicture(ctx));
  });

  it('writes no absolute URL for a host it does not know, keeps the text preview, and warns once', async () => {
    for (const headers of [
      { host: 'evil.example' },
      { host: 'evil.example:3000' },
      { host: 'tales.example' },
      { host: 'localhost.evil.example' },
      { host: '127.0.0.1.evil.example' },
    ]) {
      const html = (await page(ctx, shareId, headers)).body;
      expect(meta(html, 'og:title')).toBe('Storm light');
      expect(meta(html, 'og:description')?.length).toBeGreaterThan(20);
      expect(meta(html, 'og:url')).toBeUndefined();
      expect(meta(html, 'og:image')).toBeUndefined();
      expect(meta(html, 'twitter:image')).toBeUndefined();
      expect(meta(html, 'twitter:card')).toBe('summary');
      expect(html).not.toContain('evil.example');
    }
    const warnings = appLog.lines.filter((line) => line.msg.includes('PUBLIC_URL is unset'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain('ALLOWED_HOSTS');
  });

  it.each([
    ['localhost:3000', 'http://localhost:3000'],
    ['127.0.0.1', 'http://127.0.0.1'],
    ['127.9.9.9:8080', 'http://127.9.9.9:8080'],
    ['[::1]:3000', 'http://[::1]:3000'],
    ['Stories.Example.com', 'http://stories.example.com'],
    ['stories.example.com:8080', 'http://stories.example.com:8080'],
    ['tales.example:8443', 'http://tales.example:8443'],
  ])('uses the request host %s, loopback or allowed', async (host, base) => {
    const html = (await page(ctx, shareId, { host })).body;
    expect(meta(html, 'og:url')).toBe(`${base}/shared/${shareId}`);
    expect(meta(html, 'og:image')).toMatch(
      new RegExp(`^${base.replace(/[.[\]]/g, '\\$&')}/api/shared/${shareId}/images/[0-9a-f]{64}\\.webp$`),
    );
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
  });

  it('links exported pictures relatively for an unknown host, absolutely for a known one', async () => {
    const exported = (host: string) =>
      client.request({ method: 'GET', url: `/api/story/${storyId}/export?format=markdown`, headers: { host } });
    const foreign = (await exported('evil.example')).body;
    expect(foreign).toMatch(/!\[[^\]]*\]\(\/api\/images\/[a-f0-9]{64}\.webp\)/);
    expect(foreign).not.toContain('evil.example');
    expect((await exported('stories.example.com')).body).toMatch(
      /\]\(http:\/\/stories\.example\.com\/api\/images\/[a-f0-9]{64}\.webp\)/,
    );
  });
});

describe('behind a proxy', () => {
  it('checks the forwarded host like any other', async () => {
    const { ctx } = await appWith({ trustProxy: true, allowedHosts: ['stories.example.com'] });
    const { shareId } = await sharedWithPicture(ctx);
    const forged = (
      await page(ctx, shareId, { host: 'localhost', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })
    ).body;
    expect(meta(forged, 'og:url')).toBeUndefined();
    expect(forged).not.toContain('evil.example');
    const real = (
      await page(ctx, shareId, {
        host: 'localhost',
        'x-forwarded-host': 'stories.example.com',
        'x-forwarded-proto': 'https',
      })
    ).body;
    expect(meta(real, 'og:url')).toBe(`https://stories.example.com/shared/${shareId}`);
  });
});

describe('with PUBLIC_URL', () => {
  it('uses it whatever the Host header says', async () => {
    const { ctx, appLog } = await appWith({ publicUrl: 'https://tales.example.org' });
    const { shareId } = await sharedWithPicture(ctx);
    const html = (await page(ctx, shareId, { host: 'evil.example' })).body;
    expect(meta(html, 'og:url')).toBe(`https://tales.example.org/shared/${shareId}`);
    expect(meta(html, 'og:image')).toMatch(/^https:\/\/tales\.example\.org\/api\/shared\//);
    expect(appLog.lines.filter((line) => line.msg.includes('PUBLIC_URL is unset'))).toHaveLength(0);
  });
});
