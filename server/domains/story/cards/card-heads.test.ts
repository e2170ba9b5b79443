// The card heads kept between turns: read once while a story's cards_version is unchanged, read
// again when it changes, and the least recently used stories dropped past the capacity.
import { describe, expect, it } from 'vitest';
import type { CardHead } from '@server/db/repositories/story-cards';
import type { Repositories } from '@server/db/repositories';
import { createCardHeads } from './card-heads';

function fakeRepos(cardsPerStory: Record<number, number>) {
  const reads: number[] = [];
  const head = (id: number) => ({ id, name: `Card ${id}` }) as CardHead;
  const contentReads: number[][] = [];
  const repos = {
    storyCards: {
      contents: async (_storyId: number, ids: number[]) => {
        contentReads.push(ids);
        return new Map(ids.map((id) => [id, `Content of card ${id}.`]));
      },
      heads: async (storyId: number) => {
        reads.push(storyId);
        return Array.from({ length: cardsPerStory[storyId] ?? 0 }, (_, i) => head(storyId * 100 + i));
      },
    },
  } as unknown as Pick<Repositories, 'storyCards'>;
  return { repos, reads, contentReads };
}

describe('card heads kept between turns', () => {
  it('keeps the contents read at a version, and reads them again after a change', async () => {
    const { repos, contentReads } = fakeRepos({ 1: 3 });
    const cards = createCardHeads(repos);
    await cards.of(1, 1);
    expect([...(await cards.contents(1, 1, [100, 101])).values()]).toEqual([
      'Content of card 100.',
      'Content of card 101.',
    ]);
    expect([...(await cards.contents(1, 1, [101, 102])).keys()]).toEqual([101, 102]);
    expect(contentReads).toEqual([[100, 101], [102]]);
    await cards.of(1, 2);
    await cards.contents(1, 2, [100]);
    expect(contentReads.at(-1)).toEqual([100]);
    // Read at an old version (a change came meanwhile): answered, not kept.
    await cards.contents(1, 1, [101]);
    await cards.contents(1, 2, [101]);
    expect(contentReads.slice(-2)).toEqual([[101], [101]]);
  });

  it('reads a story once per cards_version', async () => {
    const { repos, reads } = fakeRepos({ 1: 3 });
    const heads = createCardHeads(repos);
    expect((await heads.of(1, 5)).map((h) => h.id)).toEqual([100, 101, 102]);
    await heads.of(1, 5);
    expect(reads).toEqual([1]);
    await heads.of(1, 6);
    await heads.of(1, 6);
    expect(reads).toEqual([1, 1]);
    expect(heads.stats()).toEqual({ stories: 1, heads: 3, chars: 0, recordIds: 0 });
  });

  it('drops the least recently used stories past its capacity, and keeps none larger than it', async () => {
    const { repos, reads } = fakeRepos({ 1: 4, 2: 4, 3: 4, 4: 20 });
    const heads = createCardHeads(repos, { heads: 10, chars: 1000 });
    await heads.of(1, 0);
    await heads.of(2, 0);
    await heads.of(1, 0); // story 1 is now the most recent
    await heads.of(3, 0); // 12 heads: story 2 goes
    expect(heads.stats()).toEqual({ stories: 2, heads: 8, chars: 0, recordIds: 0 });
    await heads.of(1, 0);
    await heads.of(2, 0);
    expect(reads).toEqual([1, 2, 3, 2]);
    expect((await heads.of(4, 0)).length).toBe(20);
    await heads.of(4, 0);
    expect(reads.filter((id) => id === 4)).toHaveLength(2);
  });
});
