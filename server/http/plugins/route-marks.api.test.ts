// The session read and the JSON-only write rule follow the route a request reached, not how its
// URL was spelled. The router decodes percent-escapes and takes an absolute-form
// request line, so `/%61pi/logout` and `POST http://host/api/logout` reach /api routes; a prefix
// test on request.url let them skip the CSRF check (and lose the session and no-store).
// Fastify itself is case-sensitive and keeps duplicate slashes: those spellings reach no route.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';
import { listenAppOnLoopback } from '@server/test/listen-on-loopback';

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await createTestApp();
  ({ port } = await listenAppOnLoopback(ctx.app));
});
afterAll(() => ctx.close());

/** One raw HTTP/1.1 exchange, so the request line is sent exactly as written. */
function rawRequest(lines: string[], body = ''): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `${lines.join('\r\n')}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...rest] = answer.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: rest.join('\r\n\r\n') });
    });
  });
}

describe('a write reaching an /api route by another spelling', () => {
  it.each(['/%61pi/logout', '/api/%6cogout'])('must still be JSON: %s as text/plain is 415', async (url) => {
    const { client } = await registerUser(ctx.app);
    const res = await client.request({
      method: 'POST',
      url,
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await client.get('/api/user')).statusCode).toBe(200);
  });

  it('must still be JSON when the request line is in absolute form', async () => {
    const { client } = await registerUser(ctx.app);
    const cookie = `tw_session=${client.cookies.get('tw_session')}`;
    const res = await rawRequest(
      [
        `POST http://127.0.0.1:${port}/api/logout HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Content-Type: text/plain',
        `Cookie: ${cookie}`,
      ],
      'x',
    );
    expect(res.status).toBe(415);
    expect((await client.get('/api/user')).statusCode).toBe(200);
  });
});

describe('a read reaching an /api route by another spelling', () => {
  it('reads the session and answers with the API headers and no-store', async () => {
    const { client, id } = await registerUser(ctx.app);
    const res = await client.get('/%61pi/user');
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(id);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('reads the session when the request line is in absolute form', async () => {
    const { client, id } = await registerUser(ctx.app);
    const res = await rawRequest([
      `GET http://127.0.0.1:${port}/api/user HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Cookie: tw_session=${client.cookies.get('tw_session')}`,
    ]);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).id).toBe(id);
    expect(res.headers).toContain('cache-control: no-store');
  });

  it('keeps a query string, and refuses spellings the router does not match with the JSON 404', async () => {
    const { client, id } = await registerUser(ctx.app);
    expect((await client.get('/api/user?x=/shared/')).json().id).toBe(id);
    for (const url of ['/API/user', '/api//user', '//api/user', '/api/user/']) {
      const res = await client.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    const visitor = await new TestClient(ctx.app).request({
      method: 'POST',
      url: '/%61pi/logout',
      payload: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(visitor.statusCode).toBe(415);
  });
});
