// Bad input to a story's tools and the operator's endpoints: story cards (list, add, edit, delete,
// export), the card import in every content type it takes, a reply's context record, the story
// bible, the story's settings, the memory panel (the author's note included), and /metrics, /readyz
// and /api/docs. Each gets malformed, oversized and wrong-type input, another player's story and
// U+0000. None may answer 5xx: every refusal is a 4xx with the API's `{message, code}`, and the
// story (its messages, cards, bible, settings and memory) reads the same afterwards.
import type { LightMyRequestResponse as Response } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ABSENT_IDS,
  BEYOND_INT4,
  DEEP_ARRAY,
  DEEP_OBJECT,
  expectRefusal,
  MALFORMED_IDS,
  NON_OBJECT_BODIES,
  sendRaw,
  STORY_NOT_FOUND,
  storySnapshot,
} from '@server/test/bad-input';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, type RegisteredUser, type TestContext } from '@server/test/test-app';
import { CARD_IMPORT_MAX_BYTES } from '@shared/schemas/story-cards';

const NUL = 'before\u0000after';
const NUL_MESSAGE = 'Text cannot contain the NUL character (U+0000). Remove it and try again.';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let ctx: TestContext;
let owner: RegisteredUser;
let stranger: RegisteredUser;
let storyId: number;
let replyId: number;
let actionId: number;
let cardId: number;
let factId: number;
let foreignStoryId: number;
let foreignCardId: number;
let foreignFactId: number;
let foreignReplyId: number;

/** A fact of the story's bible, as a memory fold writes one. */
async function addFact(story: number, message: number): Promise<number> {
  const { rows } = await ctx.database.executeSql(
    `insert into story_facts (story_id, message_id, turn, entity, attribute, value, pinned, created_at)
     values ($1, $2, 1, 'the lamp', 'colour', 'green', false, now()) returning id`,
    [story, message],
  );
  return (rows[0] as { id: number }).id;
}

async function addCard(client: RegisteredUser['client'], story: number): Promise<number> {
  const res = await client.post(`/api/story/${story}/cards`, {
    name: 'Lamp',
    keys: ['lamp'],
    content: 'It burns green.',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().card.id;
}

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await registerUser(ctx.app);
  stranger = await registerUser(ctx.app);
  ({ storyId } = await startStory(owner.client, 'A lighthouse keeper finds a green lamp'));
  replyId = (await play(owner.client, storyId, 'I light the lamp')).messageId;
  const state = (await owner.client.get(`/api/story/${storyId}/current-state`)).json();
  actionId = state.messages.find(
    (m: { role: string; isInitialMessage?: boolean }) => m.role === 'user' && !m.isInitialMessage,
  )?.messageId;
  cardId = await addCard(owner.client, storyId);
  factId = await addFact(storyId, replyId);
  ({ storyId: foreignStoryId } = await startStory(stranger.client, 'Someone else entirely'));
  foreignReplyId = (await play(stranger.client, foreignStoryId, 'I wait')).messageId;
  foreignCardId = await addCard(stranger.client, foreignStoryId);
  foreignFactId = await addFact(foreignStoryId, foreignReplyId);
});
afterAll(() => ctx.close());

/** Everything of the owner's story these endpoints could change, to compare before and after. */
async function everything() {
  const read = async (url: string) => (await owner.client.get(url)).json() as unknown;
  return {
    story: await storySnapshot(owner.client, storyId),
    cards: await read(`/api/story/${storyId}/cards`),
    bible: await read(`/api/story/${storyId}/bible`),
    settings: await read(`/api/story/${storyId}/settings`),
    memory: await read(`/api/story/${storyId}/memory`),
    context: await read(`/api/story/${storyId}/messages/${replyId}/context`),
    strangersCards: (await stranger.client.get(`/api/story/${foreignStoryId}/cards`)).json() as unknown,
  };
}

interface Probe {
  label: string;
  send: () => Promise<Response>;
  /** The status it must answer (a 4xx); absent: any 4xx. */
  status?: number;
  message?: string;
}

