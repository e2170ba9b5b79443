// The loop guard through the story API, against fake providers that fall into a loop
// until asked differently: the stored reply is not a repeat, one extra call and no more, the
// ledger row, the SSE `rewriting` and `replace` events, the mark on the reply and in reads, the
// context record, and the limits and the lease of the second call. On both protocols.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@server/kernel/config';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { askedAgain, lastUserText, repeatingNarrator } from '@server/test/repeating-narrator';
import { parseSse } from '@server/test/sse';
import { proseWriter } from '@server/test/varied-prose';
import { createTestApp, registerUser, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import type { NarratorContext } from '@shared/schemas/story-cards';

const KEY = 'sk-loop-key';
let fake: FakeLlmServer;
let ctx: TestContext;

const narratorEnv = (extra: Record<string, string> = {}) =>
  fakeLlmConfig(fake, KEY, {
    LLM_TIMEOUT_MS: '5000',
    ...extra,
  });

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  ctx = await createTestApp({ llm: narratorEnv(), adminUsernames: ['loop_admin'] });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  fake.queue.length = 0;
  fake.fallback = { kind: 'ok' };
});

const PREMISE = 'A lighthouse keeper on a storm-beaten island finds a stranger on the rocks';

async function sql<T>(context: TestContext, text: string, values: unknown[]): Promise<T[]> {
  return (await context.database.executeSql(text, values)).rows as T[];
}

async function ledger(context: TestContext, storyId: number) {
  return sql<{ kind: string; input: number; output: number }>(
    context,
    `select kind, input_tokens as input, output_tokens as output from usage_events where story_id = $1 order by id`,
    [storyId],
  );
}

/** A new player's story whose opening is the stuck paragraph: the next turn is the first loop. */
async function storyStuckIn(context: TestContext) {
  const player = await registerUser(context.app);
  const opened = await player.client.post('/api/story/start', { prompt: PREMISE });
  expect(opened.statusCode).toBe(200);
  expect(opened.json().loopGuard).toBeUndefined();
  return { ...player, storyId: opened.json().storyId as number };
}

