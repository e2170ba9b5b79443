// Undo, redo and erase as Chromium asks for them (brotli), from the real server on an embedded
// database on disk (each write's WAL fsynced before its answer). Their handlers once sent the
// story's bytes without returning the reply: Fastify sent a second, empty answer, which here won the
// race on a story of some length, so the browser got a 200 with no body (Content-Length: 0). Tests
// through inject, or on a story of a few turns, never saw it.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storyStateResponseSchema } from '@shared/schemas/story';
import { registerOverHttp, seededDataDir, spawnServer, stopServer } from './test/spawn-server';

let dataDir: string;
beforeAll(async () => {
  dataDir = await seededDataDir('tw-main-versions-');
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('story versions from the real server, as a browser asks', () => {
  it('undo, redo and erase answer the whole new state, brotli-compressed', async () => {
    const server = spawnServer({ DATA_DIR: dataDir, BUILTIN_NARRATOR_WORD_DELAY_MS: '0' });
    const base = `http://127.0.0.1:${await server.port}`;
    try {
      const cookie = await registerOverHttp(base, 'undoasabrowser', 'correct horse');
      const call = async (method: 'GET' | 'POST', path: string, body: unknown = {}) => {
        const headers: Record<string, string> = { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' };
        if (method === 'POST') headers['content-type'] = 'application/json';
        return fetch(`${base}/api${path}`, {
          method,
          headers,
          body: method === 'POST' ? JSON.stringify(body) : undefined,
        });
      };
      const { storyId } = await (
        await call('POST', '/story/start', { prompt: 'A glassblower whose bottles keep voices' })
      ).json();
      // A story of some length: its state (30 KB) is compressed as a stream, which took long enough
      // for the empty second answer to win; a few turns' state (1 KB) still came out whole.
      for (let turn = 1; turn < 30; turn += 1)
        await call('POST', `/story/${storyId}/continue`, { message: `I listen to bottle ${turn}` });
      const last = await (
        await call('POST', `/story/${storyId}/continue`, { message: 'I open the bluest bottle' })
      ).json();

      const state = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
        const res = await call(method, `/story/${storyId}${path}`, body);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-encoding')).toBe('br');
        return storyStateResponseSchema.parse(JSON.parse(await res.text())).messages; // fetch undoes the brotli
      };
      const whole = await state('GET', '/current-state');
      expect(whole).toHaveLength(62);
      expect(await state('POST', '/undo')).toEqual(whole.slice(0, 60));
      expect(await state('POST', '/redo')).toEqual(whole);
      expect(await state('POST', '/erase', { fromMessageId: last.messageId - 1 })).toEqual(whole.slice(0, 60));
      expect(await state('POST', '/redo')).toEqual(whole);
    } finally {
      await stopServer(server.child);
    }
  }, 90_000);
});
