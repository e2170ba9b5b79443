// Cache-friendly folds, read from what the OpenAI-compatible fake was sent in a small
// window (4,096 tokens): across folds the memory block of each turn's prompt only grows by
// appending a chunk (each turn's memory text starts with the one before it) until a compaction
// merges the oldest chunks; it stays within its budget; an erase and an undo reaching into folded
// turns bring back the chunks of the fold before them; the memory panel answers the chunks, and a
// save leaves them alone unless its summary was edited, which makes it one chunk.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { computeBudget } from '@server/ai/llm/context';
import { CHUNK_SEPARATOR, splitChunks } from '@server/ai/llm/memory-chunks';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import {
  contentText,
  startFakeLlmServer,
  type FakeLlmServer,
  type RecordedRequest,
} from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestClient, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

let ctx: TestContext;
let fake: FakeLlmServer;
const writer = proseWriter(126);
let folds = 0;
let compactions = 0;
const MEMORY_HEADER = 'Story memory (what happened earlier, summarised):\n';
const CHUNK = /^(Chunk|Merged) \d+: /;
const system = (request: RecordedRequest) => contentText(request.body.messages[0]?.content);
const isSummary = (request: RecordedRequest) => system(request).startsWith('You maintain the memory');
const isCompaction = (request: RecordedRequest) => isSummary(request) && system(request).includes('Merge the parts');

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-chunks' });
  fake.fallback = (request) => {
    if (isCompaction(request)) {
      compactions += 1;
      return { kind: 'ok', text: `Merged ${compactions}: you crossed the marsh and kept your word.` };
    }
    if (isSummary(request)) {
      folds += 1;
      return {
        kind: 'ok',
        text: `Chunk ${folds}: you walked on through the river towns, spoke with the ferrymen, paid for a bed at the inn and slept badly.\n\nFACTS:\n[]`,
      };
    }
    return { kind: 'ok', text: writer.reply(16) };
  };
  ctx = await createTestApp({
    llm: {
      ...fakeLlmConfig(fake, 'sk-chunks', {
        LLM_CONTEXT_TOKENS: '4096',
        LLM_MAX_OUTPUT_TOKENS: '500',
      }),
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

/** The memory block of a turn's prompt: the chunks after its header, joined by blank lines ('' without one). */
function memoryOf(request: RecordedRequest): string {
  const head = contentText(request.body.messages[1]?.content);
  const at = head.indexOf(MEMORY_HEADER);
  if (at < 0) return '';
  const paragraphs = head.slice(at + MEMORY_HEADER.length).split('\n\n');
  const end = paragraphs.findIndex((p) => !CHUNK.test(p));
  return paragraphs.slice(0, end < 0 ? paragraphs.length : end).join('\n\n');
}

async function play(client: TestClient, storyId: number): Promise<RecordedRequest> {
  const action = writer.action();
  const res = await client.post(`/api/story/${storyId}/continue`, { message: action });
  expect(res.statusCode, res.body).toBe(200);
  await ctx.app.turns.idle();
  return fake.requests.findLast((r) => !isSummary(r) && contentText(r.body.messages.at(-1)?.content).endsWith(action))!;
}

async function storedFolds(storyId: number): Promise<Array<{ throughId: number; chunks: string[] }>> {
  const { rows } = await ctx.database.executeSql(
    'select through_id, memory from story_memory_folds where story_id = $1 order by through_id',
    [storyId],
  );
  return (rows as Array<{ through_id: number; memory: string }>).map((r) => ({
    throughId: r.through_id,
    chunks: splitChunks(r.memory),
  }));
}

let client: TestClient;
let storyId: number;

it('grows the memory block only by appending chunks, until a compaction merges the oldest ones', async () => {
  ({ client } = await registerUser(ctx.app));
  storyId = (await client.post('/api/story/start', { prompt: 'A courier carries letters through the marsh' })).json()
    .storyId as number;
  const sent: RecordedRequest[] = [];
  // Play on until a compaction and then two more folds (a bound keeps a regression from running forever).
  let foldsAtCompaction = Number.POSITIVE_INFINITY;
  for (let turn = 1; turn <= 200 && folds < foldsAtCompaction + 2; turn += 1) {
    sent.push(await play(client, storyId));
    if (compactions > 0 && foldsAtCompaction === Number.POSITIVE_INFINITY) foldsAtCompaction = folds;
  }
  expect(compactions).toBeGreaterThanOrEqual(1);

  const count = await loadTokenCounter();
  const budget = computeBudget(4096, 500);
  let appended = 0;
  let compacted = 0;
  const memories = sent.map(memoryOf);
  for (const [i, memory] of memories.entries()) {
    expect(count(memory)).toBeLessThanOrEqual(budget.memory);
    const before = i > 0 ? memories[i - 1] : '';
    if (memory === before) continue;
    if (before === '' || memory.startsWith(`${before}\n\n`)) {
      // A fold: the memory before it, unchanged, then one new chunk.
      expect(memory.slice(before.length).replace(/^\n\n/, '')).toMatch(/^Chunk \d+: [^\n]*$/);
      appended += 1;
      continue;
    }
    // A compaction: the oldest chunks merged into one, the newer ones as they were, then the new chunk.
    const chunks = memory.split('\n\n');
    const previous = before.split('\n\n');
    expect(chunks[0]).toMatch(/^Merged \d+: /);
    const kept = chunks.slice(1, -1);
    expect(previous.slice(previous.length - kept.length)).toEqual(kept);
    expect(previous.length - kept.length).toBeGreaterThanOrEqual(2);
    expect(chunks.at(-1)).toMatch(/^Chunk \d+: /);
    compacted += 1;
  }
  expect(appended).toBeGreaterThanOrEqual(4);
  expect(compacted).toBe(compactions);
  // A fold's request gives the memory as context and asks for the new turns only.
  const foldRequest = fake.requests.findLast((r) => isSummary(r) && !isCompaction(r))!;
  expect(contentText(foldRequest.body.messages[1].content)).toContain('Write the next part of the memory');

  // The memory panel answers the chunks and their text; the stored memory and the last fold's row agree.
  const panel = (await client.get(`/api/story/${storyId}/memory`)).json();
  expect(panel.chunks.length).toBeGreaterThanOrEqual(2);
  expect(panel.summary).toBe(panel.chunks.join('\n\n'));
  expect((await storedFolds(storyId)).at(-1)!.chunks).toEqual(panel.chunks);
  expect(panel.summary).toBe(memoryOf(await play(client, storyId)));
});

it('brings back the earlier chunks when an erase and an undo reach into folded turns', async () => {
  const folded = await storedFolds(storyId);
  const [older, previous, last] = folded.slice(-3);
  const current = (await client.get(`/api/story/${storyId}/memory`)).json().chunks as string[];
  expect(current).toEqual(last.chunks);

  // Erase from the first action the last fold folded: the memory goes back to the fold before it.
  expect((await client.post(`/api/story/${storyId}/erase`, { fromMessageId: previous.throughId + 1 })).statusCode).toBe(
    200,
  );
  const erased = (await client.get(`/api/story/${storyId}/memory`)).json();
  expect(erased.chunks).toEqual(previous.chunks);
  expect(erased.summary).toBe(previous.chunks.join('\n\n'));

  // The story now ends with the turn that fold ended on: an undo sets it aside, and the fold before goes too.
  expect((await client.post(`/api/story/${storyId}/undo`)).statusCode).toBe(200);
  expect((await client.get(`/api/story/${storyId}/memory`)).json().chunks).toEqual(older.chunks);
  // The next turn's prompt holds those chunks.
  expect(memoryOf(await play(client, storyId))).toBe(older.chunks.join('\n\n'));
});

it('leaves the chunks alone on a save of only notes or of the same summary, and makes an edited summary one chunk', async () => {
  const put = (json: unknown) => client.request({ method: 'PUT', url: `/api/story/${storyId}/memory`, json });
  const before = (await client.get(`/api/story/${storyId}/memory`)).json();
  expect(before.chunks.length).toBeGreaterThanOrEqual(2);
  const stored = async () =>
    (await ctx.database.executeSql('select memory from stories where id = $1', [storyId])).rows[0] as {
      memory: string;
    };
  const storedBefore = await stored();

  const notesOnly = await put({ notes: 'Keep the tone grey and wet.' });
  expect(notesOnly.statusCode).toBe(200);
  expect(notesOnly.json()).toEqual({ ...before, notes: 'Keep the tone grey and wet.' });
  expect(await stored()).toEqual(storedBefore);

  // The panel's form sends all three fields; an unedited summary keeps the chunks (and the prompt's prefix).
  const unedited = await put({ premise: before.premise, summary: before.summary, notes: '' });
  expect(unedited.json().chunks).toEqual(before.chunks);
  expect(await stored()).toEqual(storedBefore);

  const edited = `${before.summary}\n\nYou also promised the ferryman a letter.${CHUNK_SEPARATOR}`;
  const saved = await put({ summary: edited });
  expect(saved.statusCode).toBe(200);
  expect(saved.json().chunks).toEqual([edited.replace(CHUNK_SEPARATOR, '').trim()]);
  expect(saved.json().summary).toBe(saved.json().chunks[0]);
  expect(saved.json().premise).toBe(before.premise);
  expect((await client.get(`/api/story/${storyId}/memory`)).json().chunks).toHaveLength(1);
});
