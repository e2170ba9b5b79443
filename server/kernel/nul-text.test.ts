// Where a parsed value holds U+0000: the first place in document order, an object's key before its
// value, a key holding it shown as the escape; none in text without the escape; and a value nested
// far deeper than the stack would allow is walked all the same.
import { describe, expect, it } from 'vitest';
import { holdsNul, jsonNulPath, nulPath, nulPlace } from './nul-text';

describe('nulPath', () => {
  it('names the first string holding U+0000 in document order, keys included', () => {
    expect(nulPath({ a: 'fine', b: ['x', { c: 'y\0', d: '\0' }], e: '\0' })).toEqual(['b', 1, 'c']);
    expect(nulPath({ 'k\0': 'v\0' })).toEqual(['k\0']);
    expect(nulPath('\0')).toEqual([]);
    expect(nulPath({ a: ['fine', 1, null, true, { b: 'still fine' }] })).toBeNull();
    expect(holdsNul(['a', ['b', ['\0']]])).toBe(true);
    expect(nulPlace(['entries', 3, 'un\0used'])).toBe('entries.3.un\\u0000used');
  });

  it('walks only JSON text that holds the escape', () => {
    const text = JSON.stringify({ entries: [{ content: 'A\0B' }] });
    expect(text).toContain('\\u0000');
    expect(jsonNulPath(text, JSON.parse(text))).toEqual(['entries', 0, 'content']);
    // The value is not looked at when its text cannot hold the character.
    expect(jsonNulPath('{"a":"b"}', { a: '\0' })).toBeNull();
  });

  it('walks a value nested 200,000 deep', () => {
    const depth = 200_000;
    const text = `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`;
    const path = jsonNulPath(text, JSON.parse(text));
    expect(path).toHaveLength(depth);
    expect(path?.every((step) => step === 0)).toBe(true);
  });
});
