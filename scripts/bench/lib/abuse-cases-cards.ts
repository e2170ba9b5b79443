// bench:abuse's cases of a story's cards and words: card files built to cost more than their size
// (a PNG of inflate bombs, a lorebook of tiny entries, the fullest file allowed), a story of hostile
// cards played, and stories of many distinct words branched in a loop and indexed. Each is one
// signed-in player's requests, as the everyday cases of abuse-cases.ts are.
import { prepareHostileCards } from './abuse-cards';
import type { AbuseCase, CaseContext, Hostile } from './abuse-case';
import { fullLorebook, playedStory, pngInflateBomb, randomWordsStory, tinyEntriesLorebook } from './abuse-files';
import { many, ms, said, size, type Answer } from './abuse-harness';
import { importOrThrow, importStory, messageIds } from './abuse-player';
import { sleep } from './load';

/** Imports `body`, waits for the memory bank to index it, and branches it from its last message in a loop. */
async function branchLoop(ctx: CaseContext, body: string): Promise<Hostile> {
  const storyId = await importOrThrow(ctx.player, body);
  // The memory bank indexes the import in the background (about 5 s here): its passages are what a branch copies.
  await sleep(ctx.quick ? 10_000 : 20_000);
  const last = (await messageIds(ctx.player, storyId)).at(-1)!.messageId;
  return async () => {
    const branches: Answer[] = [];
    for (let i = 0; i < (ctx.quick ? 10 : 40); i += 1)
      branches.push(
        await ctx.player.http.call(`/api/story/${storyId}/branch`, {
          cookie: ctx.player.cookie,
          json: { messageId: last },
        }),
      );
    return `branches ${many(branches)}; first ${ms(branches[0].ms)}, last ${ms(branches.at(-1)!.ms)}`;
  };
}

export const CARD_AND_WORD_CASES: AbuseCase[] = [
  {
    name: 'cards-png-inflate-bomb',
    what: 'imports as story cards a PNG of ~300 zTXt chunks (other keywords) that each unpack to 16 MiB, then a real chara card (under 5 MB)',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, playedStory(1, 60, 600));
      const file = pngInflateBomb();
      return async () => {
        const answer = await ctx.player.http.call(`/api/story/${storyId}/cards/import`, {
          cookie: ctx.player.cookie,
          json: file.body,
          contentType: 'image/png',
        });
        return `${file.chunks} chunks, ${size(file.body.length)} (${(file.unpackedBytes / 1024 ** 3).toFixed(1)} GB unpacked): import ${said(answer)}${answer.status >= 300 ? `: ${answer.text.slice(0, 120)}` : ''}`;
      };
    },
  },
  {
    name: 'cards-lorebook-170k',
    what: 'imports as story cards a SillyTavern World Info file of one usable entry and ~170,000 tiny ones without content (5 MB)',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, playedStory(1, 60, 600));
      const file = tinyEntriesLorebook();
      return async () => {
        const answer = await ctx.player.http.call(`/api/story/${storyId}/cards/import`, {
          cookie: ctx.player.cookie,
          json: file.body,
        });
        return `${file.entries} entries, ${size(Buffer.byteLength(file.body))}: import ${said(answer, true)}${answer.status >= 300 ? `: ${answer.text.slice(0, 160)}` : ''}`;
      };
    },
  },
  {
    name: 'cards-lorebook-full',
    what: 'imports as story cards the most a file may still ask: 2,000 entries, 1,000 of them usable cards of ~5 KB each (5 MB)',
    async prepare(ctx) {
      const storyId = await importOrThrow(ctx.player, playedStory(1, 60, 600));
      const file = fullLorebook();
      return async () => {
        const answer = await ctx.player.http.call(`/api/story/${storyId}/cards/import`, {
          cookie: ctx.player.cookie,
          json: file.body,
        });
        return `${file.entries} entries (${file.cards} usable), ${size(Buffer.byteLength(file.body))}: import ${said(answer, true)}${answer.status >= 300 ? `: ${answer.text.slice(0, 160)}` : ''}`;
      };
    },
  },
  {
    name: 'hostile-cards',
    what: 'a story with 500 always-on recursive cards of 8,000 dots and 500 sticky keyed cards (one cards file), then 10 actions (--quick: 3) naming keyed cards',
    prepare: (ctx) => prepareHostileCards(ctx.player, ctx.quick, ctx.note),
  },
  {
    name: 'branch-loop-random-words',
    what: 'an imported 800-message story whose replies are 300 random words each (120,000 different words), branched from its last message 40 times in a row (--quick: 10)',
    prepare: (ctx) => branchLoop(ctx, randomWordsStory(399)),
  },
  {
    name: 'branch-loop-prose',
    what: 'branch-loop-random-words on a story of ordinary prose: 800 messages, replies of ~2,000 characters of prose (the few words of abuse-files.ts)',
    prepare: (ctx) => branchLoop(ctx, playedStory(399, 40, 2000)),
  },
  {
    name: 'import-random-words',
    what: 'imports an 800-message story whose replies are 300 random words each (120,000 different words, 1.1 MB), then watches the memory bank index it for 10 s (--quick: 6 s)',
    async prepare(ctx) {
      const body = randomWordsStory(399);
      return async () => {
        const imported = await importStory(ctx.player, body);
        await sleep(ctx.quick ? 6_000 : 10_000);
        return `import ${said(imported.answer)}`;
      };
    },
  },
];
