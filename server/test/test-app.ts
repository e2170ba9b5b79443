// Test helpers for the API suites: an empty migrated database per test file (PGlite: a kept thread
// emptied, embedded-databases.ts; PostgreSQL: a copy of global-setup's template), an app built on
// it, a cookie-keeping client over app.inject(), and factories that go through the real endpoints
// (the captcha is solved by reading its question).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyServerOptions, InjectOptions, LightMyRequestResponse as Response } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import type { ImageProvider } from '../ai/image/types';
import type { NarratorProvider } from '../ai/llm/types';
import { buildApp } from '../app';
import { catalogueOfOne, loadConfig, type AppConfig } from '../kernel/config';
import { openDatabase, type Database } from '../db/client';
import { createPasswordHasher } from '../domains/account/passwords';
import { takeEmbeddedDatabase } from './embedded-databases';
import { createFakePainter, type FakePainter } from './fake-painter';
import { databaseUrlFor } from './global-setup';
import { serverErrorLogger } from './server-errors';
import type { Drain } from '@server/kernel/drain';

export async function openTestDatabase(): Promise<Database> {
  if (inject('dbKind') === 'pglite') return takeEmbeddedDatabase(() => readFile(inject('pgliteTemplatePath')));
  const baseUrl = inject('postgresUrl');
  const template = inject('postgresTemplate');
  const name = `${template.replace(/_template$/, '')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  return openDatabase({ kind: 'postgres', url: databaseUrlFor(baseUrl, name), poolSize: 4 });
}

/** An empty database with no tables at all (migration tests build a previous release's schema in it). */
export async function openEmptyTestDatabase(): Promise<Database> {
  if (inject('dbKind') === 'pglite')
    return openDatabase({ kind: 'pglite-memory', loadDataDir: await readFile(inject('pgliteEmptyTemplatePath')) });
  const baseUrl = inject('postgresUrl');
  const name = `${inject('postgresTemplate').replace(/_template$/, '')}_empty_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return openDatabase({ kind: 'postgres', url: databaseUrlFor(baseUrl, name), poolSize: 4 });
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  // The builtin narrator streams instantly in tests.
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      SERVE_CLIENT: 'false',
      LOG_LEVEL: 'silent',
      BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
    }),
    ...overrides,
  };
  // A test that gives the narrator's settings alone (no catalogue) means the catalogue of that one,
  // as loadConfig makes it from LLM_*.
  if (overrides.llm && !overrides.narrators) config.narrators = catalogueOfOne(overrides.llm);
  return config;
}

/**
 * The narrator's settings for an app that talks to a local fake LLM server (`startFakeLlmServer`)
 * over the OpenAI-compatible protocol, as model `fake-gpt` with `apiKey`; `env` adds or overrides
 * other LLM_* settings (a timeout, a context window, prices).
 */
export function fakeLlmConfig(
  fake: { baseUrl: string },
  apiKey: string,
  env: Record<string, string> = {},
): AppConfig['llm'] {
  return loadConfig({
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fake.baseUrl,
    LLM_API_KEY: apiKey,
    LLM_MODEL: 'fake-gpt',
    ...env,
  }).llm;
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  clock: { now: Date; advance(ms: number): void };
  close(): Promise<void>;
}

export interface TestAppOptions {
  database?: Database;
  narrator?: NarratorProvider;
  logger?: FastifyServerOptions['logger'];
  /** The painter (default: IMAGE_PROVIDER's, the builtin one); null turns pictures off. */
  painter?: ImageProvider | null;
  /** The SIGTERM drain, for tests that begin it. */
  drain?: Drain;
}

/**
 * Argon2id at its smallest costs (8 KiB, one pass): the suites sign hundreds of players up, and at
 * the app's costs each hash is ninety milliseconds of a core. The real costs are tested on their own
 * (passwords.test.ts) and by the process tier's servers and the browser journeys, which hash as the
 * app does.
 */
