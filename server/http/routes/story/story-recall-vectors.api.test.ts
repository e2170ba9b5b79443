// The memory bank's hybrid recall, with EMBEDDINGS_PROVIDER=openai pointed at the local embeddings
// fake and the narrator at the OpenAI-compatible fake (a 4,096-token window). The fake's vectors
// here know one thing a real model knows and full text cannot: that a mount is a horse (the test's
// vectorizer reads "mount" as "horse"). Read from what both fakes were sent:
//   - the folded turns' passages are embedded off the turn's path, each call in the ledger as kind
//     'embedding' with the tokens the provider reported;
//   - a late probe that says only "mount" recalls the planted horse through its vector, with the
//     reason, where full text finds nothing;
//   - a passage of an erased turn is never recalled through its vector;
//   - a branch copies the vectors (no call embeds them again);
//   - a failing, hanging or garbled provider, or a player past EMBEDDINGS_MAX_PER_HOUR, leaves the
//     turn to full text: it still answers, and no call is made past the limit;
//   - with recall off (LLM_RECALL_TOKENS=0) no call is made at all.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@server/kernel/config';
import {
  hashedFeatureVector,
  startFakeEmbeddingsServer,
  type FakeEmbeddingsServer,
} from '@server/test/fake-embeddings-server';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { recallPlayer } from '@server/test/recall-play';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

let ctx: TestContext;
let fake: FakeLlmServer;
let embeddings: FakeEmbeddingsServer;
const writer = proseWriter(27);
let NARRATOR_ENV: Record<string, string>;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-narrator' });
  fake.fallback = () => ({ kind: 'ok', text: writer.reply(10) });
  embeddings = await startFakeEmbeddingsServer({
    apiKey: 'sk-embed',
    vectorize: (text) => hashedFeatureVector(text.replace(/\bmount\b/gi, 'horse'), 256),
  });
  NARRATOR_ENV = {
    LLM_CONTEXT_TOKENS: '4096',
    LLM_MAX_OUTPUT_TOKENS: '500',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fake.baseUrl,
    LLM_API_KEY: 'sk-narrator',
    LLM_MODEL: 'fake-gpt',
  };
  const env = loadConfig({
    ...NARRATOR_ENV,
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: embeddings.baseUrl,
    EMBEDDINGS_API_KEY: 'sk-embed',
    EMBEDDINGS_MODEL: 'fake-embed-small',
    EMBEDDINGS_QUERY_TIMEOUT_MS: '300',
  });
  ctx = await createTestApp({ llm: env.llm, embeddings: env.embeddings, adminUsernames: ['vectors_admin'] });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
  await embeddings.close();
});

const RECALLED = 'Recalled from earlier in the story';
const { play, messages, newStory, plant, playUntilFolded, storyWithFoldedFact } = recallPlayer(
  () => ({ ctx, fake }),
  writer,
);

const sql = async <Row>(text: string, params: unknown[]) => (await ctx.database.executeSql(text, params)).rows as Row[];
const queriesFor = (action: string) =>
  embeddings.requests.filter((r) => JSON.stringify(r.body.input) === JSON.stringify([action]));

it('embeds the folded passages off the turn, in the ledger, and recalls by meaning what full text cannot find', async () => {
  const { client, storyId, planted } = await storyWithFoldedFact(
    'I name my horse Bramble and tie him to the mill post.',
  );

  // Every live passage with text has its vector, of the model configured, a signed byte a dimension.
  const [vectors] = await sql<{ missing: number; wrong: number; stored: number }>(
    `select count(*) filter (where v.passage_id is null)::int as missing,
       count(*) filter (where v.model <> 'fake-embed-small' or length(v.vector) <> 256)::int as wrong,
       count(v.passage_id)::int as stored
     from memory_passages p left join memory_vectors v on v.passage_id = p.id
     where p.story_id = $1 and p.live and p.length > 0`,
    [storyId],
  );
  expect(vectors).toMatchObject({ missing: 0, wrong: 0 });
  expect(vectors.stored).toBeGreaterThan(0);
  const batches = embeddings.requests.filter((r) => Array.isArray(r.body.input) && r.body.input.length > 1);
  expect(batches.length).toBeGreaterThan(0);
  for (const request of embeddings.requests) {
    expect(request.headers.authorization).toBe('Bearer sk-embed');
    expect(request.body).toMatchObject({ model: 'fake-embed-small', encoding_format: 'base64' });
  }
  const [ledger] = await sql<{ calls: number; input: number; output: number }>(
    `select count(*)::int as calls, coalesce(sum(input_tokens), 0)::int as input, coalesce(sum(output_tokens), 0)::int as output
     from usage_events where story_id = $1 and kind = 'embedding' and provider = 'openai' and model = 'fake-embed-small'`,
    [storyId],
  );
  expect(ledger.calls).toBe(embeddings.requests.length);
  expect(ledger.input).toBeGreaterThan(0);
  expect(ledger.output).toBe(0);
  // The admin's usage history lists the kind beside the others.
  const admin = await registerUser(ctx.app, { username: 'vectors_admin' });
  const history = (await admin.client.get('/api/admin/usage/history')).json();
  expect(history.daily.at(-1).embedding).toBe(ledger.input);
  expect(history.byModel).toContainEqual(
    expect.objectContaining({ provider: 'openai', model: 'fake-embed-small', calls: ledger.calls, output: 0 }),
  );

  // "mount" is no word of the planted passage: only its vector can bring it.
  const probe = 'I whistle for my mount.';
  const { prompt, record } = await play(client, storyId, probe);
  expect(queriesFor(probe)).toHaveLength(1);
  expect(prompt).toContain(`${RECALLED} (turn 1, the player): I name my horse Bramble and tie him to the mill post.`);
  const passage = record.blocks.find((b) => b.kind === 'passage' && b.messageId === planted);
  expect(passage).toMatchObject({ included: 'full', title: 'Turn 1: your action' });
  expect(passage!.reason).toMatch(/^near in meaning \(similarity 0\.\d\d\), rank 1 of \d+$/);
});

