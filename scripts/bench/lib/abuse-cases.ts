// bench:abuse's hostile cases: each is one signed-in player's requests. `prepare` does what the
// case needs first (files built, stories imported, branches made), unwatched; the function it
// answers is the hostile work itself, run while the bystander asks for captchas, and answers the
// case's own figures as text. Every answer is reported as it came (a quota's 413 or 429 included):
// a case never asserts. Cases over the model use the fake provider (LLM_PROVIDER=openai); the
// runner adds the fake's request log (calls, the largest request's size and tokens) to every case.
import type { AbuseCase, CaseContext } from './abuse-case';
import { CARD_AND_WORD_CASES } from './abuse-cases-cards';
import { mostRowsFile, mostTextFile, narratorFlood, playedStory, PREMISE } from './abuse-files';
import { many, ms, said, size, statusCounts, type Answer } from './abuse-harness';
import {
  BROWSER_ENCODINGS,
  importOrThrow,
  importStory,
  messageIds,
  paintReply,
  sendAction,
  share,
  sharedPicture,
  startStory,
} from './abuse-player';
import { sleep } from './load';
import { mapLimit } from './players';

/**
 * How long the action of import-8000-narrator may take before the case gives up on it: on c8168cb
 * its context building still held the server when that time was up. Every other request waits up
 * to the client's 120 s.
 */
const deadline = (ctx: CaseContext) => (ctx.quick ? 10_000 : 60_000);
/** A 1,000-turn story as play makes it: ~1,000-character replies, short actions (1.2 MB file). */
const thousandTurns = () => playedStory(1000, 60, 1000);

/** Erases the story from `fromMessageId` and redoes it, `rounds` times, as a browser asks (brotli answers). */
async function eraseAndRedo(ctx: CaseContext, storyId: number, fromMessageId: number, rounds: number): Promise<string> {
  const erases: Answer[] = [];
  const redos: Answer[] = [];
  for (let i = 0; i < rounds; i += 1) {
    erases.push(
      await ctx.player.http.call(`/api/story/${storyId}/erase`, {
        cookie: ctx.player.cookie,
        json: { fromMessageId },
        acceptEncoding: BROWSER_ENCODINGS,
      }),
    );
    redos.push(
      await ctx.player.http.call(`/api/story/${storyId}/redo`, {
        method: 'POST',
        cookie: ctx.player.cookie,
        json: {},
        acceptEncoding: BROWSER_ENCODINGS,
      }),
    );
  }
  return `erase ${many(erases)}; redo ${many(redos)}`;
}

