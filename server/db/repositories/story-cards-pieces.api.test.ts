// Adding many cards at once (an import's thousand) goes in pieces, each its own short transaction:
// other queries run between them, where on the embedded database one transaction had its one
// session to itself for the whole add. The add still lands whole or not at all: a piece refused by
// the quota, or by a limit another write reached in between, takes back the pieces already written.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaCounters } from '@server/test/quota-counters';
import { openTestDatabase } from '@server/test/test-app';
import { storyCardFieldsSchema } from '@shared/schemas/story-cards';
import type { Database } from '../client';
import { createRepositories, type Repositories } from './index';
import { PIECE_BYTES } from './sql-values';
import type { CardValues } from './story-cards';
import { QuotaExceeded } from './quotas';

let database: Database;
let repos: Repositories;
let userId: number;
const NOW = new Date('2026-12-01T12:00:00Z');
beforeAll(async () => {
  database = await openTestDatabase();
  repos = createRepositories(database.db);
  userId = (
    await repos.users.insert({ username: 'pieces', email: 'pieces@example.com', passwordHash: 'x', isAdmin: false })
  ).id;
});
afterAll(() => database.close());

async function newStory(): Promise<number> {
  const { story } = await repos.stories.create({ userId, premise: 'A keeper of lore', now: NOW, leaseUntil: NOW });
  await repos.stories.releaseLease(story.id);
  return story.id;
}

/** `n` cards of about `chars` characters each: together many pieces' worth of text. */
const cards = (n: number, chars: number, prefix = 'k'): CardValues[] =>
  Array.from({ length: n }, (_, i) => ({
    ...storyCardFieldsSchema.parse({ name: `Card ${i}`, keys: [`${prefix}${i}`], content: 'Lore. '.repeat(chars / 6) }),
    tokens: Math.round(chars / 6),
  }));

async function storedCards(storyId: number): Promise<{ n: number }> {
  const { rows } = await database.executeSql('select count(*)::int as n from story_cards where story_id = $1', [
    storyId,
  ]);
  return rows[0] as { n: number };
}

describe('storyCards.add of many cards', () => {
  it('lets other queries run between its pieces, and answers every card in order', async () => {
    const storyId = await newStory();
    const many = cards(400, 5000);
    expect(many.length * 5000).toBeGreaterThan(4 * PIECE_BYTES);
    // A query is sent each time the last one answered, for as long as the add runs.
    let adding = true;
    let answeredDuring = 0;
    const beside = (async () => {
      while (adding) {
        await database.db.execute(sql`select 1`);
        if (adding) answeredDuring += 1;
      }
    })();
    const added = await repos.storyCards.add({ userId, storyId }, many, NOW, { maxCards: 1000, quotas: {} });
    adding = false;
    await beside;
    if (typeof added === 'string') throw new Error(added);
    expect(added.map((row) => row.keys[0])).toEqual(many.map((card) => card.keys[0]));
    // One transaction would have held PGlite's one session for the whole add: no query between.
    expect(answeredDuring).toBeGreaterThan(1);
  });

  it('takes back the pieces written when a later piece passes the quota, counting nothing', async () => {
    const storyId = await newStory();
    const before = await quotaCounters(database, userId);
    const many = cards(300, 5000);
    // Room for the first pieces, not for all of them.
    const maxStoredBytes = (before.counted?.storedBytes ?? 0) + 3 * PIECE_BYTES;
    await expect(
      repos.storyCards.add({ userId, storyId }, many, NOW, { maxCards: 1000, quotas: { maxStoredBytes } }),
    ).rejects.toBeInstanceOf(QuotaExceeded);
    expect(await storedCards(storyId)).toEqual({ n: 0 });
    const after = await quotaCounters(database, userId);
    expect(after).toEqual(before);
    expect(after.counted).toEqual(after.actual);
  });

  it('is refused before anything is written when the whole add passes the story\u2019s cards', async () => {
    const storyId = await newStory();
    const refused = await repos.storyCards.add({ userId, storyId }, cards(300, 5000), NOW, {
      maxCards: 299,
      quotas: {},
    });
    expect(refused).toBe('tooManyCards');
    expect(await storedCards(storyId)).toEqual({ n: 0 });
  });

  it('takes back its pieces when another write reaches the story\u2019s cards between them', async () => {
    const storyId = await newStory();
    const limits = { maxCards: 320, quotas: {} };
    // A second add of 50 comes once the first's first piece has landed: together they pass 320.
    const second = (async () => {
      while ((await storedCards(storyId)).n === 0) await new Promise((resolve) => setImmediate(resolve));
      return repos.storyCards.add({ userId, storyId }, cards(50, 100, 'other'), NOW, limits);
    })();
    const first = await repos.storyCards.add({ userId, storyId }, cards(300, 5000), NOW, limits);
    const outcome = [first, await second].map((added) => (typeof added === 'string' ? added : added.length));
    const { n } = await storedCards(storyId);
    // Whichever lost took back all it wrote: the story holds one whole add, never parts of two.
    if (n === 300) expect(outcome).toEqual([300, 'tooManyCards']);
    else expect([n, outcome]).toEqual([50, ['tooManyCards', 50]]);
  });
});