it('never recalls a passage of an erased turn through its vector, and a branch copies the vectors', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  const kept = await plant(client, storyId, 'I feed my horse Thistle an apple.');
  const erased = await plant(client, storyId, 'I sell my horse Marigold to a tinker.');
  await playUntilFolded(client, storyId, erased);
  const [before] = await sql<{ n: number }>(
    `select count(*)::int as n from memory_vectors v join memory_passages p on p.id = v.passage_id where p.message_id = $1`,
    [erased],
  );
  expect(before.n).toBeGreaterThan(0);
  expect((await client.post(`/api/story/${storyId}/erase`, { fromMessageId: erased })).statusCode).toBe(200);
  await playUntilFolded(client, storyId, kept);

  const { prompt, record } = await play(client, storyId, 'I search the stable for my mount.');
  expect(prompt).toContain('I feed my horse Thistle an apple.');
  expect(prompt).not.toContain('Marigold');
  expect(record.blocks.map((b) => b.messageId)).not.toContain(erased);

  const liveVectors = async (id: number) =>
    (
      await sql<{ passages: number; vectors: number }>(
        `select count(*)::int as passages, count(v.passage_id)::int as vectors
         from memory_passages p left join memory_vectors v on v.passage_id = p.id
         where p.story_id = $1 and p.live and p.length > 0`,
        [id],
      )
    )[0];
  const source = await liveVectors(storyId);
  const calls = embeddings.requests.length;
  const shown = await messages(client, storyId);
  const branch = await client.post(`/api/story/${storyId}/branch`, { messageId: shown.at(-1)!.messageId });
  expect(branch.statusCode, branch.body).toBe(201);
  const branchId = branch.json().storyId as number;
  await ctx.app.turns.idle();
  // Every passage has its vector; the only ones embedded anew are those the source had none for
  // (its newest turns, not folded yet), the rest were copied.
  const copied = await liveVectors(branchId);
  expect(copied.vectors).toBe(copied.passages);
  const embeddedAfter = embeddings.requests.slice(calls).flatMap((r) => r.body.input as string[]);
  expect(embeddedAfter).toHaveLength(copied.passages - source.vectors);
  expect(source.vectors).toBeGreaterThan(embeddedAfter.length);
  const inBranch = await play(client, branchId, 'I brush down my mount.');
  expect(inBranch.prompt).toContain('I feed my horse Thistle an apple.');
});

it('leaves the turn to full text when the provider fails, hangs or answers garbage', async () => {
  const { client, storyId, planted } = await storyWithFoldedFact(
    'I name my horse Bramble and tie him to the mill post.',
  );

  for (const fault of [{ kind: 'status', status: 500 }, { kind: 'hang' }, { kind: 'garbage' }] as const) {
    embeddings.queue.push(fault);
    const probe = `I call my horse (${fault.kind}).`;
    const { prompt, record } = await play(client, storyId, probe);
    expect(queriesFor(probe)).toHaveLength(1);
    expect(prompt).toContain('I name my horse Bramble');
    const passage = record.blocks.find((b) => b.kind === 'passage' && b.messageId === planted);
    expect(passage!.reason).toMatch(/^matched 'horse'/);
    expect(passage!.reason).not.toContain('near in meaning');
  }
  expect(embeddings.queue).toEqual([]);
});

it('makes no embedding call past EMBEDDINGS_MAX_PER_HOUR, and the turns go on by full text', async () => {
  const limited = await startFakeEmbeddingsServer();
  const env = loadConfig({
    ...NARRATOR_ENV,
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: limited.baseUrl,
    EMBEDDINGS_MODEL: 'fake-embed-small',
    EMBEDDINGS_MAX_PER_HOUR: '2',
  });
  const app = await createTestApp({ llm: env.llm, embeddings: env.embeddings });
  try {
    const player = recallPlayer(() => ({ ctx: app, fake }), writer);
    const { client, storyId } = await player.storyWithFoldedFact(
      'I name my horse Bramble and tie him to the mill post.',
    );
    for (const action of ['I water my horse.', 'I lead my horse to the ford.', 'I call my horse.']) {
      const { prompt } = await player.play(client, storyId, action);
      expect(prompt).toContain('I name my horse Bramble');
    }
    // Two calls in the hour (a batch of passages, then a query or another batch), then none.
    expect(limited.requests).toHaveLength(2);
    const rows = await app.database.executeSql(
      `select count(*)::int as n from usage_events where story_id = $1 and kind = 'embedding'`,
      [storyId],
    );
    expect(rows.rows).toEqual([{ n: 2 }]);
  } finally {
    await app.close();
    await limited.close();
  }
});

it('makes no embedding call at all with recall off (LLM_RECALL_TOKENS=0)', async () => {
  const unused = await startFakeEmbeddingsServer();
  const env = loadConfig({
    ...NARRATOR_ENV,
    LLM_RECALL_TOKENS: '0',
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: unused.baseUrl,
    EMBEDDINGS_MODEL: 'fake-embed-small',
  });
  const app = await createTestApp({ llm: env.llm, embeddings: env.embeddings });
  try {
    const player = recallPlayer(() => ({ ctx: app, fake }), writer);
    const { client, storyId } = await player.storyWithFoldedFact(
      'I name my horse Bramble and tie him to the mill post.',
    );
    await player.play(client, storyId, 'I whistle for my horse.');
    expect(unused.requests).toEqual([]);
  } finally {
    await app.close();
    await unused.close();
  }
});
