import { describe, expect, it } from 'vitest';
import { createSentenceStream, splitSentences } from './sentences';

describe('splitSentences', () => {
  it('splits on sentence ends and paragraph breaks, collapsing whitespace', () => {
    expect(splitSentences('The door creaks open.  A cold wind rushes in!\n\nWhat do you do?')).toEqual([
      'The door creaks open.',
      'A cold wind rushes in!',
      'What do you do?',
    ]);
  });

  it('keeps a quotation with its sentence and joins punctuation-only pieces to the one before', () => {
    expect(splitSentences('"Run," she cries. You hesitate. …')).toEqual(['"Run," she cries.', 'You hesitate. …']);
  });

  it('answers nothing for blank text', () => {
    expect(splitSentences('  \n ')).toEqual([]);
  });
});

describe('createSentenceStream', () => {
  it('gives out each sentence once the next has started, and the rest at the end', () => {
    const stream = createSentenceStream();
    const text = 'You wake in a dark room. The air smells of salt. What do you do?';
    const given: string[] = [];
    for (let end = 1; end <= text.length; end += 7) given.push(...stream.push(text.slice(0, end)));
    expect(given).toEqual(['You wake in a dark room.', 'The air smells of salt.']);
    expect(stream.finish(text)).toEqual(['What do you do?']);
    expect(stream.finish(text)).toEqual([]);
  });

  it('gives the same sentences as splitting the whole text', () => {
    const text = 'One. Two is here! Three?\n\nFour, at last.';
    const stream = createSentenceStream();
    const given: string[] = [];
    for (let end = 1; end <= text.length; end += 1) given.push(...stream.push(text.slice(0, end)));
    given.push(...stream.finish(text));
    expect(given).toEqual(splitSentences(text));
  });
});
