// The served /shared/{shareId} page: the SPA's index.html with link-preview meta tags filled in on
// the server and HTML-escaped (a title carrying <script> stays text); an unknown id, or a reader past
// the read limit, still gets the plain page for the SPA to answer.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlePicture } from '@server/test/fake-painter';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

const HOSTILE_TITLE = `</title><script>alert("x")</script> & 'friends'`;
let ctx: TestContext;
let clientDir: string;

beforeAll(async () => {
  // The real index.html from the source tree stands in for the build.
  clientDir = await mkdtemp(join(tmpdir(), 'tw-client-'));
  await copyFile('client/index.html', join(clientDir, 'index.html'));
  // The preview's absolute URLs use the request's host only when the operator allows it (ALLOWED_HOSTS).
  ctx = await createTestApp({ serveClient: true, clientDir, sharedReadsPerMinute: 5, allowedHosts: ['stories.test'] });
});
afterAll(async () => {
  await ctx.close();
  await rm(clientDir, { recursive: true, force: true });
});

async function sharedStory(title: string): Promise<{ shareId: string; opening: string }> {
  const { client } = await registerUser(ctx.app);
  const started = await client.post('/api/story/start', { prompt: 'A <b>bold</b> heist at the "Grand" museum' });
  const res = await client.post(`/api/story/${started.json().storyId}/share`, { title });
  expect(res.statusCode).toBe(201);
  return { shareId: res.json().shareId, opening: started.json().message };
}

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];

describe('GET /shared/:shareId (the page)', () => {
  it('carries escaped Open Graph and Twitter tags with the title and the opening lines', async () => {
    const { shareId, opening } = await sharedStory(HOSTILE_TITLE);
    const res = await new TestClient(ctx.app, '10.3.0.1').request({
      method: 'GET',
      url: `/shared/${shareId}`,
      headers: { host: 'stories.test' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain(`</title><script>`);
    const escaped = '&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;';
    expect(meta(html, 'og:title')).toBe(escaped);
    expect(meta(html, 'twitter:title')).toBe(escaped);
    expect(html).toContain(`<title>${escaped} | Taleweaver</title>`);
    expect(meta(html, 'og:url')).toBe(`http://stories.test/shared/${shareId}`);
    expect(meta(html, 'og:type')).toBe('article');
    expect(meta(html, 'twitter:card')).toBe('summary');
    expect(meta(html, 'og:image')).toBeUndefined();
    const description = meta(html, 'og:description') ?? '';
    expect(description.length).toBeGreaterThan(20);
    expect(opening.replace(/\s+/g, ' ').startsWith(description.replace(/…$/, ''))).toBe(true);
    expect(meta(html, 'description')).toBe(description);
    // Still the SPA: its scripts are there, once.
    expect(html.match(/<script /g)).toHaveLength(2);
    expect(html).toContain('<div id="root"></div>');
  });

  it('shows the first scene picture as an absolute og:image and twitter:image', async () => {
    const { client } = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const started = (
      await client.post('/api/story/start', { prompt: 'A lighthouse keeper on a stormy coast at night' })
    ).json();
    expect((await settlePicture(client, started.messageId)).statusCode).toBe(200);
    const { shareId } = (await client.post(`/api/story/${started.storyId}/share`, { title: 'Storm light' })).json();
    const html = (
      await new TestClient(ctx.app, '10.3.0.5').request({
        method: 'GET',
        url: `/shared/${shareId}`,
        headers: { host: 'stories.test' },
      })
    ).body;
    expect(meta(html, 'og:image')).toMatch(
      new RegExp(`^http://stories\\.test/api/shared/${shareId}/images/[0-9a-f]{64}\\.webp$`),
    );
    expect(meta(html, 'twitter:image')).toBe(meta(html, 'og:image'));
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
  });

  it('serves the plain page for an unknown id, so the SPA can show its error card', async () => {
    const res = await new TestClient(ctx.app, '10.3.0.2').get('/shared/AAAAAAAAAAAAAAAA');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).toContain('<title>Taleweaver</title>');
    expect(meta(res.body, 'og:title')).toBeUndefined();
  });

  it('describes the built-in sample without its inline images', async () => {
    const res = await new TestClient(ctx.app, '10.3.0.3').get('/shared/test');
    expect(meta(res.body, 'og:title')).toBe('Sample Story: The Lighthouse at Gull&#39;s End');
    expect(meta(res.body, 'og:image')).toBeUndefined();
    expect(res.body).not.toContain('data:image');
  });

  it('stops looking stories up for an IP past the read limit but still serves the page', async () => {
    const { shareId } = await sharedStory('Plenty of readers');
    const reader = new TestClient(ctx.app, '10.3.0.4');
    for (let i = 0; i < 5; i += 1)
      expect(meta((await reader.get(`/shared/${shareId}`)).body, 'og:title')).toBe('Plenty of readers');
    const limited = await reader.get(`/shared/${shareId}`);
    expect(limited.statusCode).toBe(200);
    expect(meta(limited.body, 'og:title')).toBeUndefined();
    expect((await reader.get(`/api/shared/${shareId}`)).statusCode).toBe(429);
  });
});
