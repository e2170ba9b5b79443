// The remembering token counter: same counts as the tokenizer, each long text counted once while it
// is remembered, and the remembered texts held to their character budget, least recently used out.
import { describe, expect, it, vi } from 'vitest';
import { loadTokenCounter, rememberingCounter } from './tokenizer';

const text = (label: string, length = 100) => `${label} `.repeat(Math.ceil(length / (label.length + 1))).slice(0, length);

describe('rememberingCounter', () => {
  it('counts a long text once while it is remembered, and short texts every time', () => {
    const count = vi.fn((t: string) => t.split(' ').length);
    const remembering = rememberingCounter(count, 1000);
    const long = text('lantern');
    expect(remembering(long)).toBe(count(long));
    count.mockClear();
    expect(remembering(`${long}`)).toBe(long.split(' ').length);
    expect(count).not.toHaveBeenCalled();
    remembering('a short one');
    remembering('a short one');
    expect(count).toHaveBeenCalledTimes(2);
    expect(remembering('')).toBe(0);
  });

  it('forgets the least recently used texts past its character budget', () => {
    const count = vi.fn((t: string) => t.length);
    const remembering = rememberingCounter(count, 600);
    const [a, b, c] = [text('a', 240), text('b', 240), text('c', 240)];
    remembering(a);
    remembering(b);
    remembering(a); // a is now the most recently used
    remembering(c); // 720 characters: b, the least recently used, goes
    count.mockClear();
    remembering(a);
    remembering(c);
    expect(count).not.toHaveBeenCalled();
    remembering(b);
    expect(count).toHaveBeenCalledWith(b);
  });

  it('counts what the tokenizer counts', async () => {
    const { countTokens } = await import('gpt-tokenizer');
    const counter = await loadTokenCounter();
    const prose = 'The ferryman raises his lantern and the fog parts around the bow of the little boat. '.repeat(3);
    expect(counter(prose)).toBe(countTokens(prose));
    expect(counter(prose)).toBe(countTokens(prose));
  });
});
