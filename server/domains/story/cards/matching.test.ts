// Story-card matching: whole words, case, Unicode, regular-expression keys, secondary logic, scan
// depth and the distance a hit reports.
import { describe, expect, it } from 'vitest';
import { STORY_CARD_MESSAGES } from '@shared/schemas/story-cards';
import { createCardScanner, type MatchableCard } from './matching';
import { isRegexKey, keyProblem } from './regex-keys';

const card = (fields: Partial<MatchableCard> = {}): MatchableCard => ({
  id: 1,
  keys: ['Ash'],
  secondaryKeys: [],
  secondaryLogic: 'andAny',
  caseSensitive: false,
  wholeWords: true,
  scanDepth: 4,
  ...fields,
});

/** The hit of a card whose only text is the action. */
const hitIn = (text: string, fields: Partial<MatchableCard> = {}) => createCardScanner([text]).match(card(fields));
const fires = (text: string, fields: Partial<MatchableCard> = {}) => hitIn(text, fields) !== null;

describe('isRegexKey', () => {
  it('knows /pattern/flags from a plain key', () => {
    expect(isRegexKey('/ash(es)?/')).toBe(true);
    expect(isRegexKey('/ash/i')).toBe(true);
    expect(isRegexKey('/a/b/msi')).toBe(true);
    expect(isRegexKey('/ash/q')).toBe(true);
    expect(isRegexKey('Ash')).toBe(false);
    expect(isRegexKey('AC/DC')).toBe(false);
    expect(isRegexKey('//')).toBe(false);
    expect(isRegexKey('/')).toBe(false);
    expect(isRegexKey('/ash')).toBe(false);
    expect(isRegexKey('/ash/1')).toBe(false);
  });
});

describe('keyProblem', () => {
  it('is null when every key can run', () => {
    expect(keyProblem({ keys: ['Ash', '/ash(es)?/imsugy'], secondaryKeys: ['/^the/m', 'old church'] })).toBeNull();
    expect(keyProblem({ keys: [], secondaryKeys: [] })).toBeNull();
  });

  it('names a key RE2 cannot run, primary or secondary, with its reason', () => {
    expect(keyProblem({ keys: ['Ash', '/(a)\\1/'], secondaryKeys: [] })).toBe(
      "The key '/(a)\\1/' is not a regular expression Taleweaver can run: invalid escape sequence: `\\1`.",
    );
    expect(keyProblem({ keys: ['Ash'], secondaryKeys: ['/(?=ash)/'] })).toMatch(
      /^The key '\/\(\?=ash\)\/' is not a regular expression Taleweaver can run: .*\(\?=/,
    );
    expect(keyProblem({ keys: ['/[ash/'], secondaryKeys: [] })).toMatch(/^The key '\/\[ash\/' .*missing closing \]/);
  });

  it('refuses unknown flags', () => {
    expect(keyProblem({ keys: ['/ash/x'], secondaryKeys: [] })).toBe(
      "The key '/ash/x' has a flag Taleweaver does not know: 'x' (a regular expression may use i, m and s).",
    );
    expect(keyProblem({ keys: ['/ash/I'], secondaryKeys: [] })).toContain("'I'");
  });

  it('refuses a pattern whose compiled program is past REGEX_KEY_PROGRAM_MAX instructions, naming it', () => {
    expect(keyProblem({ keys: ['Ash'], secondaryKeys: ['/.{1000}/'] })).toBe(
      STORY_CARD_MESSAGES.regexKeyTooLarge('/.{1000}/', 1002),
    );
    expect(keyProblem({ keys: ['/x{1,200}/i'], secondaryKeys: [] })).toMatch(/^The key '\/x\{1,200\}\/i' is too large/);
    // Written out in full, a key's 100 characters stay well within it.
    const names =
      '/\\b(alice|bob|carol|dave|erin|frank|grace|heidi|ivan|judy|mallory|olivia|peggy|rupert|sybil)s?\\b/i';
    expect(keyProblem({ keys: [names, `/${'a?'.repeat(49)}/`, '/\\w{100}/'], secondaryKeys: [] })).toBeNull();
  });

  it('leaves a stored key past the limit out of matching', () => {
    expect(hitIn('xxxx', { keys: ['/x{4,300}/'] })).toBeNull();
    expect(hitIn('xxxx', { keys: ['/x{4,30}/'] })).toEqual({ key: '/x{4,30}/', distance: 0 });
  });
});

