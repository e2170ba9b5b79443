// What a turn cost, through the story API against a fake OpenAI-compatible provider that
// reports cached input as OpenAI does: `usage` on `done` and on the JSON answer, priced at the
// configured LLM_PRICE_* rates, kept per message version (reloads, versions, edits), the loop
// guard's second call included, consistent with the ledger, and the same function's figures on the
// account page and the admin's users table. Later work (a picture) is listed with its reply.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { settlePicture } from '@server/test/fake-painter';
import { repeatingNarrator } from '@server/test/repeating-narrator';
import { parseSse } from '@server/test/sse';
import { proseWriter } from '@server/test/varied-prose';
import {
  createPaintingTestApp,
  createTestApp,
  registerUser,
  type TestContext,
  fakeLlmConfig,
} from '@server/test/test-app';
import type { ReplyUsage } from '@shared/schemas/story';
import type { NarratorContext } from '@shared/schemas/story-cards';

const KEY = 'sk-cost-key';
let fake: FakeLlmServer;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const llm = fakeLlmConfig(fake, KEY, {
    LLM_TIMEOUT_MS: '5000',
    // $2.50 a million input, $1.25 cached, $10 output: a provider's real shape, not the spec's flat rate.
    LLM_PRICE_INPUT: '2.5',
    LLM_PRICE_CACHED_INPUT: '1.25',
    LLM_PRICE_OUTPUT: '10',
  });
  ctx = await createTestApp({ llm, adminUsernames: ['cost_admin'] });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  fake.queue.length = 0;
  fake.fallback = { kind: 'ok' };
});

/** Varied replies, so the loop guard leaves them alone (the fake's default text would repeat itself). */
const prose = proseWriter(53);
const answer = (usage: { input: number; output: number; cached: number }) => ({
  kind: 'ok' as const,
  text: prose.reply(),
  usage,
});

const PREMISE = 'A cartographer maps a city whose streets rearrange themselves every night';

/** What the configured prices make of a call's tokens, as the test reckons it. */
const priced = (input: number, cached: number, output: number) =>
  Math.round(((input - cached) * 2.5 + cached * 1.25 + output * 10) * 1e6) / 1e12;

const OPENING = { input: 800, output: 150, cached: 0 };

async function ledger(storyId: number) {
  const { rows } = await ctx.database.executeSql(
    `select kind, message_id as "messageId", input_tokens as input, cached_input_tokens as cached,
       output_tokens as output from usage_events where story_id = $1 order by id`,
    [storyId],
  );
  return rows as Array<{ kind: string; messageId: number | null; input: number; cached: number; output: number }>;
}

/** A new player's story; its opening answered with these tokens, or by the fake's fallback when none are given. */
async function startStory(opening: { input: number; output: number; cached: number } | null = OPENING) {
  const player = await registerUser(ctx.app);
  if (opening) fake.queue.push(answer(opening));
  const opened = await player.client.post('/api/story/start', { prompt: PREMISE });
  expect(opened.statusCode).toBe(200);
  return { ...player, storyId: opened.json().storyId as number, opening: opened.json() };
}