/** Sends each probe; answers those that were not the 4xx refusal expected, with what came back. */
async function unexpected(probes: Probe[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const probe of probes) {
    const res = await probe.send();
    const ok =
      res.statusCode >= 400 &&
      res.statusCode < 500 &&
      (probe.status === undefined || res.statusCode === probe.status) &&
      (probe.message === undefined || res.json().message === probe.message);
    if (!ok) wrong.push(`${probe.label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    else {
      try {
        expectRefusal(res, res.statusCode, probe.message);
      } catch {
        wrong.push(`${probe.label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
  }
  return wrong;
}

const json = (label: string, method: 'POST' | 'PUT' | 'PATCH', url: () => string, body: unknown, status?: number) => ({
  label: `${method} ${label} ${JSON.stringify(body).slice(0, 60)}`,
  send: () => owner.client.request({ method, url: url(), json: body }),
  status,
});
const raw = (label: string, method: 'POST' | 'PUT' | 'PATCH', url: () => string, payload: string, type: string) => ({
  label: `${method} ${label} ${type} ${payload.slice(0, 40)}`,
  send: () => sendRaw(owner.client, method, url(), payload, type),
});
/** Bodies that are not the object a JSON write takes, in every form (a deep object is an object: see the memory panel). */
const JUNK = ['{"oops', ...NON_OBJECT_BODIES, DEEP_ARRAY];

describe('story cards', () => {
  const cards = () => `/api/story/${storyId}/cards`;
  const card = () => `/api/story/${storyId}/cards/${cardId}`;
  const valid = { name: 'Tower', keys: ['tower'], content: 'Tall and white.' };

  it('refuses malformed, oversized, wrong-type and NUL cards, for a new card and an edit, changing nothing', async () => {
    const before = await everything();
    const bodies: unknown[] = [
      {},
      { ...valid, name: 123 },
      { ...valid, name: '' },
      { ...valid, name: 'x'.repeat(10_000) },
      { ...valid, keys: 'tower' },
      { ...valid, keys: [7] },
      { ...valid, keys: Array.from({ length: 1000 }, (_, i) => `k${i}`) },
      { ...valid, keys: ['x'.repeat(10_000)] },
      { ...valid, keys: ['/(/'] },
      { ...valid, keys: ['/a/q'] },
      { ...valid, content: 42 },
      { ...valid, content: 'x'.repeat(200_000) },
      { ...valid, priority: 'high' },
      { ...valid, priority: BEYOND_INT4 },
      { ...valid, scanDepth: -1 },
      { ...valid, sticky: 1e9 },
      { ...valid, secondaryLogic: 'xor' },
      { ...valid, alwaysOn: 'yes' },
      { ...valid, keys: [], alwaysOn: false },
      { ...valid, name: NUL },
      { ...valid, content: NUL },
      { ...valid, keys: [NUL] },
      { ...valid, secondaryKeys: [NUL] },
      { ...valid, [NUL]: 1 },
    ];
    const probes: Probe[] = [
      ...bodies.map((body) => json('card', 'POST', cards, body)),
      ...bodies.slice(1).map((body) => json('card', 'PATCH', card, body)),
      ...JUNK.map((payload) => raw('card', 'POST', cards, payload, 'application/json')),
      ...JUNK.map((payload) => raw('card', 'PATCH', card, payload, 'application/json')),
      raw('card', 'POST', cards, DEEP_OBJECT, 'application/json'),
      raw('card', 'POST', cards, JSON.stringify(valid), 'text/plain'),
      json('card', 'PATCH', card, { name: NUL }, 400),
    ];
    expect(await unexpected(probes)).toEqual([]);
    expect(await everything()).toEqual(before);
  });

  it('answers malformed and absent card ids, and another player\u2019s story or card, without touching them', async () => {
    const before = await everything();
    const probes: Probe[] = [];
    for (const id of MALFORMED_IDS) {
      probes.push({ label: `PATCH card ${id}`, send: () => owner.client.patch(`${cardsOf(storyId)}/${id}`, valid) });
      probes.push({ label: `DELETE card ${id}`, send: () => owner.client.delete(`${cardsOf(storyId)}/${id}`) });
      probes.push({ label: `GET cards of story ${id}`, send: () => owner.client.get(`/api/story/${id}/cards`) });
    }
    for (const id of ABSENT_IDS) {
      probes.push({
        label: `PATCH absent card ${id}`,
        send: () => owner.client.patch(`${cardsOf(storyId)}/${id}`, valid),
        status: 404,
      });
      probes.push({ label: `DELETE absent card ${id}`, send: () => owner.client.delete(`${cardsOf(storyId)}/${id}`) });
    }
    const foreign = [
      () => owner.client.get(cardsOf(foreignStoryId)),
      () => owner.client.post(cardsOf(foreignStoryId), valid),
      () => owner.client.patch(`${cardsOf(foreignStoryId)}/${foreignCardId}`, { name: 'Mine now' }),
      () => owner.client.delete(`${cardsOf(foreignStoryId)}/${foreignCardId}`),
      () => owner.client.get(`${cardsOf(foreignStoryId)}/export?format=taleweaver`),
      () => owner.client.get(`/api/story/${foreignStoryId}/messages/${foreignReplyId}/context`),
    ];
    foreign.forEach((send, i) =>
      probes.push({ label: `another player's ${i}`, send, status: 404, message: STORY_NOT_FOUND }),
    );
    // The owner's own story with the other player's card id: not theirs here either.
    probes.push({
      label: 'a card of another story',
      send: () => owner.client.patch(`${cardsOf(storyId)}/${foreignCardId}`, { name: 'Mine now' }),
      status: 404,
    });
    for (const format of ['xml', '', 'taleweaver&format=sillytavern', `${NUL}`])
      probes.push({
        label: `export ${format}`,
        send: () => owner.client.get(`${cardsOf(storyId)}/export?format=${encodeURIComponent(format)}`),
        status: 400,
      });
    expect(await unexpected(probes)).toEqual([]);
    expect(await everything()).toEqual(before);
  });
});

const cardsOf = (story: number) => `/api/story/${story}/cards`;

describe('the card import, in every content type it takes', () => {
  const importUrl = (story = storyId) => `${cardsOf(story)}/import`;
  const send =
    (payload: Buffer | string, type: string, story = storyId) =>
    () =>
      owner.client.request({ method: 'POST', url: importUrl(story), headers: { 'content-type': type }, payload });
  const lorebook = (content: string) =>
    JSON.stringify({ entries: { 0: { uid: 0, key: ['lamp'], content, comment: 'Lamp' } } });

  it('refuses empty, broken, foreign, oversized and NUL files in each type, and another player\u2019s story', async () => {
    const before = await everything();
    const probes: Probe[] = [];
    for (const type of ['application/json', 'image/png', 'application/octet-stream']) {
      const files: Array<[string, Buffer | string]> = [
        ['empty', ''],
        ['not JSON', '{"entries": '],
        ['JSON null', 'null'],
        ['a list', '[1, 2, 3]'],
        ['deep arrays', DEEP_ARRAY],
        ['deep objects', DEEP_OBJECT],
        ['no known format', '{"hello": "world"}'],
        ['entries of the wrong type', '{"entries": "lamp"}'],
        ['a NUL in an entry', lorebook(NUL)],
        ['a NUL in a key', JSON.stringify({ entries: { 0: { uid: 0, key: [NUL], content: 'Green.' } } })],
        ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02])],
        ['a PNG signature alone', PNG_SIGNATURE],
        ['a PNG cut short', Buffer.concat([PNG_SIGNATURE, Buffer.from([0, 0, 0, 13, 0x49, 0x48, 0x44])])],
      ];
      for (const [label, payload] of files)
        probes.push({ label: `import ${label} as ${type}`, send: send(payload, type) });
      probes.push({
        label: `import oversized as ${type}`,
        send: send(Buffer.alloc(CARD_IMPORT_MAX_BYTES + 1, 0x20), type),
        status: 413,
      });
      probes.push({
        label: `import into another player's story as ${type}`,
        send: send(lorebook('Green.'), type, foreignStoryId),
        status: 404,
        message: STORY_NOT_FOUND,
      });
    }
    probes.push({ label: 'import as text/plain', send: send(lorebook('Green.'), 'text/plain'), status: 415 });
    probes.push({ label: 'import with no type', send: send(lorebook('Green.'), ''), status: 415 });
    for (const id of MALFORMED_IDS)
      probes.push({
        label: `import into story ${id}`,
        send: () =>
          owner.client.request({
            method: 'POST',
            url: `/api/story/${id}/cards/import`,
            headers: { 'content-type': 'application/json' },
            payload: lorebook('Green.'),
          }),
      });
    expect(await unexpected(probes)).toEqual([]);
    expect(await everything()).toEqual(before);
  });

  it('refuses U+0000 in an imported card with the API\u2019s message', async () => {
    const res = await send(lorebook(NUL), 'application/json')();
    expectRefusal(res, 400);
    expect(res.json().message).toContain('NUL');
    expect((await owner.client.get(cardsOf(storyId))).json().cards).toHaveLength(1);
  });
});

