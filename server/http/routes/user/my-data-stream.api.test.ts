// 'Your Data' as a stream: GET /api/user/export writes the file as it reads the stories, one at a
// time and each as one snapshot, in exactly the format JSON.stringify(data, null, 2) gave; a story
// that cannot be read cuts the download short (the connection aborted, the JSON unclosed), never a
// file that looks complete. The single story's export streams the same way.
import { createQuotaService } from '@server/domains/limits/quotas';
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { createAccountService } from '@server/domains/account/accounts';
import { createBookmarkService } from '@server/domains/bookmarks/bookmarks';
import { createCaptchaService } from '@server/domains/account/captcha';
import { createLibraryService } from '@server/domains/story/library';
import { createMyDataService } from '@server/domains/account/my-data';
import { createNarratorProvider } from '@server/ai/llm/registry';
import { createNarratorService } from '@server/domains/narrators/narrators';
import { createPreferencesService } from '@server/domains/preferences/preferences';
import { createSignInLimiter } from '@server/domains/limits/sign-in-limits';
import { createMemoryStore, createRequestLimiter } from '@server/domains/limits/request-limits';
import { createSessionService } from '@server/domains/account/sessions';
import { createImportReader } from '@server/domains/story/files/import-reader';
import { createStoryFileService } from '@server/domains/story/files/story-files';
import { settlePicture } from '@server/test/fake-painter';
import { growStory } from '@server/test/grown-story';
import {
  CHEAP_PASSWORDS,
  registerUser,
  testConfig,
  TestClient,
  type TestContext,
  createPaintingTestApp,
} from '@server/test/test-app';
import { listenAppOnLoopback } from '@server/test/listen-on-loopback';

let ctx: TestContext;
let base: string;
beforeAll(async () => {
  ctx = await createPaintingTestApp();
  base = (await listenAppOnLoopback(ctx.app)).url;
});
afterAll(() => ctx.close());

/** A story of the player's, grown in the database to about `kb` KB. */
async function storyOf(client: TestClient, premise: string, kb: number): Promise<number> {
  const { storyId } = (await client.post('/api/story/start', { prompt: premise })).json();
  if (kb > 0) await growStory(ctx.database, storyId, Math.ceil(kb / 2), 1000);
  return storyId;
}

/**
 * GET over a real socket: the status, headers, the bytes received and how the answer ended. A
 * connection closed before any answer is status 0, aborted.
 */
