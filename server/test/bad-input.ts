// What the bad-input suites send and how they judge the answer: malformed path ids, well-formed ids
// that cannot exist, hostile JSON bodies, and the check every refusal must pass (its status, the
// API's JSON error shape, a message written for a person rather than a validator's wording).
import type { LightMyRequestResponse as Response } from 'fastify';
import { expect } from 'vitest';
import type { TestClient } from './test-app';

/** Path ids no route may take: each is refused as a bad request, never looked up. */
export const MALFORMED_IDS = [
  'abc',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '+7',
  '%20',
  '1%20',
  '%00',
  '%F0%9F%92%A9',
  '..%2F..%2Fetc',
  '9'.repeat(40),
] as const;

/** Well-formed ids no row can have (zero, and beyond PostgreSQL's integer): simply not found. */
export const ABSENT_IDS = ['0', '2147483648', '999999999999999'] as const;

/** A path that is not valid percent-encoding: the router itself refuses it. */
export const BROKEN_ENCODING = '%E0%A4%A';

/** The first int4 overflow, as JSON numbers in bodies. */
export const BEYOND_INT4 = 2_147_483_648;

/** An id in range that no row has in a test database. */
export const MISSING_ID = BEYOND_INT4 - 1;

/** The API's words for a malformed story id and for a story that is missing or another player's. */
export const STORY_ID_INVALID = 'Story id must be a number';
export const STORY_NOT_FOUND = 'Story not found';

/** Bodies that are JSON but not an object; each is refused before any field is read. */
export const NON_OBJECT_BODIES = ['null', '[]', '[{}]', '"text"', '42', 'true'] as const;

/** JSON nested far deeper than any request needs (about 40 KB, under the default body limit). */
export const DEEP_ARRAY = '['.repeat(10_000) + ']'.repeat(10_000);
export const DEEP_OBJECT = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);

/** Messages a validator writes for developers (zod's defaults, Fastify's own): never shown to a player. */
const DEVELOPER_WORDING =
  /Invalid input|expected \w+, received|is not a valid url component|FST_ERR|querystring\/|body\//;

/**
 * Asserts a refusal: the status, a JSON `{message, code}` body (with optional `details` only), and
 * a message meant for a person; `message` pins the exact text when given.
 */
export function expectRefusal(res: Response, status: number, message?: string): void {
  const label = `${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, label).toBe(status);
  expect(res.headers['content-type'], label).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(
    Object.keys(body).filter((key) => !['message', 'code', 'details', 'current'].includes(key)),
    label,
  ).toEqual([]);
  expect(body.code, label).toEqual(expect.any(String));
  expect(body.message, label).toEqual(expect.any(String));
  expect(String(body.message).length, label).toBeGreaterThan(0);
  // A diagnostic in parentheses after a sentence for the player (the import's) is allowed.
  expect(String(body.message).replace(/\s*\(.*\)\.?$/s, ''), label).not.toMatch(DEVELOPER_WORDING);
  if (message !== undefined) expect(body.message, label).toBe(message);
}

/** Sends a raw JSON text (or any payload with the type given) the way a hostile client can. */
export function sendRaw(
  client: TestClient,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload: string,
  contentType = 'application/json',
) {
  return client.request({ method, url, headers: { 'content-type': contentType }, payload });
}

/** A write every route with a JSON body must refuse the same way, and the status it must answer. */
export const TRANSPORT_JUNK: ReadonlyArray<{ label: string; payload: string; type: string; status: number }> = [
  { label: 'not JSON', payload: '{"oops', type: 'application/json', status: 400 },
  { label: 'text/plain', payload: '{}', type: 'text/plain', status: 415 },
  { label: 'a form', payload: 'a=1', type: 'application/x-www-form-urlencoded', status: 415 },
  { label: 'multipart', payload: '--x\r\n\r\n--x--', type: 'multipart/form-data; boundary=x', status: 415 },
  ...NON_OBJECT_BODIES.map((payload) => ({ label: `JSON ${payload}`, payload, type: 'application/json', status: 400 })),
  { label: 'deeply nested arrays', payload: DEEP_ARRAY, type: 'application/json', status: 400 },
];

/**
 * Everything a player can read of one story (its state, the whole JSON file with versions, memory
 * and notes, its branches) and their library: equal before and after a refused request means
 * nothing was lost or changed.
 */
export async function storySnapshot(client: TestClient, storyId: number): Promise<Record<string, unknown>> {
  const read = async (url: string) => {
    const res = await client.get(url);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const { exportedAt: _exportedAt, ...file } = await read(`/api/story/${storyId}/export?format=json`);
  return {
    state: await read(`/api/story/${storyId}/current-state`),
    file,
    family: await read(`/api/story/${storyId}/branches`),
    library: await read('/api/stories?limit=50'),
  };
}
