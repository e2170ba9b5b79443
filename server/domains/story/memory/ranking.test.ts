// BM25 over a known corpus with known winners: a rare term outweighs a common one, repeats
// saturate, a long passage counts a term for less, equal scores go to the more recent message, and
// the query's weights and words come through to the ranking and its reasons.
import { describe, expect, it } from 'vitest';
import { inverseFrequency, rankByBm25, type CorpusStats, type PassageHit, type QueryTerm } from './ranking';
import { anchorByRarity, holdingWithHits, recallQuery } from './recall';
import { termCounts, termsOf } from './terms';

const CORPUS = [
  'I name my horse Bramble and brush his grey coat.',
  'The road north climbs through pine woods towards the pass.',
  'A horse whinnies somewhere behind the inn; the road is quiet.',
  'You pay the innkeeper two silver coins for a room.',
  'The horse trader in the market sells a black mare and a tired horse, horse after horse.',
  'Snow falls on the pass and the road disappears under it.',
];

/** The corpus as the repository would answer for `words`: its counts and the passages holding a query term. */
function answer(words: string) {
  const query = recallQuery({ action: words, cardNames: [] });
  const terms = new Set(query.map((q) => q.term));
  const passages = CORPUS.map((text, i) => ({ id: i + 1, messageId: 10 * (i + 1), counts: termCounts(termsOf(text)) }));
  const holding = new Map<string, number>();
  const hits: PassageHit[] = [];
  for (const p of passages) {
    const frequencies = new Map([...p.counts].filter(([term]) => terms.has(term)));
    for (const term of frequencies.keys()) holding.set(term, (holding.get(term) ?? 0) + 1);
    const length = [...p.counts.values()].reduce((a, b) => a + b, 0);
    if (frequencies.size > 0) hits.push({ id: p.id, messageId: p.messageId, length, frequencies });
  }
  const lengths = passages.map((p) => [...p.counts.values()].reduce((a, b) => a + b, 0));
  const stats: CorpusStats = {
    passages: passages.length,
    meanLength: lengths.reduce((a, b) => a + b, 0) / lengths.length,
    holding,
  };
  return { query, hits, stats };
}

describe('rankByBm25', () => {
  it('puts the passage with the rare term first: the horse called Bramble', () => {
    const { query, hits, stats } = answer('I whistle for Bramble, my horse');
    const ranked = rankByBm25(hits, stats, query);
    expect(ranked[0]).toMatchObject({ id: 1, matched: ['bramble', 'horse'] });
    expect(ranked.map((r) => r.id)).toEqual([1, 5, 3]);
  });

  it('saturates repeats and normalises length: three "horse"s in a long passage barely beat one in a short one', () => {
    const { query, hits, stats } = answer('the horse');
    const ranked = rankByBm25(hits, stats, query);
    const byId = new Map(ranked.map((r) => [r.id, r.score]));
    expect(byId.get(5)! / byId.get(3)!).toBeLessThan(1.6);
    expect(byId.get(5)!).toBeGreaterThan(byId.get(3)!);
  });

  it('gives equal scores to the more recent message, then the earlier passage', () => {
    const hit = (id: number, messageId: number): PassageHit => ({
      id,
      messageId,
      length: 5,
      frequencies: new Map([['lantern', 1]]),
    });
    const query: QueryTerm[] = [{ term: 'lantern', weight: 1, word: 'lantern', anchor: true }];
    const stats: CorpusStats = { passages: 10, meanLength: 5, holding: new Map([['lantern', 3]]) };
    expect(rankByBm25([hit(1, 4), hit(3, 9), hit(2, 9)], stats, query).map((r) => r.id)).toEqual([2, 3, 1]);
  });

  it('weighs a term by its query weight, and leaves out what matches nothing the query holds', () => {
    const stats: CorpusStats = {
      passages: 4,
      meanLength: 6,
      holding: new Map([
        ['lantern', 1],
        ['sword', 1],
      ]),
    };
    const hits: PassageHit[] = [
      { id: 1, messageId: 1, length: 6, frequencies: new Map([['lantern', 1]]) },
      { id: 2, messageId: 2, length: 6, frequencies: new Map([['sword', 1]]) },
      { id: 3, messageId: 3, length: 6, frequencies: new Map([['shield', 2]]) },
    ];
    const query: QueryTerm[] = [
      { term: 'lantern', weight: 0.35, word: 'lantern', anchor: true },
      { term: 'sword', weight: 1, word: 'sword', anchor: true },
    ];
    const ranked = rankByBm25(hits, stats, query);
    expect(ranked.map((r) => r.id)).toEqual([2, 1]);
    expect(ranked[0].score / ranked[1].score).toBeCloseTo(1 / 0.35, 5);
  });

  it('ranks only passages that match an anchoring term; the others count only beside one', () => {
    const stats: CorpusStats = {
      passages: 3,
      meanLength: 6,
      holding: new Map([
        ['sword', 1],
        ['rain', 2],
      ]),
    };
    const hits: PassageHit[] = [
      { id: 1, messageId: 1, length: 6, frequencies: new Map([['rain', 3]]) },
      {
        id: 2,
        messageId: 2,
        length: 6,
        frequencies: new Map([
          ['sword', 1],
          ['rain', 1],
        ]),
      },
    ];
    const query: QueryTerm[] = [
      { term: 'sword', weight: 1, word: 'sword', anchor: true },
      { term: 'rain', weight: 0.2, word: 'rain', anchor: false },
    ];
    const ranked = rankByBm25(hits, stats, query);
    expect(ranked).toEqual([{ id: 2, messageId: 2, score: expect.any(Number), matched: ['sword', 'rain'] }]);
  });

  it('never scores a term below zero, however common', () => {
    expect(inverseFrequency(100, 100)).toBeGreaterThan(0);
    expect(inverseFrequency(100, 1)).toBeGreaterThan(inverseFrequency(100, 50));
  });
});