function download(path: string, client: TestClient, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer; ended: 'complete' | 'aborted' }>(
    (resolve) => {
      const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const req = request(`${base}${path}`, { headers: { cookie, ...headers } }, (res) => {
        const parts: Buffer[] = [];
        let ended: 'complete' | 'aborted' | undefined;
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts),
            ended: ended ?? 'aborted',
          });
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => (ended = res.complete ? 'complete' : 'aborted'));
        res.on('aborted', () => (ended = 'aborted'));
        res.on('error', () => (ended = 'aborted'));
        res.on('close', finish);
      });
      req.on('error', () => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), ended: 'aborted' }));
      req.end();
    },
  );
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('GET /api/user/export, streamed', () => {
  it('writes the file JSON.stringify(data, null, 2) wrote, with every story as its own export, versions and pictures included', async () => {
    const { client } = await registerUser(ctx.app);
    // Grown first, with pictures off: none is being painted while the two exports are compared.
    const grown = [
      await storyOf(client, 'A tide clock runs on moonlight', 300),
      await storyOf(client, 'A ferry that only sails in fog', 150),
    ];
    await client.post('/api/preferences', { imageGeneration: true });
    const played = (
      await client.post('/api/story/start', { prompt: 'A bell founder casts a bell that rings backwards' })
    ).json();
    await settlePicture(client, played.messageId);
    const retried = (await client.post(`/api/story/${played.storyId}/retry`)).json();
    // The new reply is painted behind: wait for its picture, so both exports below see it.
    await vi.waitFor(async () => expect((await settlePicture(client, retried.messageId)).statusCode).toBe(200), {
      timeout: 20_000,
      interval: 200,
    });
    const res = await client.get('/api/user/export');
    expect(res.statusCode).toBe(200);
    // Streamed: its length is not known before it is written.
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.body).toBe(`${JSON.stringify(JSON.parse(res.body), null, 2)}\n`);
    const data = res.json();
    expect(data.stories.map((s: { storyId: number }) => s.storyId)).toEqual([...grown, played.storyId]);
    expect(data.stories[2].messages[1].versions).toHaveLength(2);
    expect(data.stories[2].messages[1].image.hash).toMatch(/^[a-f0-9]{64}$/);
    for (const story of data.stories) {
      const single = (await client.get(`/api/story/${story.storyId}/export?format=json`)).json();
      expect({ ...story, exportedAt: single.exportedAt }).toEqual({ storyId: story.storyId, ...single });
    }
    expect(data.stories[0].messages).toHaveLength(302);
  });

  it('stops cut short when a story cannot be read: the connection is aborted and the JSON does not parse', async () => {
    const { client } = await registerUser(ctx.app);
    const first = await storyOf(client, 'A lamplighter whose lamps light the past', 300);
    const broken = await storyOf(client, 'A cartographer of dreams', 0);
    await storyOf(client, 'A third story nobody will see', 0);
    // A row the export cannot write (a time JavaScript has no date for): reading that story fails.
    await ctx.database.executeSql(`update story_messages set created_at = 'infinity' where story_id = $1`, [broken]);
    const plain = await download('/api/user/export', client);
    expect([plain.status, plain.ended]).toEqual([200, 'aborted']);
    const text = plain.body.toString();
    expect(text.startsWith('{\n  "format": "taleweaver.account"')).toBe(true);
    expect(text).toContain(`"storyId": ${first}`);
    expect(text).not.toContain('A third story nobody will see');
    expect(isJson(text)).toBe(false);
    // As a browser asks (brotli): the first bytes may still be in the compressor when the read
    // fails, so no answer at all has left (never an error answer under the file's name), or an
    // unfinished brotli stream of the file's start has.
    const compressed = await download('/api/user/export', client, { 'accept-encoding': 'br' });
    expect(compressed.ended).toBe('aborted');
    expect([0, 200]).toContain(compressed.status);
    if (compressed.status === 200) {
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(() => brotliDecompressSync(compressed.body)).toThrow();
    }
  });

  it('reads each story only when the download reaches it, so the server holds one story, not all of them', async () => {
    const { id, client } = await registerUser(ctx.app);
    const stories = [];
    for (let i = 0; i < 5; i += 1) stories.push(await storyOf(client, `Story number ${i} of a patient reader`, 150));
    const now = () => new Date();
    const repos = createRepositories(ctx.database.db);
    const config = testConfig();
    const limiter = createRequestLimiter({ now, shared: null, log: console, fallback: createMemoryStore(now) });
    const narrators = createNarratorService({
      catalogue: config.narrators,
      defaultProvider: createNarratorProvider(config.llm),
      users: repos.users,
    });
    const storyFiles = createStoryFileService({
      repos,
      reader: createImportReader(),
      picturesEnabled: true,
      limiter,
      quotas: createQuotaService({ repos, limits: config.quotas, monthlyTokenLimit: null, now }),
      maxCards: config.storyMaxCards,
      now,
      narrators,
    });
    const reads: number[] = [];
    const myData = createMyDataService({
      repos,
      accounts: createAccountService({
        repos,
        config,
        captcha: createCaptchaService(repos, now),
        signInLimiter: createSignInLimiter(repos, now),
        passwords: CHEAP_PASSWORDS,
        now,
      }),
      preferences: createPreferencesService({ repos, narrators, now }),
      bookmarks: createBookmarkService({ repos, now }),
      // The real reader, watched: which story is read when.
      storyFiles: {
        ...storyFiles,
        read: async (userId, storyId) => (reads.push(storyId), storyFiles.read(userId, storyId)),
      },
      library: createLibraryService({ repos, picturesEnabled: true, sharesGone: async () => {}, now }),
      sessions: createSessionService(repos, now, null),
      limiter,
      passwords: CHEAP_PASSWORDS,
      now,
    });
    const file = await myData.export(id);
    expect(reads).toEqual([]);
    expect(typeof file.body).not.toBe('string');
    const readWhenWritten: number[] = [];
    let text = '';
    for await (const chunk of file.body) {
      readWhenWritten.push(reads.length);
      text += chunk;
      // Never more than the story being written is held: the next is read once this one is out.
      const written = stories.filter((storyId) => text.includes(`"storyId": ${storyId}`)).length;
      expect(reads.length).toBeLessThanOrEqual(written);
    }
    expect(reads).toEqual(stories);
    expect(readWhenWritten[0]).toBe(1);
    expect(readWhenWritten.length).toBeGreaterThan(5);
    expect(JSON.parse(text).stories).toHaveLength(5);
  });
});

describe('GET /api/story/{id}/export, streamed', () => {
  it('writes a long story in chunks, in the same format, and says 404 before writing anything for a story that is not yours', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await storyOf(client, 'An archivist of storms', 400);
    const json = await download(`/api/story/${storyId}/export?format=json`, client);
    expect([json.status, json.ended, json.headers['content-length']]).toEqual([200, 'complete', undefined]);
    const text = json.body.toString();
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(JSON.parse(text).messages).toHaveLength(402);
    const markdown = await download(`/api/story/${storyId}/export?format=markdown`, client);
    expect([markdown.status, markdown.ended, markdown.headers['content-length']]).toEqual([200, 'complete', undefined]);
    expect(markdown.body.toString()).toContain('*Played on Taleweaver, exported ');
    expect(markdown.body.toString().split('**You:**')).toHaveLength(201);
    const stranger = await registerUser(ctx.app);
    const foreign = await download(`/api/story/${storyId}/export?format=json`, stranger.client);
    expect([foreign.status, JSON.parse(foreign.body.toString()).message]).toEqual([404, 'Story not found']);
  });
});