describe('plain keys: whole words', () => {
  it('fires on the word with punctuation or brackets around it, not inside another word', () => {
    expect(fires('Ash, come here.')).toBe(true);
    expect(fires('a pile of (ash)')).toBe(true);
    expect(fires('ash')).toBe(true);
    expect(fires('"Ash!"')).toBe(true);
    expect(fires('You wash the cups.')).toBe(false);
    expect(fires('The ashes are cold.')).toBe(false);
    expect(fires('ash_tree')).toBe(false);
    expect(fires('Ash2')).toBe(false);
  });

  it('does not fire a short key inside a contraction or word', () => {
    expect(fires("I ain't going.", { keys: ['AI'] })).toBe(false);
    expect(fires('The AI wakes.', { keys: ['AI'] })).toBe(true);
    expect(fires('Said the rain.', { keys: ['AI'] })).toBe(false);
  });

  it('matches multi-word keys and keys with punctuation at their two ends', () => {
    expect(fires('We reach the Old  Church? No, the old church.', { keys: ['old church'] })).toBe(true);
    expect(fires('the old churchyard', { keys: ['old church'] })).toBe(false);
    expect(fires('a bold church', { keys: ['old church'] })).toBe(false);
    expect(fires("He ain't here.", { keys: ["ain't"] })).toBe(true);
    expect(fires("He ain'tly here.", { keys: ["ain't"] })).toBe(false);
    expect(fires('Where is R2-D2?', { keys: ['R2-D2'] })).toBe(true);
    expect(fires('Where is R2-D22?', { keys: ['R2-D2'] })).toBe(false);
    expect(fires('Where is XR2-D2?', { keys: ['R2-D2'] })).toBe(false);
  });

  it('keeps looking past an occurrence inside a word', () => {
    expect(fires('the old churchyard, then the old church', { keys: ['old church'] })).toBe(true);
  });

  it('matches substrings when whole words are off', () => {
    expect(fires('You wash the cups.', { wholeWords: false })).toBe(true);
    expect(fires('the old churchyard', { keys: ['old church'], wholeWords: false })).toBe(true);
  });

  it('reads plain keys literally, never as a pattern', () => {
    expect(fires('a.c', { keys: ['a.c'] })).toBe(true);
    expect(fires('abc', { keys: ['a.c'] })).toBe(false);
    expect(fires('a (b) c', { keys: ['(b)'] })).toBe(true);
    expect(fires('bbb', { keys: ['b+'], wholeWords: false })).toBe(false);
  });
});

describe('plain keys: case', () => {
  it('ignores case by default and respects it when asked', () => {
    expect(fires('ASH falls.')).toBe(true);
    expect(fires('ASH falls.', { caseSensitive: true })).toBe(false);
    expect(fires('Ash falls.', { caseSensitive: true })).toBe(true);
    expect(fires('The OLD Church', { keys: ['old church'], caseSensitive: true })).toBe(false);
    expect(fires('The old church', { keys: ['old church'], caseSensitive: true })).toBe(true);
  });
});