const EVERYDAY_CASES: AbuseCase[] = [
  {
    name: 'import-8000-narrator',
    what: 'imports the premise and 8,000 narrator messages of ~400 characters (3.8 MB file), then sends one action',
    async prepare(ctx) {
      const body = narratorFlood(8000, 400);
      return async () => {
        const imported = await importStory(ctx.player, body);
        if (imported.storyId === null) return `import ${said(imported.answer)}: ${imported.answer.text.slice(0, 120)}`;
        const { answer, ok } = await sendAction(
          ctx.player,
          imported.storyId,
          'I open the sealed crate.',
          deadline(ctx),
        );
        return `import ${said(imported.answer)}; action ${ok ? 'done' : 'NOT done'}, ${said(answer)}`;
      };
    },
  },
  {
    name: 'import-5mb-rows',
    what: 'imports the 5 MB file with the most rows: 10,000 messages, a picture hash on every reply, the rest of 5 MB in versions',
    async prepare(ctx) {
      const file = mostRowsFile();
      return async () =>
        `${file.messages} messages + ${file.versions} versions (${size(file.body.length)}): import ${said((await importStory(ctx.player, file.body)).answer)}`;
    },
  },
  {
    name: 'import-5mb-text',
    what: 'imports the 5 MB file with the most text: messages of 20,000 characters (the most one may hold), longest memory and notes',
    async prepare(ctx) {
      const file = mostTextFile();
      return async () =>
        `${file.messages} messages (${size(file.body.length)}): import ${said((await importStory(ctx.player, file.body)).answer)}`;
    },
  },
  {
    name: 'export-branches',
    what: 'a 400-turn story branched 150 times (--quick: 30) from its last reply (POST branch), then GET /api/user/export (all the stories)',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, playedStory(400, 60, 1000));
      const lastReply = (await messageIds(ctx.player, storyId)).at(-1)!.messageId;
      const started = performance.now();
      const branches = await mapLimit(
        Array.from({ length: ctx.quick ? 30 : 150 }, (_, i) => i),
        2,
        () =>
          ctx.player.http.call(`/api/story/${storyId}/branch`, {
            cookie: ctx.player.cookie,
            json: { messageId: lastReply },
          }),
      );
      ctx.note(`${branches.length} branches: ${statusCounts(branches)} in ${ms(performance.now() - started)}`);
      return async () =>
        `branches ${statusCounts(branches)}; export ${said(await ctx.player.http.call('/api/user/export', { cookie: ctx.player.cookie }), true)}`;
    },
  },
  {
    name: 'export-5mb-json',
    what: 'exports the 5 MB most-rows story back (GET /api/story/{id}/export, JSON then Markdown)',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, mostRowsFile().body);
      return async () => {
        const asJson = await ctx.player.http.call(`/api/story/${storyId}/export?format=json`, {
          cookie: ctx.player.cookie,
        });
        const asMarkdown = await ctx.player.http.call(`/api/story/${storyId}/export?format=markdown`, {
          cookie: ctx.player.cookie,
        });
        return `JSON ${said(asJson, true)}; Markdown ${said(asMarkdown, true)}`;
      };
    },
  },
  {
    name: 'share-big',
    what: 'shares the 5 MB most-text story, then reads GET /api/shared/{id} with Accept-Encoding: br, once cold and 20 times (--quick: 5) warm',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, mostTextFile().body);
      return async () => {
        const shared = await share(ctx.player, storyId);
        if (!shared.shareId) return `share ${said(shared.answer)}: ${shared.answer.text.slice(0, 120)}`;
        const read = () => ctx.player.http.call(`/api/shared/${shared.shareId}`, { acceptEncoding: BROWSER_ENCODINGS });
        const cold = await read();
        const warm: Answer[] = [];
        for (let i = 0; i < (ctx.quick ? 5 : 20); i += 1) warm.push(await read());
        const plain = await ctx.player.http.call(`/api/shared/${shared.shareId}`);
        return `share ${said(shared.answer)}; cold read ${said(cold, true)} (${cold.contentEncoding || 'identity'}; plain ${size(plain.bytes)}); warm ${many(warm)}`;
      };
    },
  },
  {
    name: 'shared-pictures-burst',
    what: 'a story with a painted picture (builtin painter), shared; then 300 reads of the shared picture, 50 at a time',
    async prepare(ctx) {
      const started = await startStory(ctx.player, PREMISE);
      if (started.storyId === null || started.replyId === null)
        throw new Error(`story start answered ${started.answer.status}: ${started.answer.text.slice(-200)}`);
      await paintReply(ctx.player, started.storyId, started.replyId);
      const { shareId, answer } = await share(ctx.player, started.storyId);
      const picture = shareId ? await sharedPicture(ctx.player, shareId) : null;
      if (!picture) throw new Error(`no shared picture: share ${answer.status}`);
      return async () => {
        const reads = await mapLimit(
          Array.from({ length: 300 }, (_, i) => i),
          50,
          () => ctx.player.http.call(picture),
        );
        return `each ${size(reads[0].bytes)}: ${many(reads)}`;
      };
    },
  },
  {
    name: 'summary-200-turns',
    what: 'imports a 200-turn story (~600 KB, memoryCovers 0) and sends one action with LLM_CONTEXT_TOKENS=4096 (the memory fold that follows included)',
    env: { LLM_CONTEXT_TOKENS: '4096' },
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, playedStory(200, 300, 2600));
      return async () => {
        const { answer, ok } = await sendAction(ctx.player, storyId, 'I open the sealed crate.');
        // The fold runs after the reply: the case lasts until the memory is written (or 30 s).
        const waitUntil = performance.now() + 30_000;
        let folded = false;
        while (ok && !folded && performance.now() < waitUntil) {
          const memory = await ctx.player.http.call(`/api/story/${storyId}/memory`, {
            cookie: ctx.player.cookie,
            keepBody: true,
          });
          folded = memory.status === 200 && !memory.text.includes('"summary":""');
          if (!folded) await sleep(100);
        }
        return `action ${ok ? 'done' : 'NOT done'}, ${said(answer)}; memory ${folded ? 'folded' : 'not folded in 30 s'} (the largest prompt is in the model column)`;
      };
    },
  },
  {
    name: 'parallel-starts',
    what: '50 story starts at once under USER_MONTHLY_TOKEN_LIMIT=4000 (fake model: first word after 200 ms, 150 words 5 ms apart)',
    env: { USER_MONTHLY_TOKEN_LIMIT: '4000' },
    timing: { ttftMs: 200, chunkMs: 5 },
    async prepare(ctx) {
      return async () => {
        const starts = await mapLimit(
          Array.from({ length: 50 }, (_, i) => i),
          50,
          () => startStory(ctx.player, PREMISE),
        );
        const passed = starts.filter((s) => s.storyId !== null).length;
        const user = await ctx.player.http.call('/api/user', { cookie: ctx.player.cookie, keepBody: true });
        const usage = (JSON.parse(user.text) as { tokenUsage: { thisMonth: number } }).tokenUsage;
        return `${passed} of 50 started (${statusCounts(starts.map((s) => s.answer))}); tokens this month ${usage.thisMonth} against a limit of 4000`;
      };
    },
  },
  {
    name: 'style-sheet-loop',
    what: '40 rounds of PUT style-sheet with no characters + GET style-sheet, on a story whose opening names two characters',
    async prepare(ctx) {
      const opening =
        'You meet the smuggler Tobin Hale and the harbour master Ilsa Morrow on the quay, where the rain hammers the crates. What do you do?';
      const storyId = await importOrThrow(ctx.player, playedStory(2, 80, 600, {}, opening));
      const first = await ctx.player.http.call(`/api/story/${storyId}/style-sheet`, {
        cookie: ctx.player.cookie,
        keepBody: true,
      });
      if (first.status !== 200) throw new Error(`style-sheet answered ${first.status}: ${first.text}`);
      const { artStyle, player } = JSON.parse(first.text) as { artStyle: string; player: string };
      return async () => {
        const answers: Answer[] = [];
        for (let round = 0; round < 40; round += 1) {
          answers.push(
            await ctx.player.http.call(`/api/story/${storyId}/style-sheet`, {
              method: 'PUT',
              cookie: ctx.player.cookie,
              json: { artStyle, player, characters: [] },
            }),
          );
          answers.push(await ctx.player.http.call(`/api/story/${storyId}/style-sheet`, { cookie: ctx.player.cookie }));
        }
        return `80 calls: ${many(answers)} (the model calls they made are in the model column)`;
      };
    },
  },
  {
    name: 'check-username-burst',
    what: '500 GET /api/check-username, 50 at a time',
    async prepare(ctx) {
      return async () => {
        const answers = await mapLimit(
          Array.from({ length: 500 }, (_, i) => i),
          50,
          (i) => ctx.player.http.call(`/api/check-username?username=visitor${i}`, { cookie: ctx.player.cookie }),
        );
        return many(answers);
      };
    },
  },
  {
    name: 'big-state-brotli',
    what: 'GET current-state of a 1,000-turn story (2,001 messages) as a browser asks (brotli made on the fly), 10 times (--quick: 3)',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, thousandTurns());
      const plain = await ctx.player.http.call(`/api/story/${storyId}/current-state`, { cookie: ctx.player.cookie });
      return async () => {
        const reads: Answer[] = [];
        for (let i = 0; i < (ctx.quick ? 3 : 10); i += 1)
          reads.push(
            await ctx.player.http.call(`/api/story/${storyId}/current-state`, {
              cookie: ctx.player.cookie,
              acceptEncoding: BROWSER_ENCODINGS,
            }),
          );
        return `${reads[0].contentEncoding || 'identity'} ${size(reads[0].bytes)} (plain ${size(plain.bytes)}): ${many(reads)}`;
      };
    },
  },
  {
    name: 'erase-redo-1000',
    what: 'on a 1,000-turn story, erase from the first action (2,000 messages set aside) then redo, 5 times (--quick: 2; brotli answers)',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, thousandTurns());
      const firstAction = (await messageIds(ctx.player, storyId)).find(
        (m) => m.role === 'user' && !m.isInitialMessage,
      )!.messageId;
      return () => eraseAndRedo(ctx, storyId, firstAction, ctx.quick ? 2 : 5);
    },
  },
  {
    name: 'erase-redo-10k',
    what: 'on the 10,000-message most-rows story, erase from the first action (9,998 messages set aside) then redo, twice',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, mostRowsFile().body);
      const firstAction = (await messageIds(ctx.player, storyId)).find(
        (m) => m.role === 'user' && !m.isInitialMessage,
      )!.messageId;
      return () => eraseAndRedo(ctx, storyId, firstAction, 2);
    },
  },
  {
    name: 'branch-10k',
    what: 'branches the 10,000-message most-rows story at its last message (every message, version shown and picture copied), 3 times',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, mostRowsFile().body);
      const last = (await messageIds(ctx.player, storyId)).at(-1)!.messageId;
      return async () => {
        const branches: Answer[] = [];
        for (let i = 0; i < 3; i += 1)
          branches.push(
            await ctx.player.http.call(`/api/story/${storyId}/branch`, {
              cookie: ctx.player.cookie,
              json: { messageId: last },
            }),
          );
        return many(branches);
      };
    },
  },
  {
    name: 'delete-10k',
    what: 'deletes two 10,000-message most-rows stories (55,000 rows and 5,000 pictures each)',
    async prepare(ctx) {
      const { body } = mostRowsFile();
      const storyIds = [await importOrThrow(ctx.player, body), await importOrThrow(ctx.player, body)];
      return async () => {
        const deletes: Answer[] = [];
        for (const storyId of storyIds)
          deletes.push(
            await ctx.player.http.call(`/api/story/${storyId}`, {
              method: 'DELETE',
              cookie: ctx.player.cookie,
              json: {},
            }),
          );
        return many(deletes);
      };
    },
  },
  {
    name: 'versions-edits',
    what: "300 edits (--quick: 60) of 20,000 characters to one reply (PATCH), then GET its versions 5 times (every version's text in one answer)",
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, playedStory(3, 80, 600));
      const reply = (await messageIds(ctx.player, storyId)).at(-1)!.messageId;
      const started = performance.now();
      const edits = await mapLimit(
        Array.from({ length: ctx.quick ? 60 : 300 }, (_, i) => i),
        1,
        (i) =>
          ctx.player.http.call(`/api/story/${storyId}/messages/${reply}`, {
            method: 'PATCH',
            cookie: ctx.player.cookie,
            json: { content: `${i} ${'The tide turns. '.repeat(1250)}`.slice(0, 20_000) },
          }),
      );
      ctx.note(`${edits.length} edits: ${statusCounts(edits)} in ${ms(performance.now() - started)}`);
      return async () => {
        const reads: Answer[] = [];
        for (let i = 0; i < 5; i += 1)
          reads.push(
            await ctx.player.http.call(`/api/story/${storyId}/messages/${reply}/versions`, {
              cookie: ctx.player.cookie,
            }),
          );
        return `edits ${statusCounts(edits)}; versions ${size(reads[0].bytes)}: ${many(reads)}`;
      };
    },
  },
];

/** Every case, in the order they run: the everyday requests first, then a story's cards and words. */
export const CASES: AbuseCase[] = [...EVERYDAY_CASES, ...CARD_AND_WORD_CASES];
