// Story-card budget: the order cards are fitted in, whole, cut at a sentence boundary or dropped, and
// the reasons given; and the sentence ends it cuts at, found in one pass however the punctuation runs.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@server/test/varied-prose';
import { fitCards, sentenceEnds, type CardCandidate } from './budget';

/** One token a word, as the tests count. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
/** The card's text as sent: its name on a line, then its content (one token for the name). */
const render = (name: string, content: string) => `${name}:\n${content}`;

let nextId = 1;
const candidate = (fields: Partial<CardCandidate> = {}): CardCandidate => ({
  id: nextId++,
  name: 'Card',
  content: 'One two three.',
  priority: 0,
  alwaysOn: false,
  distance: 0,
  reason: "key 'Card' in your action",
  ...fields,
});

const fit = (candidates: CardCandidate[], budget: number, overhead?: number) =>
  fitCards(candidates, budget, words, render, overhead);
const summary = (fitted: ReturnType<typeof fit>) => fitted.map((f) => `${f.card.name}:${f.included}:${f.tokens}`);

describe('fitCards order', () => {
  it('puts always-on cards first, then higher priority, then nearer distance, then lower id', () => {
    const cards = [
      candidate({ id: 5, name: 'far', distance: 3 }),
      candidate({ id: 4, name: 'near-late', distance: 1 }),
      candidate({ id: 2, name: 'near-early', distance: 1 }),
      candidate({ id: 9, name: 'important', priority: 10, distance: 4 }),
      candidate({ id: 8, name: 'always', alwaysOn: true, distance: -1, priority: -5 }),
      candidate({ id: 7, name: 'unwanted', priority: -1, distance: 0 }),
    ];
    expect(fit(cards, 1000).map((f) => f.card.name)).toEqual([
      'always',
      'important',
      'near-early',
      'near-late',
      'far',
      'unwanted',
    ]);
  });

  it('does not reorder the array it was given', () => {
    const cards = [candidate({ name: 'b', priority: 0 }), candidate({ name: 'a', priority: 1 })];
    fit(cards, 1000);
    expect(cards.map((card) => card.name)).toEqual(['b', 'a']);
  });

  it('returns nothing for no candidates', () => {
    expect(fit([], 100)).toEqual([]);
  });
});

describe('fitCards whole cards', () => {
  it('sends a card that fits whole with its reason unchanged, counting its rendered text and the overhead', () => {
    const card = candidate({ name: 'Bessie', content: 'A cow. She moos.', reason: "key 'Bessie' in your action" });
    expect(fit([card], 10, 2)).toEqual([
      {
        card,
        content: 'A cow. She moos.',
        text: 'Bessie:\nA cow. She moos.',
        tokens: 7,
        included: 'full',
        reason: "key 'Bessie' in your action",
      },
    ]);
  });

  it('fills the budget exactly', () => {
    const cards = [candidate({ name: 'a' }), candidate({ name: 'b' })];
    expect(summary(fit(cards, 8))).toEqual(['a:full:4', 'b:full:4']);
  });
});