describe("a reply's context record", () => {
  const context = (message: number | string, query = '') =>
    owner.client.get(`/api/story/${storyId}/messages/${message}/context${query}`);

  it('refuses malformed message ids and versions, and answers 404 for what is not a reply of the story', async () => {
    const probes: Probe[] = [
      ...MALFORMED_IDS.map((id) => ({ label: `context of ${id}`, send: () => context(id) })),
      ...ABSENT_IDS.map((id) => ({ label: `context of absent ${id}`, send: () => context(id), status: 404 })),
      ...['0', '-1', 'abc', '1.5', '1e3', '', String(BEYOND_INT4), '9'.repeat(40), '%00', '1&version=2'].map(
        (version) => ({ label: `version ${version}`, send: () => context(replyId, `?version=${version}`) }),
      ),
      { label: 'a version past the last', send: () => context(replyId, '?version=99'), status: 404 },
      { label: 'an action, not a reply', send: () => context(actionId), status: 404 },
      { label: "another player's reply", send: () => context(foreignReplyId), status: 404 },
    ];
    expect(await unexpected(probes)).toEqual([]);
  });
});

describe('the story bible', () => {
  const fact = (id: number | string = factId, story = storyId) => `/api/story/${story}/bible/${id}`;

  it('refuses malformed, oversized, wrong-type and NUL edits, bad ids and another player\u2019s facts, changing nothing', async () => {
    const before = await everything();
    const bodies: unknown[] = [
      {},
      { entity: 5 },
      { entity: '' },
      { entity: 'x'.repeat(10_000) },
      { attribute: ['colour'] },
      { value: 'x'.repeat(100_000) },
      { pinned: 'yes' },
      { colour: 'red' },
      { entity: NUL },
      { value: NUL },
    ];
    const probes: Probe[] = [
      ...bodies.map((body) => json('fact', 'PATCH', () => fact(), body)),
      ...JUNK.map((payload) => raw('fact', 'PATCH', () => fact(), payload, 'application/json')),
      ...MALFORMED_IDS.map((id) => ({ label: `PATCH fact ${id}`, send: () => owner.client.patch(fact(id), {}) })),
      ...MALFORMED_IDS.map((id) => ({ label: `DELETE fact ${id}`, send: () => owner.client.delete(fact(id)) })),
      ...ABSENT_IDS.map((id) => ({
        label: `PATCH absent fact ${id}`,
        send: () => owner.client.patch(fact(id), { value: 'blue' }),
        status: 404,
      })),
      {
        label: 'a fact of another story',
        send: () => owner.client.patch(fact(foreignFactId), { value: 'mine' }),
        status: 404,
      },
      ...[
        () => owner.client.get(`/api/story/${foreignStoryId}/bible`),
        () => owner.client.patch(fact(foreignFactId, foreignStoryId), { value: 'mine' }),
        () => owner.client.delete(fact(foreignFactId, foreignStoryId)),
        () => owner.client.post(`/api/story/${foreignStoryId}/bible/suggest-cards`, {}),
      ].map((send, i) => ({ label: `another player's bible ${i}`, send, status: 404, message: STORY_NOT_FOUND })),
      ...MALFORMED_IDS.map((id) => ({
        label: `suggest cards for ${id}`,
        send: () => owner.client.post(`/api/story/${id}/bible/suggest-cards`, {}),
      })),
    ];
    expect(await unexpected(probes)).toEqual([]);
    expect(await everything()).toEqual(before);
  });
});

