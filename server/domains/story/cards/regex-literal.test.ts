// The literal a regex key's every match holds: read from the pattern, conservative where it cannot
// be sure, and never wrong: over many patterns and texts, a text RE2 matches always holds it.
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { requiredLiteral } from './regex-literal';

describe('requiredLiteral', () => {
  it.each([
    ["\\bmarrowind(s|'s)?\\b", true, 'marrowind'],
    ['colou?r of the sea', false, 'r of the sea'],
    ['ships? at sea', true, 'hip'],
    ['[Tt]he (old|new) lighthouse', false, ' lighthouse'],
    ['ab+cdef', false, 'cdef'],
    ['x{2}yzw', false, 'yzw'],
    ['Bessie', true, 'be'],
    ['Bessie the cow', true, 'ie the cow'],
    ['\\d+ ships', false, ' ships'],
  ])('%s (ignoring case: %s) holds %j', (pattern, ignoreCase, text) => {
    const found = requiredLiteral(pattern, ignoreCase);
    if (text.trim().length < 3) expect(found).toBeNull();
    else expect(found).toEqual({ text, fold: ignoreCase });
  });

  it.each(['dragon|wyrm', '(?i)dragon', 'dr.g', 'a?b?c?', '[dragon]', '\\w+\\s\\w+'])('%s has none', (pattern) => {
    expect(requiredLiteral(pattern, false)).toBeNull();
  });

  it('is held by every text the pattern matches', () => {
    const patterns = [
      'the (red|blue) door',
      'lamp( post)?s',
      'Kit+ens? of Kent',
      'old\\s+harbour',
      'ships? at sea',
      '\\bbell tower\\b',
      'ro+m',
      'pier[0-9]* end',
    ];
    const pieces = [
      'the',
      'red',
      'blue',
      'door',
      'lamp',
      ' post',
      's',
      'Kitten',
      'Kittens',
      ' of ',
      'Kent',
      'KENT',
      'kent',
    ];
    const more = [
      'old',
      ' ',
      '  ',
      'harbour',
      'ship',
      'ships',
      ' at sea',
      'bell tower',
      'rom',
      'rooom',
      'pier',
      '42',
      ' end',
    ];
    const words = [...pieces, ...more, 'ſ', 'K'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % words.length;
    let matched = 0;
    let withLiteral = 0;
    for (const pattern of patterns) {
      for (const ignoreCase of [false, true]) {
        const regex = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
        const literal = requiredLiteral(pattern, ignoreCase);
        if (!literal) continue;
        withLiteral += 1;
        for (let i = 0; i < 400; i++) {
          const text = Array.from({ length: 1 + (i % 9) }, next)
            .map((w) => words[w])
            .join(i % 2 ? ' ' : '');
          if (!regex.test(text)) continue;
          matched += 1;
          expect(literal.fold ? text.toLowerCase() : text).toContain(literal.text);
        }
      }
    }
    // The texts do reach the patterns, and most patterns have a literal: the check above is not empty.
    expect(withLiteral).toBeGreaterThanOrEqual(12);
    expect(matched).toBeGreaterThan(50);
  });
});
