// The spec's voice rule: sorted English first, then by name; preferred is an
// English voice named premium/enhanced/neural/Google, else any English, else the first.
import { describe, expect, it } from 'vitest';
import { effectiveVoice, isEnglish, preferredVoice, sortVoices, voiceKey } from './voices';

const v = (name: string, lang: string) => ({ name, lang });

describe('isEnglish', () => {
  it('takes any language tag starting with en, in any case or separator', () => {
    expect(['en', 'en-US', 'en_GB', 'EN-au'].map((lang) => isEnglish(v('x', lang)))).toEqual([true, true, true, true]);
    expect(['fr-FR', 'de', '', 'es-EN'].map((lang) => isEnglish(v('x', lang)))).toEqual([false, false, false, false]);
  });
});

describe('sortVoices', () => {
  it('puts English voices first, then sorts by name', () => {
    const voices = [
      v('Zed', 'de-DE'),
      v('Amelie', 'fr-FR'),
      v('Google US English', 'en-US'),
      v('Alice', 'en-GB'),
      v('Daniel', 'en-GB'),
    ];
    expect(sortVoices(voices).map((x) => x.name)).toEqual(['Alice', 'Daniel', 'Google US English', 'Amelie', 'Zed']);
  });

  it('returns a copy and keeps the extra fields of the voices', () => {
    const voices = [
      { name: 'B', lang: 'en', id: 2 },
      { name: 'A', lang: 'en', id: 1 },
    ];
    const sorted = sortVoices(voices);
    expect(sorted.map((x) => x.id)).toEqual([1, 2]);
    expect(voices.map((x) => x.id)).toEqual([2, 1]);
  });
});

describe('preferredVoice', () => {
  it.each([
    'Samantha (Premium)',
    'Ava (Enhanced)',
    'Microsoft Aria Online (Natural) - Neural',
    'Google UK English Female',
    'PREMIUM voice',
    'google',
  ])('prefers an English voice whose name suggests quality: %s', (name) => {
    const voices = sortVoices([v('Alex', 'en-US'), v(name, 'en-GB'), v('Thomas', 'fr-FR')]);
    expect(preferredVoice(voices)?.name).toBe(name);
  });

  it('ignores a premium-sounding voice that is not English', () => {
    expect(preferredVoice(sortVoices([v('Google français', 'fr-FR'), v('Fred', 'en-US')]))?.name).toBe('Fred');
  });

  it('falls back to any English voice, the first in the order given', () => {
    expect(preferredVoice(sortVoices([v('Zoe', 'en-US'), v('Amelie', 'fr-FR'), v('Bob', 'en-GB')]))?.name).toBe('Bob');
  });

  it('falls back to the first voice when none is English, and to null when there is none', () => {
    expect(preferredVoice(sortVoices([v('Zed', 'de-DE'), v('Amelie', 'fr-FR')]))?.name).toBe('Amelie');
    expect(preferredVoice([])).toBeNull();
  });

  it("breaks a tie with the reader's own language, never over the spec's steps", () => {
    const voices = sortVoices([
      v('Google UK English Female', 'en-GB'),
      v('Google US English', 'en-US'),
      v('Alice', 'en-GB'),
    ]);
    expect(preferredVoice(voices)?.name).toBe('Google UK English Female');
    expect(preferredVoice(voices, 'en-US')?.name).toBe('Google US English');
    expect(preferredVoice(voices, 'en_gb')?.name).toBe('Google UK English Female');
    // A plain English voice in the reader's language does not beat a premium one.
    expect(preferredVoice(sortVoices([v('Alice', 'en-GB'), v('Google US English', 'en-US')]), 'en-GB')?.name).toBe(
      'Google US English',
    );
  });
});

describe('effectiveVoice', () => {
  const browser = [v('Alice', 'en-GB'), v('Google US English', 'en-US'), v('Amelie', 'fr-FR')];

  it('is the preferred browser voice when nothing was chosen', () => {
    expect(effectiveVoice(null, browser, ['aria'])).toEqual({
      name: 'Google US English',
      lang: 'en-US',
      source: 'browser',
    });
  });

  it('keeps a chosen voice while it is offered', () => {
    expect(effectiveVoice({ name: 'Amelie', lang: 'fr-FR', source: 'browser' }, browser, [])).toEqual({
      name: 'Amelie',
      lang: 'fr-FR',
      source: 'browser',
    });
    expect(effectiveVoice({ name: 'aria', lang: '', source: 'server' }, browser, ['aria'])).toEqual({
      name: 'aria',
      lang: '',
      source: 'server',
    });
  });

  it('falls back to the preferred voice when the chosen one is gone', () => {
    expect(effectiveVoice({ name: 'aria', lang: '', source: 'server' }, browser, [])?.name).toBe('Google US English');
    expect(effectiveVoice({ name: 'Gone', lang: 'en-US', source: 'browser' }, browser, [])?.name).toBe(
      'Google US English',
    );
  });

  it('keeps a browser choice while the browser has not listed its voices yet', () => {
    expect(effectiveVoice({ name: 'Alice', lang: 'en-GB', source: 'browser' }, [], [])).toEqual({
      name: 'Alice',
      lang: 'en-GB',
      source: 'browser',
    });
  });

  it('uses the first server voice when the browser has none, and null when nobody has any', () => {
    expect(effectiveVoice(null, [], ['nova', 'aria'])).toEqual({ name: 'nova', lang: '', source: 'server' });
    expect(effectiveVoice(null, [], [])).toBeNull();
  });

  it('keys voices by source and name', () => {
    expect(voiceKey({ name: 'Alice', source: 'browser' })).toBe('browser:Alice');
    expect(voiceKey({ name: 'Alice', source: 'server' })).toBe('server:Alice');
  });
});
