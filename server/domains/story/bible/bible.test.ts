// The story bible's pure parts: supersession (one line of history per entity and attribute, the
// newest turn current), a fold's facts tied to their messages, a turn's facts in the memory budget
// (pinned always, then those the turn calls up), and 'Suggest cards'.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { recallQuery } from '../memory/recall';
import { factsFromFold } from './from-fold';
import type { StoredFact } from '@server/db/repositories/story-bible';
import { factKey, lineThrough, withHistory } from './history';
import { recallFacts } from './recall-facts';
import { entityGroups, suggestCards } from './suggest-cards';

let count: (text: string) => number;
beforeAll(async () => {
  count = await loadTokenCounter();
});

const fact = (
  id: number,
  turn: number,
  entity: string,
  attribute: string,
  value: string,
  pinned = false,
): StoredFact => ({
  id,
  messageId: 100 + id,
  turn,
  entity,
  attribute,
  value,
  pinned,
});

describe('supersession', () => {
  const facts = [
    fact(3, 40, 'Your horse', 'Name', 'Thistle'),
    fact(1, 2, 'your horse', 'name', 'Bramble'),
    fact(2, 6, 'the horse', 'colour', 'grey'),
    fact(4, 41, 'horse', 'name', 'Cinder'),
    fact(5, 8, 'your sister', 'name', 'Maren'),
  ];

  it('groups facts whatever their article or case, the newest turn current, each superseding the one before', () => {
    expect(factKey('  The  Horse! ')).toBe('horse');
    const entries = withHistory(facts);
    expect(entries.map((e) => [e.id, e.supersedes, e.current])).toEqual([
      [1, null, false],
      [2, null, true],
      [5, null, true],
      [3, 1, false],
      [4, 3, true],
    ]);
  });

  it('makes the older value current again when the newer one is gone (an undone turn)', () => {
    const entries = withHistory(facts.filter((f) => f.id !== 4));
    expect(entries.find((e) => e.id === 3)).toMatchObject({ supersedes: 1, current: true });
  });

  it('deletes a fact with its history, and only that', () => {
    const entries = withHistory(facts);
    expect(lineThrough(entries, 4)).toEqual([4, 3, 1]);
    expect(lineThrough(entries, 3)).toEqual([3, 1]);
    expect(lineThrough(entries, 5)).toEqual([5]);
  });
});

describe('factsFromFold', () => {
  const sources = [
    { id: 10, turn: 3, content: 'I name my horse Bramble.' },
    { id: 11, turn: 3, content: 'The stable boy nods at Bramble.' },
    { id: 12, turn: 4, content: 'I walk on.' },
    { id: 13, turn: 4, content: 'Rain falls on the road.' },
  ];

  it('ties a fact to the message of its turn that holds its value, else to the last holding it, else the last', () => {
    const added = factsFromFold(
      [
        { entity: 'your horse', attribute: 'name', value: 'Bramble', turn: 3 },
        { entity: 'the road', attribute: 'weather', value: 'rain', turn: 99 },
        { entity: 'you', attribute: 'mood', value: 'tired', turn: null },
        { entity: 'your horse', attribute: 'colour', value: 'bay', turn: 4 },
      ],
      sources,
      [],
    );
    expect(added.map((f) => [f.messageId, f.turn])).toEqual([
      [11, 3],
      [13, 4],
      [13, 4],
      [13, 4],
    ]);
  });

  it('does not add a fact that repeats a current value, and carries a pin to a new value', () => {
    const current = withHistory([
      fact(1, 2, 'your horse', 'name', 'Bramble', true),
      fact(2, 2, 'your dog', 'name', 'Pip'),
    ]);
    const added = factsFromFold(
      [
        { entity: 'Your Horse', attribute: 'name', value: 'bramble', turn: 3 },
        { entity: 'your horse', attribute: 'name', value: 'Thistle', turn: 4 },
        { entity: 'your horse', attribute: 'name', value: 'Thistle', turn: 4 },
        { entity: 'your dog', attribute: 'name', value: 'Juniper', turn: 4 },
      ],
      sources,
      current,
    );
    expect(added.map((f) => [f.entity, f.value, f.pinned])).toEqual([
      ['your horse', 'Thistle', true],
      ['your dog', 'Juniper', false],
    ]);
  });
});