export const CHEAP_PASSWORDS = createPasswordHasher({ memoryCost: 8, timeCost: 1 });

export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  options: TestAppOptions = {},
): Promise<TestContext> {
  const database = options.database ?? (await openTestDatabase());
  const clock = {
    now: new Date(),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  // Jobs are polled often so a retried picture does not wait out the production interval.
  const app = await buildApp(testConfig(overrides), {
    database,
    now: () => clock.now,
    logger: options.logger ?? serverErrorLogger,
    narrator: options.narrator,
    painter: options.painter,
    drain: options.drain,
    passwords: CHEAP_PASSWORDS,
    jobs: { pollingSeconds: 0.5, maintenanceSeconds: 5 },
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * The test app with the scripted painter (fake-painter.ts): pictures on, painted for real through
 * the job queue and stored, the painter's requests recorded in `painter`.
 */
export async function createPaintingTestApp(
  overrides: Partial<AppConfig> = {},
  options: Omit<TestAppOptions, 'painter'> = {},
): Promise<TestContext & { painter: FakePainter }> {
  const painter = createFakePainter();
  return Object.assign(await createTestApp(overrides, { ...options, painter }), { painter });
}

/**
 * A browser-like client: keeps cookies, sends JSON writes the way the SPA does. Every request says
 * what a browser says of the SPA's own calls, `Sec-Fetch-Site: same-origin`, and JSON writes carry
 * the SPA's `X-Requested-With: XMLHttpRequest`, so rules that tell the app's calls from a
 * cross-site page's see the app. A test sets its own values to play another site.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  async request(options: InjectOptions & { json?: unknown }): Promise<Response> {
    const { json, ...rest } = options;
    const given = Object.entries((rest.headers ?? {}) as Record<string, string>).map(([name, value]) => [
      name.toLowerCase(),
      value,
    ]);
    const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...Object.fromEntries(given) };
    if (this.cookies.size > 0 && !headers.cookie) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (json !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['x-requested-with'] ??= 'XMLHttpRequest';
      rest.payload = typeof json === 'string' ? json : JSON.stringify(json);
    }
    const response = await this.app.inject({ remoteAddress: this.ip, ...rest, headers });
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now()) || cookie.value === '';
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, json: unknown = {}) {
    return this.request({ method: 'POST', url, json });
  }

  patch(url: string, json: unknown) {
    return this.request({ method: 'PATCH', url, json });
  }

  /** With an empty JSON body, as the app's client sends it (writes must be JSON). */
  delete(url: string) {
    return this.request({ method: 'DELETE', url, json: {} });
  }
}

/** Computes the answer to "What is a op b?". */
export function solveCaptcha(question: string): string {
  const match = /^What is (\d+) ([+\-×]) (\d+)\?$/.exec(question);
  if (!match) throw new Error(`unexpected captcha question: ${question}`);
  const [a, op, b] = [Number(match[1]), match[2], Number(match[3])];
  return String(op === '+' ? a + b : op === '-' ? a - b : a * b);
}

let counter = 0;
export function uniqueName(prefix = 'player'): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(2).toString('hex')}`;
}

export interface RegisteredUser {
  client: TestClient;
  id: number;
  username: string;
  email: string;
  password: string;
}

/** Registers through the real endpoints (captcha included) and returns a signed-in client. */
export async function registerUser(
  app: FastifyInstance,
  input: Partial<{ username: string; email: string; password: string; ip: string }> = {},
): Promise<RegisteredUser> {
  const client = new TestClient(app, input.ip);
  const username = input.username ?? uniqueName();
  const email = input.email ?? `${username.toLowerCase()}@example.com`;
  const password = input.password ?? 'correct horse battery';
  const captcha = await client.get('/api/captcha');
  const res = await client.post('/api/register', {
    username,
    email,
    password,
    captchaAnswer: solveCaptcha(captcha.json().question),
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { client, id: res.json().id, username, email, password };
}