describe('fitCards trimming', () => {
  const long = candidate({
    name: 'Town',
    content: 'First sentence here. Second one here! Third: is it? "Fourth, quoted." Fifth ends it',
    reason: 'sticky 2 of 3',
  });

  it('cuts a card that does not fit to its longest run of whole sentences that does', () => {
    // Whole: 1 (name) + 14 words = 15 tokens.
    const [fitted] = fit([long], 10);
    expect(fitted.included).toBe('partial');
    expect(fitted.text).toBe('Town:\nFirst sentence here. Second one here! Third: is it?');
    expect(fitted.content).toBe('First sentence here. Second one here! Third: is it?');
    expect(fitted.tokens).toBe(10);
    expect(fitted.reason).toBe('sticky 2 of 3; trimmed to fit: 10 of 15 tokens');
  });

  it('keeps closing quotes with their sentence', () => {
    expect(fit([long], 12)[0].text).toBe(
      'Town:\nFirst sentence here. Second one here! Third: is it? "Fourth, quoted."',
    );
  });

  it('counts the overhead in the cut too', () => {
    const [fitted] = fit([long], 10, 3);
    expect(fitted.text).toBe('Town:\nFirst sentence here. Second one here!');
    expect(fitted.tokens).toBe(10);
    expect(fitted.reason).toBe('sticky 2 of 3; trimmed to fit: 10 of 18 tokens');
  });

  it('drops a card whose first sentence does not fit, with its place in the order', () => {
    const first = candidate({ name: 'first', priority: 1 });
    const [, fitted] = fit([long, first], 7);
    expect(fitted).toEqual({
      card: long,
      content: long.content,
      text: render(long.name, long.content),
      tokens: 15,
      included: 'dropped',
      reason: 'no room: priority 2 of 2',
    });
  });

  it('never cuts a one-sentence card: it fits whole or is dropped', () => {
    const single = candidate({ name: 'one', content: 'Just one long sentence with no stop at all' });
    expect(summary(fit([single], 5))).toEqual(['one:dropped:10']);
  });

  it('splits at ellipses and paragraph breaks, and not inside numbers or words', () => {
    const card = candidate({
      name: 'n',
      content: 'It costs 3.5 coins… Or so.\n\nA new paragraph without a stop\nstill one.',
    });
    expect(fit([card], 6)[0].text).toBe('n:\nIt costs 3.5 coins…');
    expect(fit([card], 8)[0].text).toBe('n:\nIt costs 3.5 coins… Or so.');
    const paragraphs = candidate({ name: 'p', content: 'No stop here\n\nNor here\n  \nLast part' });
    expect(fit([paragraphs], 7)[0].text).toBe('p:\nNo stop here\n\nNor here');
    expect(fit([paragraphs], 5)[0].text).toBe('p:\nNo stop here');
  });

  it('gives the cards after a cut or dropped one their chance in the room left', () => {
    const cards = [
      candidate({ name: 'big', priority: 3, content: 'A b c d e f. G h i j k l.' }),
      candidate({ name: 'huge', priority: 2, content: 'One two three four five six seven eight nine ten.' }),
      candidate({ name: 'small', priority: 1, content: 'Tiny.' }),
      candidate({ name: 'second-small', priority: 0, content: 'Also tiny.' }),
    ];
    // big: 13 whole, 7 cut; 3 left after the cut: huge (11) dropped, small (2) fits, second-small (3) does not.
    expect(summary(fit(cards, 10))).toEqual([
      'big:partial:7',
      'huge:dropped:11',
      'small:full:2',
      'second-small:dropped:3',
    ]);
  });

  it('drops everything when there is no room', () => {
    const cards = [candidate({ name: 'a' }), candidate({ name: 'b' })];
    expect(fit(cards, 0).map((f) => f.reason)).toEqual(['no room: priority 1 of 2', 'no room: priority 2 of 2']);
    expect(summary(fit(cards, -5))).toEqual(['a:dropped:4', 'b:dropped:4']);
  });

  it('counts a few times however many sentences the card has', () => {
    const content = Array.from({ length: 1000 }, (_, index) => `Sentence number ${index}.`).join(' ');
    let counts = 0;
    const counting = (text: string) => {
      counts++;
      return words(text);
    };
    const [fitted] = fitCards([candidate({ name: 'long', content })], 301, counting, render);
    expect(fitted.included).toBe('partial');
    expect(fitted.text.endsWith('Sentence number 99.')).toBe(true);
    expect(fitted.tokens).toBe(301);
    expect(counts).toBeLessThanOrEqual(12);
  });

  it('uses the render it is given for the cut text', () => {
    const bracketed = (name: string, content: string) => `[${name}] ${content}`;
    const [fitted] = fitCards([candidate({ name: 'X', content: 'Aa bb. Cc dd.' })], 3, words, bracketed);
    expect(fitted.text).toBe('[X] Aa bb.');
  });
});

describe('sentenceEnds', () => {
  /** The pattern the one-pass scan replaced, as the reference for where sentences end (it backtracked over runs of punctuation). */
  const PATTERN = /[.!?…]+["'”’»)\]}]*(?=\s)|\n[^\S\n]*\n/g;
  function byPattern(content: string): number[] {
    const text = content.trimEnd();
    const ends: number[] = [];
    for (const match of text.matchAll(PATTERN)) {
      const end = match[0].startsWith('\n') ? match.index : match.index + match[0].length;
      const trimmed = text.slice(0, end).trimEnd().length;
      if (trimmed > 0 && trimmed > (ends.at(-1) ?? 0) && trimmed < text.length) ends.push(trimmed);
    }
    ends.push(text.length);
    return ends;
  }

  it('ends sentences where the sentence pattern did, on texts of the characters that matter', () => {
    const random = seededRandom(25);
    const alphabet = ['.', '.', '!', '?', '…', '"', '”', ')', ']', ' ', ' ', '\n', '\n', '\t', '\u00a0', 'a', 'B', '3'];
    for (let round = 0; round < 3000; round++) {
      const length = Math.floor(random() * 30);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(sentenceEnds(text), JSON.stringify(text)).toEqual(byPattern(text));
    }
  });

  it('looks at each character a bounded number of times, however long its runs of punctuation or spaces', () => {
    const hostile = [
      '.'.repeat(8000),
      `${'.'.repeat(4000)}x. ${'!'.repeat(3990)}y.`,
      `${'.'.repeat(7990)}”x`,
      '. '.repeat(4000),
      '\n'.repeat(8000),
      `${'\n '.repeat(3000)}x`,
      `a${' '.repeat(7994)}\n\nb`,
      `${'"'.repeat(4000)}${'?'.repeat(4000)}`,
    ];
    for (const content of hostile) {
      const meter = { steps: 0 };
      expect(sentenceEnds(content, meter)).toEqual(byPattern(content));
      expect(meter.steps, JSON.stringify(content.slice(0, 12))).toBeLessThanOrEqual(2 * content.length);
    }
  });

  it('cuts a card of thousands of dots at its sentences', () => {
    const content = `${'.'.repeat(4000)}x. ${'.'.repeat(3990)}y.`;
    const [fitted] = fitCards([candidate({ name: 'dots', content })], 4010, (text) => text.length, render);
    expect(fitted.included).toBe('partial');
    expect(fitted.text).toBe(`dots:\n${'.'.repeat(4000)}x.`);
  });
});