describe('plain keys: Unicode', () => {
  it('compares lowercased forms of accented letters', () => {
    expect(fires('Das ölfeld brennt.', { keys: ['Ölfeld'] })).toBe(true);
    expect(fires('ÉCOLE', { keys: ['école'] })).toBe(true);
    expect(fires('Das ölfeld brennt.', { keys: ['Ölfeld'], caseSensitive: true })).toBe(false);
  });

  it('treats accented letters as part of the word', () => {
    expect(fires('Where is zoë!', { keys: ['Zoë'] })).toBe(true);
    expect(fires('Zoëlle waves.', { keys: ['Zoë'] })).toBe(false);
    expect(fires('Zoë waves.', { keys: ['Zo'] })).toBe(false);
    expect(fires('café', { keys: ['caf'] })).toBe(false);
  });

  it('treats combining marks as part of the word, and matches composed and decomposed forms alike', () => {
    const decomposed = 'Zoe\u0308';
    expect(fires(`Where is ${decomposed}?`, { keys: ['Zoë'] })).toBe(true);
    expect(fires('Where is Zoë?', { keys: [decomposed] })).toBe(true);
    expect(fires(`Where is ${decomposed}?`, { keys: ['Zoe'] })).toBe(false);
    // A mark with no composed form stays a separate code point, and still counts as part of the word.
    expect(fires('Ash\u20dd rises', { keys: ['Ash'] })).toBe(false);
    expect(fires('old ash\u20dd tree', { keys: ['old ash'] })).toBe(false);
  });

  it('counts letters of other alphabets and astral letters as word characters', () => {
    expect(fires('Москва горит', { keys: ['москва'] })).toBe(true);
    expect(fires('Москвачи', { keys: ['москва'] })).toBe(false);
    expect(fires('old ash𝐀', { keys: ['old ash'] })).toBe(false);
    expect(fires('𝐀old ash', { keys: ['old ash'] })).toBe(false);
    expect(fires('😀old ash😀', { keys: ['old ash'] })).toBe(true);
  });

  it('matches substrings for scripts written without spaces', () => {
    expect(fires('我们去东京吧', { keys: ['东京'] })).toBe(true);
    expect(fires('きょうはとうきょうへいきます', { keys: ['とうきょう'] })).toBe(true);
    expect(fires('カタカナのテスト', { keys: ['テスト'] })).toBe(true);
    expect(fires('ฉันชอบกินข้าวมาก', { keys: ['ข้าว'] })).toBe(true);
    expect(fires('ฉันชอบกินมาก', { keys: ['ข้าว'] })).toBe(false);
  });
});

describe('regular-expression keys', () => {
  it('runs the pattern, with the card adding case-insensitivity', () => {
    expect(fires('The ashes are cold.', { keys: ['/ash(es)?/'] })).toBe(true);
    expect(fires('THE ASHES', { keys: ['/ash(es)?/'] })).toBe(true);
    expect(fires('THE ASHES', { keys: ['/ash(es)?/'], caseSensitive: true })).toBe(false);
    expect(fires('THE ASHES', { keys: ['/ash(es)?/i'], caseSensitive: true })).toBe(true);
  });

  it('ignores the whole-word rule', () => {
    expect(fires('You wash the cups.', { keys: ['/ash/'] })).toBe(true);
  });

  it('honours m and s, and accepts u, g and y', () => {
    const text = 'first line\nsecond line';
    expect(fires(text, { keys: ['/^second/'] })).toBe(false);
    expect(fires(text, { keys: ['/^second/m'] })).toBe(true);
    expect(fires(text, { keys: ['/line.second/'] })).toBe(false);
    expect(fires(text, { keys: ['/line.second/s'] })).toBe(true);
    expect(fires(text, { keys: ['/second/gyu'] })).toBe(true);
  });

  it('matches Unicode case-insensitively', () => {
    expect(fires('DAS ÖLFELD', { keys: ['/ölfeld/'] })).toBe(true);
    expect(fires('Zoë', { keys: ['/\\p{L}+ë/'] })).toBe(true);
  });

  it('evaluates a catastrophic pattern correctly on a long input', () => {
    const long = 'a'.repeat(20_000);
    expect(fires(`${long}b`, { keys: ['/(a+)+$/'] })).toBe(false);
    expect(fires(long, { keys: ['/(a+)+$/'] })).toBe(true);
  });

  it('never fires a key that cannot run or has an unknown flag, and goes on to the next key', () => {
    expect(fires('aa', { keys: ['/(a)\\1/'] })).toBe(false);
    expect(fires('ash', { keys: ['/ash/x'] })).toBe(false);
    expect(hitIn('aa ash', { keys: ['/(a)\\1/', 'ash'] })).toEqual({ key: 'ash', distance: 0 });
  });
});