describe('what a turn cost', () => {
  it('rides on `done`, priced with the cached part at its own rate, and stays with the reply', async () => {
    const { client, storyId, opening } = await startStory();
    expect(opening.usage).toEqual({
      inputTokens: 800,
      cachedInputTokens: 0,
      outputTokens: 150,
      costUsd: priced(800, 0, 150),
      calls: 1,
    });
    fake.queue.push(answer({ input: 1000, output: 200, cached: 600 }));
    const res = await client.request({
      method: 'POST',
      url: `/api/story/${storyId}/continue`,
      headers: { accept: 'text/event-stream' },
      json: { message: 'I unfold the map under the lamp.' },
    });
    const done = parseSse(res.body).at(-1)!;
    expect(done.event).toBe('done');
    const reply = done.data as { messageId: number; usage: ReplyUsage };
    // 400 fresh at $2.50, 600 cached at $1.25, 200 written at $10, a million each: $0.00375.
    expect(reply.usage).toEqual({
      inputTokens: 1000,
      cachedInputTokens: 600,
      outputTokens: 200,
      costUsd: 0.00375,
      calls: 1,
    });

    // The ledger has the same call, tied to the reply.
    const rows = await ledger(storyId);
    expect(rows.at(-1)).toEqual({ kind: 'turn', messageId: reply.messageId, input: 1000, cached: 600, output: 200 });

    // A reload shows it, and so does the context record.
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    expect(state.messages.at(-1)).toMatchObject({ messageId: reply.messageId, usage: reply.usage });
    expect(state.messages[0].usage).toBeUndefined();
    expect(state.messages[1].usage).toEqual(opening.usage);
    const record = (
      await client.get(`/api/story/${storyId}/messages/${reply.messageId}/context`)
    ).json() as NarratorContext;
    expect(record.usage).toEqual(reply.usage);
  });

  it('keeps each version its own cost: Try again, choosing a version back, and an edit that cost nothing', async () => {
    const { client, storyId, opening } = await startStory();
    fake.queue.push(answer({ input: 900, output: 120, cached: 300 }));
    const again = (await client.post(`/api/story/${storyId}/retry`, {})).json();
    expect(again).toMatchObject({ messageId: opening.messageId, version: 2, versions: 2 });
    expect(again.usage).toEqual({
      inputTokens: 900,
      cachedInputTokens: 300,
      outputTokens: 120,
      costUsd: priced(900, 300, 120),
      calls: 1,
    });
    const shown = async () => (await client.get(`/api/story/${storyId}/current-state`)).json().messages.at(-1);
    expect((await shown()).usage).toEqual(again.usage);

    const select = await client.post(`/api/story/${storyId}/messages/${opening.messageId}/select`, { version: 1 });
    expect(select.statusCode).toBe(200);
    expect(select.json().usage).toEqual(opening.usage);
    expect((await shown()).usage).toEqual(opening.usage);

    const edit = await client.patch(`/api/story/${storyId}/messages/${opening.messageId}`, {
      content: 'The streets hold still tonight, for once.',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().usage).toBeUndefined();
    expect((await shown()).usage).toBeUndefined();
    await client.post(`/api/story/${storyId}/messages/${opening.messageId}/select`, { version: 2 });
    expect((await shown()).usage).toEqual(again.usage);
  });

  it('counts the loop guard’s second call in the reply’s cost, as the ledger has both', async () => {
    const narrator = repeatingNarrator({ seed: 41 });
    fake.fallback = narrator.fallback;
    const { client, storyId } = await startStory(null);
    const reply = (await client.post(`/api/story/${storyId}/continue`, { message: 'I fold the map away.' })).json();
    expect(reply.loopGuard).toBe('replaced');
    const rows = (await ledger(storyId)).slice(-2);
    expect(rows.map((r) => r.kind)).toEqual(['turn', 'retry-loop']);
    const input = rows[0].input + rows[1].input;
    const output = rows[0].output + rows[1].output;
    expect(reply.usage).toEqual({
      inputTokens: input,
      cachedInputTokens: 0,
      outputTokens: output,
      costUsd: priced(input, 0, output),
      calls: 2,
    });
  });

  it('adds up to the account page’s month and the admin’s row, from the same prices', async () => {
    const { client, storyId, opening, id } = await startStory();
    fake.queue.push(answer({ input: 2000, output: 300, cached: 1500 }));
    const second = (await client.post(`/api/story/${storyId}/continue`, { message: 'I trace the river.' })).json();
    const spent = Math.round((opening.usage.costUsd + second.usage.costUsd) * 1e6) / 1e6;
    const me = (await client.get('/api/user')).json();
    expect(me.tokenUsage.monthCostUsd).toBe(spent);

    const admin = await registerUser(ctx.app, { username: 'cost_admin' });
    const users = (await admin.client.get('/api/admin/users?pageSize=200')).json();
    const row = users.users.find((u: { id: number }) => u.id === id);
    expect(row.costs.thisMonth).toBe(spent);
    expect(row.costs.text).toBe(spent);
    expect(row.tokenUsage.monthCostUsd).toBe(spent);
  });
});

describe('work a reply set off', () => {
  it('lists its picture, priced, in the context record once painted', async () => {
    const painting = await createPaintingTestApp();
    try {
      const { client } = await registerUser(painting.app);
      await client.post('/api/preferences', { imageGeneration: true });
      const started = (await client.post('/api/story/start', { prompt: PREMISE })).json();
      expect(started.imageMessageId).toBe(started.messageId);
      const contextOf = async () =>
        (
          await client.get(`/api/story/${started.storyId}/messages/${started.messageId}/context`)
        ).json() as NarratorContext;
      await settlePicture(client, started.messageId);
      const record = await contextOf();
      const picture = record.laterWork?.find((w) => w.kind === 'image');
      expect(picture).toBeDefined();
      expect(picture!.imageTokens).toBeGreaterThan(0);
      // The spec's image rate: $20 a million.
      expect(picture!.costUsd).toBe(Math.round(picture!.imageTokens * 20) / 1e6);
      expect(Number.isNaN(Date.parse(picture!.createdAt))).toBe(false);

      // Another player's reply is not theirs to read.
      const stranger = await registerUser(painting.app);
      const peek = await stranger.client.get(`/api/story/${started.storyId}/messages/${started.messageId}/context`);
      expect(peek.statusCode).toBe(404);
    } finally {
      await painting.close();
    }
  });
});