describe('recallFacts', () => {
  const entries = withHistory([
    fact(1, 2, 'your horse', 'name', 'Bramble'),
    fact(2, 30, 'your horse', 'name', 'Thistle'),
    fact(3, 4, 'your sister', 'name', 'Maren'),
    fact(4, 6, 'your key', 'inscription', '4471', true),
    fact(5, 8, 'your dog', 'name', 'Pepperkin'),
    fact(6, 9, 'your ship', 'name', 'Saltwren'),
  ]);
  const query = (action: string) => recallQuery({ action, cardNames: [] });

  it('sends the pinned facts, then the current facts the action calls up, with the value each replaced', () => {
    const recall = recallFacts(entries, query('I whistle for my horse.'), 700, count, 1);
    expect(recall.texts).toEqual([
      'Story bible: your key, inscription: 4471 (since turn 6)',
      'Story bible: your horse, name: Thistle (since turn 30; formerly Bramble)',
    ]);
    expect(recall.blocks.map((b) => [b.kind, b.title, b.reason, b.messageId])).toEqual([
      ['fact', 'your key: inscription', 'pinned fact', 104],
      ['fact', 'your horse: name', "matched 'horse', rank 1 of 1", 102],
    ]);
    expect(recall.tokens).toBe(recall.blocks.reduce((sum, b) => sum + b.tokens + 1, 0));
  });

  it('calls up the facts of the turns nearest in meaning, a replaced one by its current value, fused with the words', () => {
    // "mount" is no word of any fact; the turn that named the horse Bramble (message 101) is the
    // nearest passage, and the dog's turn (105) the second; the ship matches by its word.
    const near = [
      { passageId: 11, messageId: 101, similarity: 0.71 },
      { passageId: 15, messageId: 105, similarity: 0.52 },
      { passageId: 99, messageId: 999, similarity: 0.5 },
    ];
    const recall = recallFacts(entries, query('I ride my mount to the ship.'), 700, count, 1, near);
    expect(recall.blocks.map((b) => [b.title, b.reason])).toEqual([
      ['your key: inscription', 'pinned fact'],
      ['your dog: name', 'its turn is near in meaning (similarity 0.52), rank 2 of 3'],
      ['your ship: name', "matched 'ship', rank 1 of 1"],
      ['your horse: name', 'its turn is near in meaning (similarity 0.71), rank 1 of 3'],
    ]);
    expect(recall.texts).toContain('Story bible: your horse, name: Thistle (since turn 30; formerly Bramble)');
    expect(recall.texts.join('\n')).not.toContain('name: Bramble');
    // No neighbours: the words alone, as before.
    expect(
      recallFacts(entries, query('I ride my mount to the ship.'), 700, count, 1).blocks.map((b) => b.title),
    ).toEqual(['your key: inscription', 'your ship: name']);
  });

  it('sends only the pinned facts when the action calls up none, and nothing without a budget', () => {
    expect(recallFacts(entries, query('I sleep.'), 700, count, 1).texts).toEqual([
      'Story bible: your key, inscription: 4471 (since turn 6)',
    ]);
    expect(recallFacts(entries, query('I whistle for my horse.'), 0, count, 1)).toEqual({
      texts: [],
      blocks: [],
      tokens: 0,
    });
  });

  it('leaves out what the budget cannot hold, saying so', () => {
    const pinnedTokens = count('Story bible: your key, inscription: 4471 (since turn 6)') + 1;
    const recall = recallFacts(entries, query('I whistle for my horse and my dog.'), pinnedTokens + 5, count, 1);
    expect(recall.texts).toHaveLength(1);
    expect(recall.blocks.filter((b) => b.included === 'dropped').map((b) => b.reason)).toEqual([
      expect.stringMatching(/^matched '(horse|dog)', rank 1 of 2; no room in the memory budget$/),
      expect.stringMatching(/^matched '(horse|dog)', rank 2 of 2; no room in the memory budget$/),
    ]);
  });
});

describe('suggestCards', () => {
  const entries = withHistory([
    fact(1, 2, 'your horse', 'name', 'Bramble'),
    fact(2, 30, 'your horse', 'name', 'Thistle'),
    fact(3, 31, 'your horse', 'colour', 'grey'),
    fact(4, 4, 'your sister', 'name', 'Maren'),
    fact(5, 6, 'your key', 'inscription', '4471'),
    fact(6, 1, 'you', 'name', 'Ash'),
    fact(7, 9, 'your dog', 'name', 'Pepperkin'),
    fact(8, 12, 'your dog', 'age', 'old'),
  ]);

  it('proposes a card for each entity with facts from several turns, or a name the story keeps mentioning', () => {
    const groups = entityGroups(entries);
    const mentions = (g: { key: string }) => (g.key === 'sister' ? 3 : 0);
    const cards = suggestCards(groups, mentions, [{ name: 'Pepperkin', keys: [] }]);
    // The most recurring first: the sister's 1 turn and 3 mentions, before the horse's 3 turns.
    expect(cards.map((c) => [c.name, c.keys])).toEqual([
      ['Maren', ['Maren', 'sister']],
      ['Thistle', ['Thistle', 'horse', 'Bramble']],
    ]);
    expect(cards[1]).toMatchObject({
      content: 'Your horse.\nName: Thistle (formerly Bramble).\nColour: grey.',
      alwaysOn: false,
      enabled: true,
      wholeWords: true,
    });
  });

  it('proposes nothing for an entity a card already names by a key', () => {
    const cards = suggestCards(entityGroups(entries), () => 0, [{ name: 'Steed', keys: ['horse'] }]);
    expect(cards.map((c) => c.name)).toEqual(['Pepperkin']);
  });
});