describe('secondary keys', () => {
  const text = 'Ash walks to the old church with a lantern.';
  const secondary = (secondaryLogic: MatchableCard['secondaryLogic'], secondaryKeys: string[]) =>
    fires(text, { secondaryLogic, secondaryKeys });

  it('andAny: one of them too', () => {
    expect(secondary('andAny', ['lantern', 'sword'])).toBe(true);
    expect(secondary('andAny', ['torch', 'sword'])).toBe(false);
  });

  it('andAll: all of them too', () => {
    expect(secondary('andAll', ['lantern', 'old church'])).toBe(true);
    expect(secondary('andAll', ['lantern', 'sword'])).toBe(false);
  });

  it('notAny: none of them', () => {
    expect(secondary('notAny', ['torch', 'sword'])).toBe(true);
    expect(secondary('notAny', ['torch', 'lantern'])).toBe(false);
  });

  it('notAll: not all of them', () => {
    expect(secondary('notAll', ['lantern', 'sword'])).toBe(true);
    expect(secondary('notAll', ['lantern', 'old church'])).toBe(false);
  });

  it('no secondary keys: no condition, whatever the logic', () => {
    for (const logic of ['andAny', 'andAll', 'notAny', 'notAll'] as const) expect(secondary(logic, [])).toBe(true);
  });

  it('follows the card’s case and whole-word settings', () => {
    expect(fires('Ash and the LANTERN', { secondaryKeys: ['lantern'], caseSensitive: true, keys: ['Ash'] })).toBe(
      false,
    );
    expect(fires('Ash and the lanterns', { secondaryKeys: ['lantern'] })).toBe(false);
    expect(fires('Ash and the lanterns', { secondaryKeys: ['lantern'], wholeWords: false })).toBe(true);
    expect(fires('Ash and the lanterns', { secondaryKeys: ['/lanterns?/'] })).toBe(true);
  });

  it('looks for secondary keys in every scanned text, not only where the primary key was', () => {
    const scanner = createCardScanner(['Ash arrives.', 'Nothing here.', 'A lantern glows.', 'A sword.']);
    expect(scanner.match(card({ secondaryKeys: ['lantern'], scanDepth: 2 }))).toEqual({ key: 'Ash', distance: 0 });
    expect(scanner.match(card({ secondaryKeys: ['lantern'], scanDepth: 1 }))).toBeNull();
    expect(scanner.match(card({ secondaryKeys: ['sword'], secondaryLogic: 'notAny', scanDepth: 2 }))).not.toBeNull();
    expect(scanner.match(card({ secondaryKeys: ['sword'], secondaryLogic: 'notAny', scanDepth: 3 }))).toBeNull();
  });
});

describe('scan depth and distance', () => {
  const texts = ['You wait.', 'The wind howls.', 'Bessie moos.', 'Ash and Bessie talk.', 'Old news.', 'Ash again.'];
  const scanner = createCardScanner(texts);

  it('reports how far back the nearest key came up', () => {
    expect(scanner.match(card({ keys: ['Bessie'] }))).toEqual({ key: 'Bessie', distance: 2 });
    expect(scanner.match(card({ keys: ['Ash'] }))).toEqual({ key: 'Ash', distance: 3 });
    expect(scanner.match(card({ keys: ['wait'] }))).toEqual({ key: 'wait', distance: 0 });
  });

  it('prefers the nearer key over the earlier one in the card, and the first key on a tie', () => {
    expect(scanner.match(card({ keys: ['Ash', 'Bessie'] }))).toEqual({ key: 'Bessie', distance: 2 });
    expect(scanner.match(card({ keys: ['Ash', 'Bessie'], scanDepth: 3 }))).toEqual({ key: 'Bessie', distance: 2 });
    expect(scanner.match(card({ keys: ['talk', 'Ash'] }))).toEqual({ key: 'talk', distance: 3 });
    expect(scanner.match(card({ keys: ['Ash', 'talk'] }))).toEqual({ key: 'Ash', distance: 3 });
  });

  it('looks at scanDepth messages besides the action, no further', () => {
    expect(scanner.match(card({ keys: ['Bessie'], scanDepth: 2 }))).toEqual({ key: 'Bessie', distance: 2 });
    expect(scanner.match(card({ keys: ['Bessie'], scanDepth: 1 }))).toBeNull();
    expect(scanner.match(card({ keys: ['wait'], scanDepth: 0 }))).toEqual({ key: 'wait', distance: 0 });
    expect(scanner.match(card({ keys: ['wind'], scanDepth: 0 }))).toBeNull();
    expect(scanner.match(card({ keys: ['again'], scanDepth: 4 }))).toBeNull();
    expect(scanner.match(card({ keys: ['again'], scanDepth: 5 }))).toEqual({ key: 'again', distance: 5 });
  });

  it('stops at the texts it has, however deep the card looks', () => {
    expect(scanner.match(card({ keys: ['again'], scanDepth: 100 }))).toEqual({ key: 'again', distance: 5 });
    expect(createCardScanner([]).match(card())).toBeNull();
  });

  it('answers each card on its own, whatever was asked before', () => {
    const fresh = createCardScanner(texts);
    expect(fresh.match(card({ keys: ['ASH'], caseSensitive: true }))).toBeNull();
    expect(fresh.match(card({ keys: ['ASH'] }))).toEqual({ key: 'ASH', distance: 3 });
    expect(fresh.match(card({ keys: ['ASH'], caseSensitive: true }))).toBeNull();
  });
});

