// A turn's card choice on a real database: recursion scans only the recursive cards that were sent,
// at most RECURSION_SOURCES_MAX of them, each prepared once; the cards it finds fit into the room
// the first ones left; and the history is read once a turn, however many cards ask. The work is
// counted (texts normalised, history rows read), never timed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOINER } from '@server/ai/llm/context';
import { cardBlock } from '@server/ai/llm/prompts';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import type { Database } from '@server/db/client';
import { createRepositories, type Repositories } from '@server/db/repositories';
import { openTestDatabase } from '@server/test/test-app';
import { storyCardFieldsSchema, type StoryCardInput } from '@shared/schemas/story-cards';
import { createCardHeads } from './card-heads';
import type { WindowMessage } from './card-history';
import { chooseTurnCards, RECURSION_SOURCES_MAX, type TurnCards } from './turn-cards';

let database: Database;
let repos: Repositories;
let count: (text: string) => number;
let userId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  repos = createRepositories(database.db);
  count = await loadTokenCounter();
  userId = (
    await repos.users.insert({
      username: 'turn-cards',
      email: 'turn-cards@example.com',
      passwordHash: 'x',
      isAdmin: false,
    })
  ).id;
});
afterAll(() => database.close());
afterEach(() => vi.restoreAllMocks());

const NOW = new Date('2026-12-01T12:00:00Z');

async function storyWith(cards: StoryCardInput[]): Promise<number> {
  const { story } = await repos.stories.create({ userId, premise: 'A lighthouse keeper', now: NOW, leaseUntil: NOW });
  const values = cards.map((card) => {
    const fields = storyCardFieldsSchema.parse(card);
    return { ...fields, tokens: count(fields.content) };
  });
  const added = await repos.storyCards.add({ userId, storyId: story.id }, values, NOW, { maxCards: 1000, quotas: {} });
  if (typeof added === 'string') throw new Error(`the cards were refused: ${added}`);
  await repos.stories.releaseLease(story.id);
  return story.id;
}

/** What a card costs in the budget when sent whole. */
const cost = (name: string, content: string) => count(cardBlock(name, content)) + count(JOINER);

/** One turn's choice for the story, its texts newest first (the action first). */
async function choose(
  storyId: number,
  texts: string[],
  budget: number,
  options: { turn?: number; actionId?: number; repos?: Repositories; window?: WindowMessage[] } = {},
): Promise<TurnCards> {
  const story = (await repos.stories.findOwned(storyId, userId))!;
  const used = options.repos ?? repos;
  return chooseTurnCards(used, createCardHeads(used), {
    storyId,
    cardsVersion: story.cardsVersion,
    actionId: options.actionId ?? 2 ** 31 - 1,
    turn: options.turn ?? 1,
    window: options.window ?? [],
    texts,
    actionLabel: 'your action',
    budgetTokens: () => budget,
    count,
    joinerTokens: count(JOINER),
  });
}

const blocksOf = (cards: TurnCards) => [...cards.blocks.head, ...cards.blocks.tail];
const block = (cards: TurnCards, title: string) => blocksOf(cards).find((b) => b.title === title);

