// The streamed pieces' batching: the first at once, the rest together per window, all of it handed
// over on flush, and each alone when the window is 0.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeltaBatcher } from './delta-batcher';

describe('delta batcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives the first piece at once and the next ones together once the window has passed', () => {
    const given: string[] = [];
    const batcher = createDeltaBatcher((text) => given.push(text), 50);
    batcher.push('The ');
    expect(given).toEqual(['The ']);
    batcher.push('tide ');
    batcher.push('turns');
    vi.advanceTimersByTime(49);
    expect(given).toEqual(['The ']);
    vi.advanceTimersByTime(1);
    expect(given).toEqual(['The ', 'tide turns']);
    batcher.push('.');
    vi.advanceTimersByTime(50);
    expect(given).toEqual(['The ', 'tide turns', '.']);
  });

  it('hands over what it holds on flush, and nothing twice', () => {
    const given: string[] = [];
    const batcher = createDeltaBatcher((text) => given.push(text), 50);
    batcher.push('Gulls ');
    batcher.push('wheel ');
    batcher.push('over');
    batcher.flush();
    expect(given).toEqual(['Gulls ', 'wheel over']);
    vi.advanceTimersByTime(100);
    batcher.flush();
    expect(given).toEqual(['Gulls ', 'wheel over']);
  });

  it('gives every piece alone with a window of 0', () => {
    const given: string[] = [];
    const batcher = createDeltaBatcher((text) => given.push(text), 0);
    for (const piece of ['a ', 'b ', 'c']) batcher.push(piece);
    expect(given).toEqual(['a ', 'b ', 'c']);
  });
});