describe('a narrator that repeats itself until asked differently', () => {
  it('is asked once more, and the reply kept is the new one, marked replaced', async () => {
    const narrator = repeatingNarrator();
    fake.fallback = narrator.fallback;
    const { client, storyId } = await storyStuckIn(ctx);
    const before = fake.requests.length;

    const res = await client.post(`/api/story/${storyId}/continue`, { message: 'I help the stranger up the steps.' });
    expect(res.statusCode).toBe(200);
    const reply = res.json();
    // One extra call, and no more.
    const asked = fake.requests.slice(before);
    expect(asked).toHaveLength(2);
    expect(askedAgain(asked[0])).toBe(false);
    expect(askedAgain(asked[1])).toBe(true);
    expect(reply.message).not.toBe(narrator.stuck);
    expect(reply.message).toBe(narrator.replies.at(-1));
    expect(reply.loopGuard).toBe('replaced');

    // The second call: the instruction names what to avoid, the action stays last, the backend's penalty.
    const instruction = lastUserText(asked[1]);
    expect(instruction).toMatch(/^\[Your first answer to this action repeated the story\. /);
    expect(instruction).toContain('It opened like an earlier reply');
    expect(instruction.endsWith('I help the stranger up the steps.')).toBe(true);
    expect(asked[1].body.messages.slice(0, -1)).toEqual(asked[0].body.messages.slice(0, -1));
    expect(asked[1].body.system).toEqual(asked[0].body.system);
    expect(asked[0].body.frequency_penalty).toBeUndefined();
    expect(asked[1].body.frequency_penalty).toBe(0.5);
    expect(asked[1].body.dry_multiplier).toBeUndefined();

    // Stored as replaced, with both calls in the ledger.
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    expect(state.messages.at(-1)).toMatchObject({ role: 'assistant', content: reply.message, loopGuard: 'replaced' });
    expect(state.messages[1].loopGuard).toBeUndefined();
    const rows = await ledger(ctx, storyId);
    expect(rows.map((r) => r.kind)).toEqual(['turn', 'turn', 'retry-loop']);
    expect(rows[2]).toEqual({ kind: 'retry-loop', input: 123, output: 45 });

    // The context record says what the guard found and did.
    const record = (
      await client.get(`/api/story/${storyId}/messages/${reply.messageId}/context`)
    ).json() as NarratorContext;
    expect(record.loopGuard).toMatchObject({ outcome: 'replaced', retried: true });
    expect(record.loopGuard!.reasons.join(' ')).toContain('It opened like an earlier reply');

    // The admin's usage history lists the kind beside the others.
    const admin = await registerUser(ctx.app, { username: 'loop_admin' });
    const history = (await admin.client.get('/api/admin/usage/history')).json();
    expect(history.daily.at(-1)['retry-loop']).toBeGreaterThanOrEqual(123 + 45);
  });

  it('streams the first reply, then `rewriting`, `replace` with the new text, and `done`', async () => {
    const narrator = repeatingNarrator({ seed: 5 });
    fake.fallback = narrator.fallback;
    const { client, storyId } = await storyStuckIn(ctx);
    const res = await client.request({
      method: 'POST',
      url: `/api/story/${storyId}/continue`,
      json: { message: 'I light the lamp.' },
      headers: { accept: 'text/event-stream' },
    });
    const events = parseSse(res.body);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('story');
    const rewriting = names.indexOf('rewriting');
    expect(rewriting).toBeGreaterThan(1);
    expect(names.slice(1, rewriting).every((n) => n === 'delta')).toBe(true);
    expect(names.slice(rewriting)).toEqual(['rewriting', 'replace', 'done']);
    const streamed = events
      .filter((e) => e.event === 'delta')
      .map((e) => (e.data as { text: string }).text)
      .join('');
    expect(streamed.trim()).toBe(narrator.stuck);
    const replaced = (events[rewriting + 1].data as { text: string }).text;
    const done = events.at(-1)!.data as { message: string; loopGuard: string };
    expect(replaced).toBe(done.message);
    expect(done).toMatchObject({ loopGuard: 'replaced' });
    expect(done.message).not.toBe(narrator.stuck);
  });

  it('asks nothing more of a narrator whose replies vary', async () => {
    // Varied prose with the same people and places, turn after turn.
    const writer = proseWriter(9);
    fake.fallback = () => ({ kind: 'ok', text: writer.reply() });
    const player = await registerUser(ctx.app);
    const started = (await player.client.post('/api/story/start', { prompt: PREMISE })).json();
    const before = fake.requests.length;
    const written: string[] = [];
    for (const action of ['I climb the stairs.', 'I call out to the stranger.', 'I check the lamp oil.', 'I rest.']) {
      const res = await player.client.post(`/api/story/${started.storyId}/continue`, { message: action });
      expect(res.json().loopGuard).toBeUndefined();
      written.push(res.json().message);
    }
    expect(fake.requests.length - before).toBe(4);
    expect(new Set(written).size).toBe(4);
  });
});

describe('a narrator that always repeats itself', () => {
  it('gets one extra call, and the reply is kept and marked', async () => {
    const narrator = repeatingNarrator({ always: true, seed: 11 });
    fake.fallback = narrator.fallback;
    const { client, storyId } = await storyStuckIn(ctx);
    for (const action of ['I wait.', 'I wait some more.']) {
      const before = fake.requests.length;
      const res = await client.post(`/api/story/${storyId}/continue`, { message: action });
      expect(res.statusCode).toBe(200);
      expect(fake.requests.length - before).toBe(2);
      expect(res.json()).toMatchObject({ message: narrator.stuck, loopGuard: 'marked' });
    }
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    expect(state.messages.filter((m: { loopGuard?: string }) => m.loopGuard === 'marked')).toHaveLength(2);
    expect((await ledger(ctx, storyId)).map((r) => r.kind)).toEqual([
      'turn',
      'turn',
      'retry-loop',
      'turn',
      'retry-loop',
    ]);
  });

  it('keeps the first reply, marked, when the second call fails', async () => {
    const narrator = repeatingNarrator({ seed: 13 });
    fake.fallback = (request) => (askedAgain(request) ? { kind: 'status', status: 503 } : narrator.fallback(request));
    const { client, storyId } = await storyStuckIn(ctx);
    const res = await client.post(`/api/story/${storyId}/continue`, { message: 'I bar the door.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: narrator.stuck, loopGuard: 'marked' });
    expect((await ledger(ctx, storyId)).map((r) => r.kind)).toEqual(['turn', 'turn']);
    // The lease is given back: the story takes its next turn.
    fake.fallback = { kind: 'ok', text: 'The wind drops at last, and the sea goes quiet under a thin moon.' };
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I sleep.' })).statusCode).toBe(200);
  });

  it('catches a reply cycling inside itself on the Anthropic protocol too', async () => {
    const anthropic = await createTestApp({
      llm: loadConfig({
        LLM_PROVIDER: 'anthropic',
        LLM_BASE_URL: fake.baseUrl,
        LLM_API_KEY: KEY,
        LLM_MODEL: 'fake-claude',
      }).llm,
    });
    try {
      const cycling =
        'The stranger opens his eyes. The sea is loud tonight and the lamp is low. The sea is loud tonight and the lamp is low. The sea is loud tonight and the lamp is low. The sea is loud tonight and the lamp is low.';
      const narrator = repeatingNarrator({ stuck: cycling, seed: 17 });
      fake.fallback = narrator.fallback;
      const player = await registerUser(anthropic.app);
      const before = fake.requests.length;
      const res = await player.client.post('/api/story/start', { prompt: PREMISE });
      expect(res.json().loopGuard).toBe('replaced');
      expect(res.json().message).not.toContain('The sea is loud tonight');
      const asked = fake.requests.slice(before);
      expect(asked.map((r) => r.protocol)).toEqual(['anthropic', 'anthropic']);
      expect(lastUserText(asked[1])).toContain('It repeated "the sea is loud tonight and the lamp is low" 4 times.');
      // Anthropic has no frequency penalty: nothing it would refuse is sent.
      expect(asked[1].body.frequency_penalty).toBeUndefined();
    } finally {
      await anthropic.close();
    }
  });
});

describe("the mark is its version's", () => {
  it("follows the version shown through 'Try again', a choice back, an edit and a branch", async () => {
    const narrator = repeatingNarrator({ always: true, seed: 31 });
    fake.fallback = narrator.fallback;
    const { client, storyId } = await storyStuckIn(ctx);
    const marked = (await client.post(`/api/story/${storyId}/continue`, { message: 'I wait.' })).json();
    expect(marked.loopGuard).toBe('marked');
    const shown = async () =>
      (await client.get(`/api/story/${storyId}/current-state`)).json().messages.at(-1) as {
        content: string;
        loopGuard?: string;
        version?: number;
      };

    // 'Try again' with a narrator that varies: version 2 carries no mark, version 1 keeps its own.
    const writer = proseWriter(37);
    fake.fallback = () => ({ kind: 'ok', text: writer.reply() });
    const again = (await client.post(`/api/story/${storyId}/retry`)).json();
    expect(again).toMatchObject({ messageId: marked.messageId, version: 2, versions: 2 });
    expect(again.loopGuard).toBeUndefined();
    expect((await shown()).loopGuard).toBeUndefined();
    const select = (version: number) =>
      client.post(`/api/story/${storyId}/messages/${marked.messageId}/select`, { version });
    expect((await select(1)).statusCode).toBe(200);
    expect(await shown()).toMatchObject({ version: 1, loopGuard: 'marked', content: narrator.stuck });

    // A branch from the marked reply copies it as shown, mark included.
    const branch = await client.post(`/api/story/${storyId}/branch`, { messageId: marked.messageId });
    expect(branch.statusCode).toBe(201);
    const branched = (await client.get(`/api/story/${branch.json().storyId}/current-state`)).json();
    expect(branched.messages.at(-1)).toMatchObject({ content: narrator.stuck, loopGuard: 'marked' });

    // The player's edit is their words: no mark; choosing version 1 again brings it back.
    const edited = await client.patch(`/api/story/${storyId}/messages/${marked.messageId}`, {
      content: 'The tide turns, and the stranger speaks at last.',
    });
    expect(edited.statusCode).toBe(200);
    expect((await shown()).loopGuard).toBeUndefined();
    expect((await select(1)).statusCode).toBe(200);
    expect((await shown()).loopGuard).toBe('marked');
    expect((await select(2)).statusCode).toBe(200);
    expect((await shown()).loopGuard).toBeUndefined();
  });
});

describe('the second call within the limits and the lease', () => {
  it('is not made when the month is spent: the reply is kept, marked', async () => {
    const limited = await createTestApp({ llm: narratorEnv(), userMonthlyTokenLimit: 50_000 });
    try {
      const narrator = repeatingNarrator({ seed: 19 });
      fake.fallback = narrator.fallback;
      const { client, storyId, id } = await storyStuckIn(limited);
      // Just under the limit: the turn passes, its first answer's tokens use up the rest.
      await limited.database.executeSql(
        `insert into usage_events (user_id, kind, provider, model, input_tokens) values ($1, 'turn', 'seed', 'seed', $2)`,
        [id, 50_000 - 10 - (123 + 45)],
      );
      const before = fake.requests.length;
      const res = await client.post(`/api/story/${storyId}/continue`, { message: 'I count the coins.' });
      expect(res.statusCode).toBe(200);
      expect(fake.requests.length - before).toBe(1);
      expect(res.json()).toMatchObject({ message: narrator.stuck, loopGuard: 'marked' });
      const record = (await client.get(`/api/story/${storyId}/messages/${res.json().messageId}/context`)).json();
      expect(record.loopGuard).toMatchObject({ outcome: 'marked', retried: false });
    } finally {
      await limited.close();
    }
  });

  it("counts against the player's hourly turns: past them it is not made, and the next turn is refused", async () => {
    const limited = await createTestApp({ llm: narratorEnv(), narratorCallsPerHour: { turns: 2, sideCalls: 10 } });
    try {
      const narrator = repeatingNarrator({ seed: 31 });
      fake.fallback = narrator.fallback;
      // The opening is the hour's first turn; the looping reply its second and last.
      const { client, storyId } = await storyStuckIn(limited);
      const before = fake.requests.length;
      const res = await client.post(`/api/story/${storyId}/continue`, { message: 'I ring the bell.' });
      expect(res.statusCode).toBe(200);
      expect(fake.requests.length - before).toBe(1);
      expect(res.json()).toMatchObject({ message: narrator.stuck, loopGuard: 'marked' });
      const refused = await client.post(`/api/story/${storyId}/continue`, { message: 'I ring it again.' });
      expect(refused.statusCode).toBe(429);
      expect(fake.requests.length - before).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it("extends the story's reply lease before the second call", async () => {
    const narrator = repeatingNarrator({ seed: 23 });
    fake.fallback = narrator.fallback;
    const { client, storyId } = await storyStuckIn(ctx);
    const leaseNow = async () =>
      (await sql<{ until: Date }>(ctx, 'select generating_until as until from stories where id = $1', [storyId]))[0]
        .until;
    const leases: Date[] = [];
    let release!: () => void;
    const seen = new Promise<void>((resolve) => (release = resolve));
    fake.fallback = (request) => {
      const behaviour = narrator.fallback(request);
      const hold = leaseNow().then((until) => {
        leases.push(new Date(until));
        ctx.clock.advance(30_000);
        if (leases.length === 2) release();
      });
      return { ...behaviour, hold } as typeof behaviour;
    };
    const res = await client.post(`/api/story/${storyId}/continue`, { message: 'I trim the wick.' });
    await seen;
    expect(res.json().loopGuard).toBe('replaced');
    expect(leases).toHaveLength(2);
    expect(leases[1].getTime() - leases[0].getTime()).toBeGreaterThanOrEqual(30_000);
  });

  it('is off with LOOP_GUARD=off, and DRY is asked for with LOOP_DRY=on', async () => {
    const off = await createTestApp({ llm: narratorEnv({ LOOP_GUARD: 'off' }) });
    const dry = await createTestApp({ llm: narratorEnv({ LOOP_DRY: 'on', LOOP_FREQUENCY_PENALTY: '0' }) });
    try {
      const narrator = repeatingNarrator({ seed: 29 });
      fake.fallback = narrator.fallback;
      const a = await storyStuckIn(off);
      let before = fake.requests.length;
      const kept = await a.client.post(`/api/story/${a.storyId}/continue`, { message: 'I look out to sea.' });
      expect(fake.requests.length - before).toBe(1);
      expect(kept.json().message).toBe(narrator.stuck);
      expect(kept.json().loopGuard).toBeUndefined();

      const b = await storyStuckIn(dry);
      before = fake.requests.length;
      await b.client.post(`/api/story/${b.storyId}/continue`, { message: 'I look out to sea.' });
      const second = fake.requests[before + 1].body;
      expect(second.dry_multiplier).toBe(0.8);
      expect(second.frequency_penalty).toBeUndefined();
    } finally {
      await off.close();
      await dry.close();
    }
  });
});
