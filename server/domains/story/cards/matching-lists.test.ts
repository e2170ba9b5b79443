// A list of cards matched at once (matchAll, what a turn uses) answers as each card matched alone
// does, with each text's answers for the list kept from one turn to the next; and the texts that
// name a card (namedIn, recursion's look at the sent cards) as matchText on each would. Cards and
// texts are generated from a seed, over plain, phrase, substring and regular-expression keys.
import { describe, expect, it } from 'vitest';
import { createCardScanner, type MatchableCard } from './matching';

const WORDS = ['Ash', 'ash', 'lantern', 'Lantern', 'old tower', 'bell', 'Bells', 'Kestrel', 'gull', 'tide', 'rope'];
const KEYS = [
  ...WORDS,
  'old tower',
  'bell tower',
  '/\\bbells?\\b/',
  '/kest(rel)?s?/i',
  '/^the tide/m',
  '/gull$/',
  'ropeway',
  'ash',
];
const LOGIC = ['andAny', 'andAll', 'notAny', 'notAll'] as const;

function generator(seed: number) {
  let state = seed;
  const next = (n: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
  const pick = <T>(list: readonly T[]) => list[next(list.length)];
  const text = () =>
    Array.from({ length: 1 + next(12) }, () => pick([...WORDS, 'the', 'The tide', 'and', '.', '\n', 'ropeways']))
      .join(pick([' ', ' ', '', ', ']))
      .trim();
  const cards = (count: number): MatchableCard[] =>
    Array.from({ length: count }, (_, id) => ({
      id,
      keys: Array.from({ length: 1 + next(3) }, () => pick(KEYS)),
      secondaryKeys: next(3) === 0 ? [pick(KEYS)] : [],
      secondaryLogic: pick(LOGIC),
      caseSensitive: next(4) === 0,
      wholeWords: next(5) !== 0,
      scanDepth: next(6),
    }));
  return { text, cards };
}

describe('matchAll', () => {
  it('answers as match does for each card, turn after turn with the same list', () => {
    const { text, cards: makeCards } = generator(11);
    const cards = makeCards(300);
    let window = Array.from({ length: 8 }, text);
    let hits = 0;
    for (let turn = 0; turn < 6; turn++) {
      const scanner = createCardScanner(window);
      const all = scanner.matchAll(cards);
      expect(all).toEqual(cards.map((card) => scanner.match(card)));
      hits += all.filter((hit) => hit !== null).length;
      // The next turn: a new action and reply before the same older messages, as a story goes on.
      window = [text(), text(), ...window.slice(0, 6)];
    }
    expect(hits).toBeGreaterThan(200);
  });
});

describe('namedIn', () => {
  it('finds the first text matchText finds the card in, or none', () => {
    const { text, cards: makeCards } = generator(5);
    const cards = makeCards(300);
    const scanner = createCardScanner(['An action.']);
    let named = 0;
    for (let round = 0; round < 5; round++) {
      const sources = Array.from({ length: 1 + round * 3 }, text);
      const naming = scanner.namedIn(cards, sources);
      for (const [at, card] of cards.entries()) {
        const expected = sources.findIndex((source) => scanner.matchText(card, source) !== null);
        expect(naming[at], `card ${card.id}`).toBe(expected);
        if (expected !== -1) named += 1;
      }
      // Asked again, by another turn's scanner: the same answers.
      expect(createCardScanner(['Another action.']).namedIn(cards, [...sources])).toEqual(naming);
    }
    expect(named).toBeGreaterThan(100);
  });
});
