// Spoken text joins the draft after what is typed, never replacing it.
import { describe, expect, it } from 'vitest';
import { appendTranscript } from './append-transcript';

describe('appendTranscript', () => {
  it('stands on its own in an empty draft', () => {
    expect(appendTranscript('', ' look behind the door ')).toBe('look behind the door');
  });

  it('follows typed text after one space', () => {
    expect(appendTranscript('I lift the lantern', 'look behind the door')).toBe(
      'I lift the lantern look behind the door',
    );
  });

  it('adds no second space after a draft ending in whitespace', () => {
    expect(appendTranscript('I lift the lantern ', 'and wait')).toBe('I lift the lantern and wait');
    expect(appendTranscript('First line\n', 'second line')).toBe('First line\nsecond line');
  });

  it('leaves the draft alone when nothing was heard', () => {
    expect(appendTranscript('I wait', '   ')).toBe('I wait');
  });
});