describe('matchText', () => {
  const scanner = createCardScanner(['Nothing happens.']);

  it('finds the first primary key in an extra text, at distance 0', () => {
    expect(scanner.matchText(card({ keys: ['Bessie', 'farm'] }), 'The farm where Bessie lives.')).toEqual({
      key: 'Bessie',
      distance: 0,
    });
    expect(scanner.matchText(card({ keys: ['farm', 'Bessie'] }), 'The farm where Bessie lives.')).toEqual({
      key: 'farm',
      distance: 0,
    });
    expect(scanner.matchText(card({ keys: ['Ash'] }), 'The farm where Bessie lives.')).toBeNull();
  });

  it('applies the secondary rule to that text alone', () => {
    const bessie = card({ keys: ['Bessie'], secondaryKeys: ['farm'], secondaryLogic: 'andAll' });
    expect(scanner.matchText(bessie, 'Bessie on the farm.')).not.toBeNull();
    expect(scanner.matchText(bessie, 'Bessie in town.')).toBeNull();
    expect(createCardScanner(['the farm']).matchText(bessie, 'Bessie in town.')).toBeNull();
  });

  it('does not look at the scanned texts', () => {
    expect(createCardScanner(['Ash is here.']).matchText(card(), 'Nobody.')).toBeNull();
  });

  it('keeps answering right past its cache of extra texts', () => {
    for (let index = 0; index < 100; index++) {
      expect(scanner.matchText(card({ keys: [`name${index}`] }), `This is name${index}.`)).not.toBeNull();
    }
    expect(scanner.matchText(card({ keys: ['name3'] }), 'This is name3.')).not.toBeNull();
  });
});

describe('a large turn', () => {
  it('matches a thousand cards over five texts as a card-by-card scan would', () => {
    const words = Array.from({ length: 600 }, (_, index) => `word${index}`);
    const texts = Array.from({ length: 5 }, (_, text) =>
      words
        .filter((_, index) => index % 5 === text)
        .map((word, index) => (index % 7 === 0 ? `${word}, the old ${word}.` : word))
        .join(' '),
    );
    const scanner = createCardScanner(texts);
    for (let id = 0; id < 1000; id++) {
      const keys = [`word${(id * 7) % 900}`, `old word${(id * 11) % 900}`, `/word${id % 900}\\b/`];
      const hit = scanner.match(card({ id, keys, scanDepth: id % 6 }));
      const depth = Math.min(id % 6, 4);
      let expected: { key: string; distance: number } | null = null;
      for (let distance = 0; distance <= depth && !expected; distance++) {
        const found = keys.find((key) => {
          const word = key.startsWith('/') ? key.slice(1, -3) : key;
          return new RegExp(`(?<![\\w])${word}(?![\\w])`).test(texts[distance]);
        });
        if (found) expected = { key: found, distance };
      }
      expect(hit, `card ${id}`).toEqual(expected);
    }
  });
});