describe('recursion', () => {
  it('scans only the recursive cards that were sent: one left out for room names nothing', async () => {
    const kept = 'The harbour master trusts Tobin.';
    const storyId = await storyWith([
      { name: 'Harbour', alwaysOn: true, recursive: true, priority: 1, content: kept },
      // One long sentence: it cannot be cut, and does not fit.
      { name: 'Quay', alwaysOn: true, recursive: true, content: `Ilsa ${'walks the long quay '.repeat(60)}at dusk.` },
      { name: 'Tobin', keys: ['Tobin'], content: 'Tobin smuggles rum.' },
      { name: 'Ilsa', keys: ['Ilsa'], content: 'Ilsa keeps the harbour books.' },
    ]);
    const cards = await choose(
      storyId,
      ['I wait on the quay.'],
      cost('Harbour', kept) + cost('Tobin', 'Tobin smuggles rum.') + 5,
    );
    expect(block(cards, 'Harbour')?.included).toBe('full');
    expect(block(cards, 'Quay')).toMatchObject({ included: 'dropped', reason: 'no room: priority 2 of 3' });
    expect(block(cards, 'Tobin')).toMatchObject({ included: 'full', reason: "named in card 'Harbour'" });
    expect(block(cards, 'Ilsa')).toBeUndefined();
    expect(cards.keyed).toHaveLength(1);
  });

  it('fits the cards it found into the room the first ones left: one found never displaces one sent', async () => {
    const keeper = 'The keeper owes money to the Widow Marsh.';
    const storm = 'Storms come in from the west.';
    const widow = Array.from({ length: 12 }, (_, i) => `The widow keeps ledger ${i + 1}.`).join(' ');
    const storyId = await storyWith([
      { name: 'Keeper', keys: ['keeper'], recursive: true, content: keeper },
      { name: 'Storm', keys: ['storm'], content: storm },
      { name: 'Widow Marsh', keys: ['Widow Marsh'], priority: 100, content: widow },
    ]);
    const room = cost('Widow Marsh', 'The widow keeps ledger 1. The widow keeps ledger 2.');
    const cards = await choose(
      storyId,
      ['I ask the keeper about the storm.'],
      cost('Keeper', keeper) + cost('Storm', storm) + room,
    );
    expect(cards.blocks.tail.map((b) => [b.title, b.included])).toEqual([
      ['Keeper', 'full'],
      ['Storm', 'full'],
      ['Widow Marsh', 'partial'],
    ]);
    expect(block(cards, 'Widow Marsh')?.reason).toMatch(/^named in card 'Keeper'; trimmed to fit: \d+ of \d+ tokens$/);
    expect(cards.tailTexts[2]).toBe(cardBlock('Widow Marsh', 'The widow keeps ledger 1. The widow keeps ledger 2.'));
  });

  it(`scans at most ${RECURSION_SOURCES_MAX} sent recursive cards, the first in the budget's order`, async () => {
    const name = (i: number) => `Keeper${String.fromCharCode(97 + i)}`;
    const sources = RECURSION_SOURCES_MAX + 5;
    const storyId = await storyWith([
      ...Array.from({ length: sources }, (_, i) => ({
        name: `Lore ${i}`,
        alwaysOn: true,
        recursive: true,
        priority: sources - i,
        content: `The lighthouse remembers ${name(i)}.`,
      })),
      ...Array.from({ length: sources }, (_, i) => ({
        name: name(i),
        keys: [name(i)],
        content: `${name(i)} is here.`,
      })),
    ]);
    const cards = await choose(storyId, ['I climb the stairs.'], 100_000);
    const found = cards.blocks.tail.map((b) => [b.title, b.reason]);
    expect(found).toEqual(
      Array.from({ length: RECURSION_SOURCES_MAX }, (_, i) => [name(i), `named in card 'Lore ${i}'`]),
    );
  });

  it('prepares each text once a turn, however many cards and recursive cards the story holds', async () => {
    const storyId = await storyWith([
      ...Array.from({ length: 250 }, (_, i) => ({
        name: `Fact ${i}`,
        alwaysOn: true,
        recursive: true,
        content: `Fact number ${i} of the lighthouse.`,
      })),
      ...Array.from({ length: 300 }, (_, i) => ({ name: `Stranger ${i}`, keys: [`stranger${i}`], content: 'Nobody.' })),
    ]);
    const older = ['The lamp is lit.', 'I trim the wick.', 'The sea is calm tonight.'];
    await choose(storyId, ['I look out.', ...older], 100_000);
    const normalize = vi.spyOn(String.prototype, 'normalize');
    const cards = await choose(storyId, ['I look out again.', ...older], 100_000);
    expect(cards.blocks.head.filter((b) => b.included === 'full')).toHaveLength(250);
    // The new action, and the sent recursive cards scanned; the older messages and the keys were prepared before.
    expect(normalize.mock.calls.length).toBeLessThanOrEqual(1 + RECURSION_SOURCES_MAX);
  });
});

describe('history', () => {
  it('reads each row of the history once a turn, however many timed cards ask', async () => {
    const cards = Array.from({ length: 300 }, (_, i) => ({
      name: `Gull ${i}`,
      keys: [`gull${i}`],
      sticky: 4,
      content: 'A gull.',
    }));
    const storyId = await storyWith(cards);
    const ids = (await repos.storyCards.heads(storyId)).map((h) => h.id);
    const record = { blocks: [], promptTokens: 0, outputTokens: 0, windowTokens: 0, cardBudgetTokens: 0 };
    for (let turn = 1; turn <= 5; turn += 1) {
      await repos.stories.appendAction(storyId, `I count the gulls (${turn}).`, NOW);
      await repos.stories.saveReply({
        storyId,
        turn,
        content: 'They wheel above.',
        alternativeTo: null,
        usage: null,
        now: NOW,
        context: { keyed: turn === 1 ? ids : [], on: ids, record },
      });
    }
    const action = await repos.stories.appendAction(storyId, 'I count them once more.', NOW);
    let reads = 0;
    let rows = 0;
    const counted = (list: { keyed: number[]; on: number[] }) => ({
      get keyed() {
        reads += 1;
        return list.keyed;
      },
      get on() {
        reads += 1;
        return list.on;
      },
    });
    const { recordLists } = repos.storyCards;
    const counting: Repositories = {
      ...repos,
      storyCards: {
        ...repos.storyCards,
        recordLists: async (...args) => {
          const found = await recordLists(...args);
          rows += found.size;
          return new Map([...found].map(([id, list]) => [id, counted(list)]));
        },
      },
    };
    const chosen = await choose(storyId, ['I count them once more.'], 100_000, {
      turn: 6,
      actionId: action.id,
      repos: counting,
    });
    // Keyed on turn 1, sticky for 4: on until turn 5, off on turn 6.
    expect(chosen.blocks.tail).toEqual([]);
    expect(rows).toBe(5);
    expect(reads).toBeLessThanOrEqual(2 * rows);
    const fifth = await choose(storyId, ['Again.'], 100_000, { turn: 5, actionId: action.id, repos: counting });
    expect(fifth.blocks.tail.map((b) => b.reason)).toEqual(ids.map(() => 'sticky 4 of 4'));
  });
});
