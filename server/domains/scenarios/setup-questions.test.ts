// The setup questions a scenario's texts ask: ours with and without a default, asked once however
// often they appear, NovelAI's full form (its title is the name, its order sorts them), and text
// that only looks like a placeholder.
import { describe, expect, it } from 'vitest';
import { setupQuestions } from './setup-questions';

describe('setupQuestions', () => {
  it('finds ours, with their defaults, once each, in the order they first appear', () => {
    expect(
      setupQuestions([
        'You are ${Your name[Aria]}, a courier of ${City}.',
        'Cards mention ${Your name} again, and ${City[Brasshaven]} too.',
      ]),
    ).toEqual([
      { name: 'Your name', default: 'Aria' },
      // Its first appearance had no default; a later one gives it.
      { name: 'City', default: 'Brasshaven' },
    ]);
  });

  it("reads NovelAI's form: the title names the question, the order sorts, a bare id refers back", () => {
    expect(
      setupQuestions([
        '${2#job[Smith]Your trade:What you do for a living.} ${1#hero[Jack]Main character:Name the main character.}',
        'Later, ${hero} goes home to ${3#village}.',
      ]),
    ).toEqual([
      { name: 'Main character', default: 'Jack' },
      { name: 'Your trade', default: 'Smith' },
      { name: 'village', default: null },
    ]);
  });

  it('keeps an empty default (the player may leave it blank) apart from none', () => {
    expect(setupQuestions(['${Nickname[]} ${Age}'])).toEqual([
      { name: 'Nickname', default: '' },
      { name: 'Age', default: null },
    ]);
  });

  it('ignores what only looks like one: an empty one, a dollar alone, nested braces', () => {
    expect(setupQuestions(['Costs $5. ${} ${ } ${a{b}} {{user}} $ {Name}'])).toEqual([]);
  });
});