describe("the story's settings and the memory panel", () => {
  const settings = (story = storyId) => `/api/story/${story}/settings`;
  const memory = (story = storyId) => `/api/story/${story}/memory`;

  it('refuses malformed, oversized, wrong-type and NUL settings and memory, and another player\u2019s story', async () => {
    const before = await everything();
    const settingsBodies: unknown[] = [
      {},
      { replyLength: 'huge' },
      { replyLength: 3 },
      { replyLength: NUL },
      { temperature: 3 },
      { temperature: -0.1 },
      { temperature: 'hot' },
      { temperature: null },
      { temperature: BEYOND_INT4 },
      { creativity: 1 },
    ];
    const memoryBodies: unknown[] = [
      { premise: '' },
      { premise: 123 },
      { premise: 'x'.repeat(200_000) },
      { summary: 'x'.repeat(2_000_000) },
      { summary: ['one', 'two'] },
      { notes: 'x'.repeat(200_000) },
      { notes: { text: 'an author\u2019s note' } },
      { notes: NUL },
      { premise: NUL },
    ];
    const probes: Probe[] = [
      ...settingsBodies.map((body) => json('settings', 'PATCH', () => settings(), body)),
      ...memoryBodies.map((body) => json('memory', 'PUT', () => memory(), body)),
      ...JUNK.map((payload) => raw('settings', 'PATCH', () => settings(), payload, 'application/json')),
      ...JUNK.map((payload) => raw('memory', 'PUT', () => memory(), payload, 'application/json')),
      json('memory', 'PUT', () => memory(), { notes: NUL }, 400),
      ...MALFORMED_IDS.flatMap((id) => [
        { label: `settings of ${id}`, send: () => owner.client.get(`/api/story/${id}/settings`) },
        { label: `memory of ${id}`, send: () => owner.client.get(`/api/story/${id}/memory`) },
      ]),
      ...[
        () => owner.client.get(settings(foreignStoryId)),
        () => owner.client.patch(settings(foreignStoryId), { replyLength: 'short' }),
        () => owner.client.get(memory(foreignStoryId)),
        () => owner.client.request({ method: 'PUT', url: memory(foreignStoryId), json: { notes: 'Mine now.' } }),
      ].map((send, i) => ({ label: `another player's ${i}`, send, status: 404, message: STORY_NOT_FOUND })),
    ];
    expect(await unexpected(probes)).toEqual([]);
    // A deep object names no field of either: refused by the settings, a save of nothing for the memory.
    expectRefusal(await sendRaw(owner.client, 'PATCH', settings(), DEEP_OBJECT), 400);
    expect((await sendRaw(owner.client, 'PUT', memory(), DEEP_OBJECT)).statusCode).toBe(200);
    const nul = await owner.client.request({ method: 'PUT', url: memory(), json: { notes: NUL } });
    expectRefusal(nul, 400, NUL_MESSAGE);
    expect(await everything()).toEqual(before);
  });
});