describe('recallQuery', () => {
  it("takes the action's words first at full weight, then the cards' names and the last reply's, each term once", () => {
    const query = recallQuery({
      action: 'I ride my horse to the Saltmere docks',
      cardNames: ['Saltmere', 'Captain Ysolde'],
      lastReply: 'Ysolde waits by the docks with a lantern. The horses are restless.',
    });
    const weight = (word: string) => query.find((q) => q.word === word)?.weight;
    expect(query.slice(0, 4).map((q) => q.word)).toEqual(['ride', 'horse', 'saltmere', 'docks']);
    expect(weight('horse')).toBe(1);
    expect(weight('captain')).toBe(0.8);
    expect(weight('ysolde')).toBe(0.8);
    expect(weight('lantern')).toBe(0.2);
    expect(query.filter((q) => q.anchor).map((q) => q.word)).toEqual([
      'ride',
      'horse',
      'saltmere',
      'docks',
      'captain',
      'ysolde',
    ]);
    // "horses" is the same term as "horse": counted once, at the action's weight.
    expect(query.filter((q) => q.term === query.find((x) => x.word === 'horse')!.term)).toHaveLength(1);
  });

  it("lets the last reply's words anchor when the action has none of its own", () => {
    const query = recallQuery({ action: 'Yes.', cardNames: [], lastReply: 'Will you follow the ferryman?' });
    expect(query.map((q) => [q.word, q.anchor])).toEqual([
      ['follow', true],
      ['ferryman', true],
    ]);
  });

  it('holds at most 48 terms, so a long reply cannot crowd out the action', () => {
    const lastReply = Array.from({ length: 200 }, (_, i) => `word${i}x`).join(' ');
    const query = recallQuery({ action: 'I search the abbey cellar', cardNames: [], lastReply });
    expect(query).toHaveLength(48);
    expect(query.slice(0, 3).map((q) => q.word)).toEqual(['search', 'abbey', 'cellar']);
  });
});

describe('anchorByRarity', () => {
  const query = recallQuery({
    action: 'I look for my horse near the mill',
    cardNames: [],
    lastReply: 'Rain on the roof.',
  });
  const term = (word: string) => query.find((q) => q.word === word)!.term;
  const anchors = (q: ReturnType<typeof anchorByRarity>) => q.filter((x) => x.anchor).map((x) => x.word);

  it('keeps as anchors the terms of the action the story holds, but not in a fifth of its passages', () => {
    const holding = new Map([
      [term('look'), 300],
      [term('horse'), 4],
      [term('mill'), 40],
      [term('rain'), 2],
    ]);
    expect(anchors(anchorByRarity(query, holding, 1000))).toEqual(['horse', 'mill']);
    // In a small story a term needs more than 8 passages to be common.
    expect(anchors(anchorByRarity(query, new Map([[term('look'), 8]]), 20))).toEqual(['look']);
  });

  it('lets no anchor stand when every anchor is common, or when the story holds none', () => {
    const holding = new Map([
      [term('look'), 600],
      [term('mill'), 450],
    ]);
    expect(anchors(anchorByRarity(query, holding, 1000))).toEqual([]);
    expect(anchors(anchorByRarity(query, new Map([[term('rain'), 3]]), 1000))).toEqual([]);
  });
});

describe('a saturated story (more terms than its statistics keep)', () => {
  const query = recallQuery({ action: 'I look for Bramble near the mill', cardNames: [], lastReply: 'Rain falls.' });
  const term = (word: string) => query.find((q) => q.word === word)!.term;
  const holding = new Map([
    [term('look'), 300],
    [term('near'), 400],
    [term('mill'), 4],
  ]);

  it('takes a term of the action its statistics do not keep as rare, and one they keep as counted', () => {
    const anchored = anchorByRarity(query, holding, 1000, true);
    expect(anchored.filter((q) => q.anchor).map((q) => q.word)).toEqual(['bramble', 'mill']);
    // Not saturated, a term without a row is one the story does not hold.
    expect(
      anchorByRarity(query, holding, 1000)
        .filter((q) => q.anchor)
        .map((q) => q.word),
    ).toEqual(['mill']);
  });

  it('counts the passages holding a term it does not keep among the hits', () => {
    const hits: Array<[number, number, number, string[], number[]]> = [
      [1, 10, 40, [term('bramble'), term('mill')], [1, 1]],
      [2, 12, 40, [term('bramble')], [2]],
      [3, 14, 40, [term('mill')], [1]],
    ];
    const estimated = holdingWithHits(holding, query, hits);
    expect(estimated.get(term('bramble'))).toBe(2);
    // Kept terms keep their counts; a term no hit holds stays unknown.
    expect(estimated.get(term('mill'))).toBe(4);
    expect(estimated.has(term('rain'))).toBe(false);
  });
});
