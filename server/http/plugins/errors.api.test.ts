// The API's failure shapes and its defences: JSON 404s, malformed and oversized bodies, the
// JSON-only rule for writes (CSRF), security headers, captcha limits and the health probes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    rateLimits: { loginMaxFailures: 10, loginWindowMs: 900_000, registerPerHour: 30, captchaPerMinute: 5 },
  });
});
afterAll(() => ctx.close());

describe('error shape', () => {
  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await new TestClient(ctx.app).get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await new TestClient(ctx.app).request({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "a",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Request body is not valid JSON', code: 'BAD_JSON' });
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const res = await new TestClient(ctx.app).post('/api/login', '"just a string"');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Request body must be a JSON object', code: 'VALIDATION_ERROR' });
  });

  it('answers a body over 64 KB with 413', async () => {
    const res = await new TestClient(ctx.app).post('/api/login', {
      username: 'a'.repeat(70_000),
      password: 'secret123',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined])(
    'refuses a write sent as %s with 415 (CSRF defence)',
    async (type) => {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      const res = await new TestClient(ctx.app).request({
        method: 'POST',
        url: '/api/logout',
        headers,
        payload: type ? 'username=a' : undefined,
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        message: 'Request body must be JSON (Content-Type: application/json)',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    },
  );

  it('lists every invalid field in details', async () => {
    const res = await new TestClient(ctx.app).post('/api/register', {
      username: 'a',
      email: 'b',
      password: 'c',
      captchaAnswer: '',
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['captchaAnswer', 'email', 'password', 'username']);
  });
});

describe('security headers', () => {
  it('sends CSP allowing nothing with frame-ancestors none, nosniff, a referrer policy and no-store on API answers', async () => {
    const res = await new TestClient(ctx.app).get('/api/user');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('marks the session cookie Secure behind a TLS proxy when TRUST_PROXY is set', async () => {
    const proxied = await createTestApp({ trustProxy: true });
    try {
      const client = new TestClient(proxied.app);
      const res = await client.request({
        method: 'GET',
        url: '/api/captcha',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });
});

describe('captcha rate limit', () => {
  it('answers 429 after the configured number of captchas a minute from one IP', async () => {
    const client = new TestClient(ctx.app, '10.9.9.9');
    for (let i = 0; i < 5; i += 1) expect((await client.get('/api/captcha')).statusCode).toBe(200);
    const blocked = await client.get('/api/captcha');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many captcha requests. Please wait a minute and try again.',
      code: 'RATE_LIMITED',
    });
    ctx.clock.advance(60_001);
    expect((await client.get('/api/captcha')).statusCode).toBe(200);
  });
});

describe('health', () => {
  it('reports liveness and database readiness', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.get('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await client.get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: ctx.database.kind });
  });
});
