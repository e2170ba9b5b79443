// The API's description: GET /api/openapi.json is generated from the routes and covers
// every one of them, HEAD included; it is valid OpenAPI 3.1, says what the zod schemas say, and holds
// no secret or player data. GET /api/docs is a page of our own files under a CSP without inline script.
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBodySchema } from '@shared/schemas/auth';
import { captureLog } from '@server/test/captured-log';
import { createTestApp, registerUser, testConfig, TestClient, type TestContext } from '@server/test/test-app';
import { DOCS_PREFIX, OPENAPI_PATH, SESSION_OPTIONAL } from './openapi';

const SECRET = 'sk-openapi-test-secret-5f1c9a7e';

type Operation = {
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: object } }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, object>; schemas: Record<string, { required?: string[] }> };
};

let ctx: TestContext;
let doc: Document;
let body: string;
const appLog = captureLog('info');
beforeAll(async () => {
  ctx = await createTestApp({ llm: { ...testConfig().llm, apiKey: SECRET } }, { logger: appLog.logger });
  const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  body = res.body;
  doc = res.json();
});
afterAll(() => ctx.close());

/**
 * Every route the router holds, as `METHOD /path/{param}`, read from printRoutes' tree: each line
 * is a segment under the line above it one level up, with its methods in brackets.
 */
function registeredRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    stack.length = match[1].length / 4;
    stack.push(match[2]);
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${path}`);
  }
  return routes;
}

function documented(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('GET /api/openapi.json', () => {
  it('describes every /api route the app registered, with its methods, HEAD /api/user included', () => {
    // The reference page's own files (/api/docs, its assets, its copy of this document) are not API
    // calls: @fastify/swagger-ui hides them from the document, on purpose.
    const routes = registeredRoutes(ctx.app).filter(
      (route) => / \/api(\/|$)/.test(route) && !route.split(' ')[1].startsWith(DOCS_PREFIX),
    );
    expect(routes.length).toBeGreaterThan(60);
    expect(routes).toContain('HEAD /api/user');
    expect(routes).toContain('PATCH /api/story/{storyId}/messages/{messageId}');

    const operations = documented(doc);
    expect(operations.filter((operation) => !routes.includes(operation) && / \/api\//.test(operation))).toEqual([]);
    expect(routes.filter((route) => !operations.includes(route))).toEqual([]);
    // The probes too; the client's files and pages are not part of the API.
    expect(operations).toEqual(expect.arrayContaining(['GET /healthz', 'GET /readyz']));
    expect(operations.some((operation) => operation.includes(DOCS_PREFIX))).toBe(false);
  });

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator can say no: the same document with a response lacking its description.
    const broken = structuredClone(doc);
    delete (broken.paths['/api/user'].get.responses['200'] as { description?: string }).description;
    expect((await new Validator().validate(broken as unknown as Record<string, unknown>)).valid).toBe(false);
  });

  it("has a body's required fields from its zod schema", () => {
    const schema = doc.paths['/api/register'].post.requestBody?.content['application/json'].schema;
    const required = Object.entries(registerBodySchema.shape)
      .filter(([, field]) => !field.safeParse(undefined).success)
      .map(([name]) => name);
    expect(required).toEqual(expect.arrayContaining(['username', 'email', 'password', 'captchaAnswer']));
    expect([...(schema?.required ?? [])].sort()).toEqual([...required].sort());
  });

  it('describes the session cookie, and which routes need it', () => {
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'tw_session',
    });
    const user = doc.paths['/api/user'];
    expect(user.get.security).toEqual([{ sessionCookie: [] }]);
    expect(user.head.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths['/api/story/start'].post.security).toEqual([{ sessionCookie: [] }]);
    // Signing in takes a session if there is one, and answers without.
    expect(doc.paths['/api/login'].post.security).toEqual([{}, { sessionCookie: [] }]);
    // The public shared reads never read it: they say so, with no requirement at all.
    expect(doc.paths['/api/shared/{shareId}'].get.security).toEqual([]);
    // Every route named as taking the session optionally is still a route.
    const operations = documented(doc);
    for (const route of SESSION_OPTIONAL) expect(operations).toContain(route);
  });

  it('describes the error body on the answers that carry it, and HEAD without bodies', () => {
    expect(doc.components.schemas.ApiError.required).toEqual(['message', 'code']);
    const unauthenticated = doc.paths['/api/user'].get.responses['401'];
    expect(unauthenticated.content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiError' });
    const invalid = doc.paths['/api/register'].post.responses['400'];
    expect(invalid.content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiError' });
    expect(doc.paths['/api/register'].post.responses['5XX']).toBeDefined();

    const check = doc.paths['/api/user'].head.responses;
    expect(check['200'].content).toBeUndefined();
    expect(check['401'].content).toBeUndefined();
  });

  it('leaves the routes as they were: validation and error bodies unchanged', async () => {
    const visitor = new TestClient(ctx.app);
    const signedOut = await visitor.get('/api/user');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const bad = await visitor.post('/api/login', { username: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
  });

  it('holds no secret and no player data, whoever asks', async () => {
    const player = await registerUser(ctx.app);
    const asPlayer = await player.client.get(OPENAPI_PATH);
    expect(asPlayer.body).toBe(body);
    expect(asPlayer.headers['set-cookie']).toBeUndefined();
    for (const answer of [body, (await player.client.get(DOCS_PREFIX)).body]) {
      expect(answer).not.toContain(SECRET);
      expect(answer).not.toContain(player.username);
      expect(answer).not.toContain(player.email);
    }
  });
});

describe('GET /api/docs', () => {
  it('is a page whose scripts are all our own files, under a CSP without inline script', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);

    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    expect(page.body.match(/<script\b/gi)?.length).toBe(scripts.length);
    for (const [, attributes, content] of scripts) {
      expect(content.trim()).toBe('');
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
      expect(src).toMatch(new RegExp(`^${DOCS_PREFIX}/static/[\\w.-]+\\.js$`));
    }
    expect(page.body).not.toMatch(/\son\w+=/i);

    const csp = String(page.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src '));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:|\*/);

    // Each script is served from here, as JavaScript under the same policy.
    for (const [, attributes] of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1] as string;
      const asset = await ctx.app.inject({ method: 'GET', url: src });
      expect(asset.statusCode, src).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
      expect(asset.headers['content-security-policy']).toBe(csp);
    }
  });

  it("caches Swagger UI's files (compressed), revalidates the page and the document", async () => {
    const bundle = await ctx.app.inject({
      method: 'GET',
      url: `${DOCS_PREFIX}/static/swagger-ui-bundle.js`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['cache-control']).toBe('public, max-age=86400');
    expect(bundle.headers.etag).toBeDefined();
    expect(bundle.headers['content-encoding']).toBe('br');
    const missing = await ctx.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/static/no-such-file.js` });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).not.toMatch(/max-age=[1-9]/);
    const page = await ctx.app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(page.headers['cache-control']).toBe('no-cache');
    const document = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(document.headers['cache-control']).toBe('no-cache');
  });

  it('is not logged request by request', async () => {
    appLog.clear();
    await ctx.app.inject({ method: 'GET', url: DOCS_PREFIX });
    await ctx.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/static/swagger-ui-bundle.js` });
    await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
    await ctx.app.inject({ method: 'GET', url: '/api/user' });
    const log = appLog.text();
    expect(log).toContain('/api/user');
    expect(log).not.toContain(DOCS_PREFIX);
    expect(log).not.toContain(OPENAPI_PATH);
  });
});