describe("the operator's endpoints", () => {
  const inject = (method: 'GET' | 'POST' | 'HEAD', url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method, url, headers, remoteAddress: '10.0.0.9' });

  it('answer junk paths, queries, methods and headers without a 5xx', async () => {
    const requests: Array<[string, () => Promise<Response>]> = [
      ['metrics from afar', () => inject('GET', '/metrics')],
      ['metrics with a huge bearer', () => inject('GET', '/metrics', { authorization: `Bearer ${'x'.repeat(8000)}` })],
      ['metrics with NUL', () => inject('GET', '/metrics?x=%00')],
      ['metrics posted', () => inject('POST', '/metrics')],
      ['readyz with NUL', () => inject('GET', '/readyz?x=%00')],
      ['readyz posted', () => inject('POST', '/readyz')],
      ['readyz with junk', () => inject('GET', `/readyz?${'a=1&'.repeat(500)}`)],
      ['docs climbing out', () => inject('GET', '/api/docs/../../etc/passwd')],
      ['docs climbing out, encoded', () => inject('GET', '/api/docs/static/..%2F..%2F..%2Fpackage.json')],
      ['docs with NUL', () => inject('GET', '/api/docs/static/%00')],
      ['docs broken encoding', () => inject('GET', '/api/docs/%E0%A4%A')],
      ['docs posted', () => inject('POST', '/api/docs')],
      ['openapi with NUL', () => inject('GET', '/api/openapi.json?x=%00')],
      ['openapi posted', () => inject('POST', '/api/openapi.json')],
    ];
    const wrong: string[] = [];
    for (const [label, send] of requests) {
      const res = await send();
      if (res.statusCode >= 500) wrong.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      expect(res.body, label).not.toContain('taleweaver_');
      expect(res.body, label).not.toContain('"dependencies"');
    }
    expect(wrong).toEqual([]);
    // Nothing was let through from afar, and a visitor asking for the page still reads it.
    expect((await inject('GET', '/metrics')).statusCode).toBe(404);
    expect((await inject('GET', '/readyz')).statusCode).toBe(200);
  });
});
