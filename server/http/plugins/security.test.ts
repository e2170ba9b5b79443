// The security headers worked out once at start-up are exactly those @fastify/helmet sets on each
// request with the same options, on every kind of answer outside /api (a page, an error, a 304);
// /api answers carry the short API set and nothing of the page's.
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_HEADERS, HELMET_OPTIONS, helmetHeaders, registerSecurity } from './security';

const HELMET_NAMES = Object.keys(helmetHeaders(HELMET_OPTIONS));

async function serve(setUp: (app: FastifyInstance) => Promise<void>): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await setUp(app);
  app.get('/json', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw Object.assign(new Error('nope'), { statusCode: 418 });
  });
  app.get('/same', async (_request, reply) => reply.status(304).send());
  app.get('/api/thing', async () => ({ ok: true }));
  app.get('/api/fails', async () => {
    throw Object.assign(new Error('nope'), { statusCode: 418 });
  });
  await app.ready();
  return app;
}

describe('security headers', () => {
  let ours: FastifyInstance;
  let reference: FastifyInstance;
  beforeAll(async () => {
    ours = await serve(registerSecurity);
    reference = await serve(async (app) => {
      await app.register(helmet, HELMET_OPTIONS);
    });
  });
  afterAll(async () => {
    await Promise.all([ours.close(), reference.close()]);
  });

  it('are a full helmet set with our policy', () => {
    expect(HELMET_NAMES).toEqual(
      expect.arrayContaining([
        'content-security-policy',
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'cross-origin-opener-policy',
      ]),
    );
    expect(HELMET_NAMES).not.toContain('strict-transport-security');
    expect(HELMET_NAMES).not.toContain('cross-origin-embedder-policy');
    expect(helmetHeaders(HELMET_OPTIONS)['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it.each(['/json', '/fails', '/same'])('match @fastify/helmet on %s', async (url) => {
    const [mine, theirs] = await Promise.all([
      ours.inject({ method: 'GET', url }),
      reference.inject({ method: 'GET', url }),
    ]);
    expect(mine.statusCode).toBe(theirs.statusCode);
    const pick = (headers: Record<string, unknown>) =>
      Object.fromEntries(HELMET_NAMES.map((name) => [name, headers[name]]));
    expect(pick(mine.headers)).toEqual(pick(theirs.headers));
  });

  it.each(['/api/thing', '/api/fails'])(
    'on %s are the API set: nothing allowed, no framing, nosniff, none of the page-only headers',
    async (url) => {
      const res = await ours.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers[name]).toBe(value);
      for (const name of [
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-xss-protection',
        'x-download-options',
      ]) {
        expect(res.headers[name]).toBeUndefined();
      }
    },
  );
});
